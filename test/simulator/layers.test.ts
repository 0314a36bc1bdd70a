/**
 * The layers the README names: domain code (configuration, refusals) sits
 * below the HTTP layer and never imports it, and the configuration modules
 * import one another as a tree (the registry imports the validators, which
 * read shared types from a leaf), so no module reads a half-initialised one.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The repository-relative modules a file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gm)].map((m) => m[1]!);
  return specifiers.map((s) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s)));
}

const tsFiles = (dir: string): string[] => readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith(".ts")).map((f) => `${dir}/${f}`);

const DOMAIN = [...tsFiles("src/config"), ...tsFiles("src/schemas"), "durable-objects/config-store.ts"];

describe("domain modules", () => {
  it.each(DOMAIN)("%s imports nothing from the HTTP layer", (file) => {
    expect(importsOf(file).filter((target) => target.startsWith("src/http/") || target.startsWith("src/routes/"))).toEqual([]);
  });
});

const CONFIG_BACKED_ROUTES = ["keyed-list", "vrfs", "source-vrf-rules", "gre-circuits", "local-subscribers", "routing-config", "cgn-config"].map((name) => `src/routes/${name}.ts`);

describe("domain and configuration-backed route modules", () => {
  it.each([...tsFiles("src/config"), ...tsFiles("src/schemas"), ...CONFIG_BACKED_ROUTES])("%s imports nothing from durable-objects/", (file) => {
    expect(importsOf(file).filter((target) => target.startsWith("durable-objects/"))).toEqual([]);
  });
});

describe("the configuration modules", () => {
  it("import one another without a cycle", () => {
    const files = tsFiles("src/config");
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
    const cycles: string[][] = [];
    // Depth-first search: an edge back to a module still on the path closes a cycle.
    const visit = (file: string, trail: string[], done: Set<string>): void => {
      if (trail.includes(file)) {
        cycles.push([...trail.slice(trail.indexOf(file)), file]);
        return;
      }
      if (done.has(file)) return;
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file], done);
      done.add(file);
    };
    const done = new Set<string>();
    for (const file of files) visit(file, [], done);
    expect(cycles).toEqual([]);
  });
});
