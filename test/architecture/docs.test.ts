/**
 * The docs are for the reader of today (issue #48): every page is short
 * enough to read through (under 400 lines: a longer one is two pages), and
 * every file of the repository a page names in backticks exists, so a moved
 * or deleted file fails here instead of misleading a reader.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph.ts";

const PAGE_LINES = 400;
/** A path into the repository as the docs write it: `src/http/port.ts`, `docs/running.md`, `scripts/harness/`. */
const FOLDERS = "src|durable-objects|simulator|test|scripts|launcher|ui|fleet-config|docs|examples|scenarios|grafana";
const REPOSITORY_PATH = new RegExp(`\`((?:${FOLDERS})/[\\w./-]+)\``, "g");
/** workerd's own sources, which the docs cite by their path in workerd's repository. */
const ELSEWHERE = /^src\/workerd\//;

/** The README and every Markdown page under docs/ and examples/. */
function pages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : under(file);
      return entry.name.endsWith(".md") ? [file] : [];
    });
  return ["README.md", ...under("docs"), ...under("examples")];
}

/** `page:line: path` for each repository path a page names that exists neither from the root nor beside the page. */
export function missingPaths(page: string, text: string, exists: (file: string) => boolean): string[] {
  return text.split("\n").flatMap((line, i) =>
    [...line.matchAll(REPOSITORY_PATH)]
      .map((match) => match[1]!.replace(/\.$/, ""))
      .filter((file) => !ELSEWHERE.test(file))
      .filter((file) => !exists(file) && !exists(path.join(path.dirname(page), file)))
      .map((file) => `${page}:${i + 1}: ${file}`),
  );
}

describe("the docs", () => {
  it("are pages under 400 lines", () => {
    const long = pages()
      .map((page) => ({ page, lines: readFileSync(path.join(ROOT, page), "utf8").trimEnd().split("\n").length }))
      .filter(({ lines }) => lines >= PAGE_LINES)
      .map(({ page, lines }) => `${page}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it("find a path that names no file", () => {
    const exists = (file: string) => file === "src/http/port.ts";
    expect(
      missingPaths("docs/a.md", "the client (`src/http/port.ts`), the ports (`durable-objects/ports.ts`)", exists),
    ).toEqual(["docs/a.md:1: durable-objects/ports.ts"]);
  });

  it("name only files that exist", () => {
    const exists = (file: string) => existsSync(path.join(ROOT, file));
    const missing = pages().flatMap((page) => missingPaths(page, readFileSync(path.join(ROOT, page), "utf8"), exists));
    expect(missing).toEqual([]);
  });
});
