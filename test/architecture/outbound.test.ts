/**
 * Issue #22: every request the Worker sends leaves through the one
 * destination policy (src/config/destinations.ts, `outboundFetch`). Read from
 * the source with the TypeScript parser: a call of the global `fetch` (or
 * `globalThis.fetch`) anywhere else in the Worker's folders fails here, naming
 * the file and line. Browser code inside a string (the reference viewer's
 * script) is text, not a call. Sockets likewise: only
 * durable-objects/outbound-socket.ts imports `cloudflare:sockets`, and it
 * asks the same policy first.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph.ts";
import { layerOf } from "./layer-map.ts";

const POLICY = "src/config/destinations.ts";
const SOCKETS = "durable-objects/outbound-socket.ts";

/** `file:line` of each import of cloudflare:sockets in `text` (static or dynamic). */
function socketImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text === "cloudflare:sockets")
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `file:line` of each call of the global fetch in `text`. */
function globalFetchCalls(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const global = ts.isIdentifier(callee)
        ? callee.text === "fetch"
        : ts.isPropertyAccessExpression(callee) &&
          callee.name.text === "fetch" &&
          callee.expression.getText(source) === "globalThis";
      if (global) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("outbound requests", () => {
  it("finds a global fetch call, and not one written inside a string", () => {
    expect(
      globalFetchCalls(
        "x.ts",
        "const a = await fetch(url);\nconst b = `fetch('/x')`;\nglobalThis.fetch(u);\nrouter.fetch(r);",
      ),
    ).toEqual(["x.ts:1", "x.ts:3"]);
  });

  it("leave the Worker only through the destination policy's outboundFetch", () => {
    const calls = sourceFiles()
      .filter((file) => layerOf(file) !== null && file !== POLICY)
      .flatMap((file) => globalFetchCalls(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(calls).toEqual([]);
  });

  it("open sockets only through outboundConnect, which judges the host first", () => {
    expect(
      socketImports(
        "x.ts",
        'import { connect } from "cloudflare:sockets";\nconst s = ' +
          '"cloudflare:sockets";\nawait import("cloudflare:sockets");',
      ),
    ).toEqual(["x.ts:1", "x.ts:3"]);
    const imports = sourceFiles()
      .filter((file) => layerOf(file) !== null && file !== SOCKETS)
      .flatMap((file) => socketImports(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(imports).toEqual([]);
  });
});
