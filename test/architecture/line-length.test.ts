/**
 * Issue #48: no source line is longer than 120 characters, Biome's `lineWidth` (biome.json). Biome breaks code but
 * leaves comments, template strings and long string literals as written, so this reads every tracked source file
 * itself. Generated output (dist/, .bngfleet/, ui/dist/) is not source; data files (*.json) are not read.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph.ts";

const LIMIT = 120;
const SOURCE = /\.(ts|tsx|mjs|js|css)$/;
const GENERATED = /(^|\/)(dist|\.bngfleet)\//;

/** `file:line: length` of each line of `text` over the limit, counted in characters (code points), not bytes. */
function longLines(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    const length = [...line.replace(/\r$/, "")].length;
    return length > LIMIT ? [`${file}:${i + 1}: ${length}`] : [];
  });
}

/** The tracked source files, relative to the root: what git holds, so nothing built or ignored is read. */
function trackedSources(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((file) => SOURCE.test(file) && !GENERATED.test(file));
}

describe("line length", () => {
  it("counts characters, not bytes, and names file, line and length", () => {
    const text = ["a".repeat(120), "é".repeat(120), "b".repeat(121), `${"c".repeat(120)}\r`].join("\n");
    expect(longLines("x.ts", text)).toEqual(["x.ts:3: 121"]);
  });

  it("no source line is longer than 120 characters", () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(500);
    const over = files.flatMap((file) => longLines(file, readFileSync(`${ROOT}/${file}`, "utf8")));
    expect(over).toEqual([]);
  });
});
