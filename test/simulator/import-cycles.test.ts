import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "../../simulator/");

/** The simulator modules each module imports at run time (`import type` and all-type braces left out, since they vanish when compiled). */
function runtimeImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(`${DIR}${file}`, "utf8");
    const targets: string[] = [];
    for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+)\s+from\s+"\.\/([\w-]+\.ts)"/gm)) {
      const names = m[2]!.startsWith("{") ? m[2]!.slice(1, -1).split(",").map((n) => n.trim()).filter(Boolean) : [m[2]!];
      if (m[1] || names.every((n) => n.startsWith("type "))) continue;
      targets.push(m[3]!);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every module from which a run-time import path leads back to itself. */
function modulesOnCycles(graph: Map<string, string[]>): string[] {
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(graph.get(from) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === to) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(graph.get(next) ?? []));
    }
    return false;
  };
  return [...graph.keys()].filter((file) => reaches(file, file)).sort();
}

describe("the simulator's modules", () => {
  it("reads its own import graph (the check below looks at something)", () => {
    const graph = runtimeImports();
    expect(graph.get("model.ts")).toContain("sessions.ts");
    expect(graph.get("lifecycle.ts")).not.toContain("model.ts");
  });

  it("import one another without a run-time cycle, so no module depends on a lazily read value", () => {
    expect(modulesOnCycles(runtimeImports())).toEqual([]);
  });
});
