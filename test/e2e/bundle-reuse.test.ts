/**
 * The launcher builds the Worker again only when something it is built from
 * changed (scripts/bundle-digest.ts): a restart with the same code runs the
 * bundle it has, and an edit anywhere in the import graph, including a file
 * the previous build did not read, is built before the fleet runs it.
 * A small project of its own, built by the real `wrangler deploy --dry-run`.
 */
import { mkdir, mkdtemp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildBundle } from "../../scripts/build.ts";

describe("the Worker bundle across launches", () => {
  it("is built again exactly when a file it is built from changed", { timeout: 180_000 }, async () => {
    const project = await mkdtemp(path.join(tmpdir(), "bngfleet-bundle-reuse-"));
    const out = path.join(project, "build");
    const write = (file: string, text: string) => writeFile(path.join(project, file), text);
    await symlink(path.resolve("node_modules"), path.join(project, "node_modules"));
    await mkdir(path.join(project, "src"));
    await write("wrangler.toml", 'name = "reuse"\nmain = "src/index.ts"\ncompatibility_date = "2026-07-01"\n');
    await write(
      "src/index.ts",
      'import { word } from "./word.ts";\nexport default { fetch: () => new Response(word) };\n',
    );
    await write("src/word.ts", 'export const word = "first-word";\n');
    const bundle = () => readFile(path.join(out, "index.js"), "utf8");
    const builtAt = async () => (await stat(path.join(out, "index.js"))).mtimeMs;

    expect(await buildBundle(project, out)).toBe("built");
    expect(await bundle()).toContain("first-word");
    const first = await builtAt();

    // Nothing changed: wrangler does not run, and the same file is what a launch loads.
    expect(await buildBundle(project, out)).toBe("unchanged");
    expect(await builtAt()).toBe(first);

    // A source it read, edited.
    await write("src/word.ts", 'export const word = "second-word";\n');
    expect(await buildBundle(project, out)).toBe("built");
    expect(await bundle()).toContain("second-word");

    // A new import; then an edit of only that new file, which the first builds never read.
    await write("src/other.ts", 'export const word = "third-word";\n');
    await write("src/word.ts", 'export { word } from "./other.ts";\n');
    expect(await buildBundle(project, out)).toBe("built");
    expect(await bundle()).toContain("third-word");
    await write("src/other.ts", 'export const word = "fourth-word";\n');
    expect(await buildBundle(project, out)).toBe("built");
    expect(await bundle()).toContain("fourth-word");
    expect(await bundle()).not.toContain("third-word");

    // How wrangler bundles (wrangler.toml) is an input too.
    await write(
      "wrangler.toml",
      'name = "reuse"\nmain = "src/index.ts"\ncompatibility_date = "2026-07-01"\nkeep_names = false\n',
    );
    expect(await buildBundle(project, out)).toBe("built");
    expect(await buildBundle(project, out)).toBe("unchanged");
  });
});
