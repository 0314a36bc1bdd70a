/**
 * Issue #22: every request the Worker sends leaves through the one
 * destination policy (src/config/destinations.ts, `outboundFetch`). Read from
 * the source with the TypeScript parser: a call of the global `fetch` (or
 * `globalThis.fetch`) anywhere else in the Worker's folders fails here, naming
 * the file and line. Browser code inside a string (the reference viewer's
 * script) is text, not a call.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph.ts";
import { layerOf } from "./layer-map.ts";

const POLICY = "src/config/destinations.ts";

/** `file:line` of each call of the global fetch in `text`. */
function globalFetchCalls(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const global = ts.isIdentifier(callee) ? callee.text === "fetch" : ts.isPropertyAccessExpression(callee) && callee.name.text === "fetch" && callee.expression.getText(source) === "globalThis";
      if (global) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("outbound requests", () => {
  it("finds a global fetch call, and not one written inside a string", () => {
    expect(globalFetchCalls("x.ts", "const a = await fetch(url);\nconst b = `fetch('/x')`;\nglobalThis.fetch(u);\nrouter.fetch(r);")).toEqual(["x.ts:1", "x.ts:3"]);
  });

  it("leave the Worker only through the destination policy's outboundFetch", () => {
    const calls = sourceFiles()
      .filter((file) => layerOf(file) !== null && file !== POLICY)
      .flatMap((file) => globalFetchCalls(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(calls).toEqual([]);
  });
});
