/**
 * The web UI reaches the API only through the typed client (issue #27): an
 * operation is named by its contract reference (`call(contract.x.y, …)`,
 * `useCall`, `<ActionForm operation={…}>`, `operation:` in the section
 * catalogue), never by a path written by hand,
 * so a renamed path or field fails the UI's typecheck instead of a page;
 * and the browser's transports (fetch, XMLHttpRequest, EventSource,
 * WebSocket) are the typed client's and the live channel's alone.
 * Read with the TypeScript parser, as the layer test reads imports.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph.ts";

/** The UI's ways to the API that take a path as their first argument (the old string-path forms among them). */
const PATH_TAKERS = new Set(["api", "apiUrl", "useResource", "upload", "call", "useCall"]);

/** The browser's own ways to a server: only the typed client and the live channel hold them. */
const TRANSPORTS = new Set(["fetch", "XMLHttpRequest", "EventSource", "WebSocket"]);
/** Where the transports may be used: the typed client (ui/api.ts) and the live channel's socket (ui/live.ts). */
const TRANSPORT_HOMES = new Set(["ui/api.ts", "ui/live.ts"]);

/** Whether an expression is a path written by hand: `"/…"`, `` `/…` `` or `` `${base}/…` ``. */
function isHandWrittenPath(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text.startsWith("/");
  if (ts.isTemplateExpression(node))
    return (
      node.head.text.startsWith("/") || (node.head.text === "" && node.templateSpans[0]!.literal.text.startsWith("/"))
    );
  return false;
}

/** Where a UI file names an API operation by a path rather than by its reference: `file:line what`. */
export function handWrittenPaths(file: string, text: string): string[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      PATH_TAKERS.has(node.expression.text) &&
      node.arguments[0] &&
      isHandWrittenPath(node.arguments[0])
    ) {
      at(node, `${node.expression.text}(${node.arguments[0].getText(source)})`);
    }
    // A page described as data (the section catalogue) names its reads and forms the same way.
    if (
      ts.isPropertyAssignment(node) &&
      ["path", "prefill"].includes(node.name.getText(source)) &&
      isHandWrittenPath(node.initializer)
    )
      at(node, `{ ${node.getText(source)} }`);
    if (
      (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) &&
      node.tagName.getText(source) === "ActionForm"
    ) {
      for (const attribute of node.attributes.properties) {
        if (ts.isJsxAttribute(attribute) && ["path", "method"].includes(attribute.name.getText(source)))
          at(attribute, `<ActionForm ${attribute.getText(source)}>`);
      }
    }
    // A transport used outside its homes must be given a URL made from a contract reference (`pathOf(contract.…)`).
    const transport =
      ts.isCallExpression(node) && ts.isIdentifier(node.expression)
        ? node.expression.text
        : ts.isNewExpression(node) && ts.isIdentifier(node.expression)
          ? node.expression.text
          : null;
    if (transport !== null && TRANSPORTS.has(transport) && !TRANSPORT_HOMES.has(file)) {
      const target = (node as ts.CallExpression | ts.NewExpression).arguments?.[0]?.getText(source) ?? "";
      if (!/pathOf\(contract\./.test(target)) at(node, `${transport}(${target}) outside the typed client`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the web UI's calls", () => {
  it("finds a path written by hand in each form the UI once used", () => {
    const text = [
      'const tokens = useResource<TokenPage>("/auth/tokens", { limit: 500 });',
      "const status = useResource(`${ctx.base}/system/status`, undefined, 10_000);",
      'await api("/alarms/clear", { body: {} });',
      'await api(`/sessions/${id}/capture`, { method: "DELETE" });',
      'const view = <ActionForm method="POST" path="/alarms/test" title="Send a test alert" />;',
      'const fine = <ActionForm operation={contract.alarms.test} params={{ id }} title="Send" />;',
      "const typed = call(contract.sessions.list, { query: { limit: 5 } }, base);",
      'const link = <a href="/sessions/42">a page of the UI</a>;',
      'const reads = [{ title: "Pools", path: "/address-pools" }, { title: "Settings", ' +
        "operation: contract.cgnConfig.settings }];",
      'const raw = await fetch("/api/v1/alarms");',
      "const stream = new EventSource(apiUrl(pathOf(contract.logs.stream), { sinceSeq: 1 }));",
      "const socket = new WebSocket(`${location.origin}/live`);",
    ].join("\n");
    expect(handWrittenPaths("ui/pages/example.tsx", text)).toEqual([
      'ui/pages/example.tsx:1 useResource("/auth/tokens")',
      "ui/pages/example.tsx:2 useResource(`${ctx.base}/system/status`)",
      'ui/pages/example.tsx:3 api("/alarms/clear")',
      "ui/pages/example.tsx:4 api(`/sessions/${id}/capture`)",
      'ui/pages/example.tsx:5 <ActionForm method="POST">',
      'ui/pages/example.tsx:5 <ActionForm path="/alarms/test">',
      'ui/pages/example.tsx:9 { path: "/address-pools" }',
      'ui/pages/example.tsx:10 fetch("/api/v1/alarms") outside the typed client',
      "ui/pages/example.tsx:12 WebSocket(`${location.origin}/live`) outside the typed client",
    ]);
  });

  it("names every operation by its contract reference in ui/", () => {
    const files = sourceFiles().filter((file) => file.startsWith("ui/"));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => handWrittenPaths(file, readFileSync(path.join(ROOT, file), "utf8")))).toEqual([]);
  });
});
