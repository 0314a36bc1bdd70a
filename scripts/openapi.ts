/**
 * Prints the served OpenAPI document (the same `openApiDocument(routes)` the
 * Worker answers at /api/v1/openapi/v1.json) so tools outside workerd can
 * read it: `npm run lint:openapi` hands it to Redocly CLI.
 *
 * Usage: node scripts/openapi.ts [out.json]   (stdout when no file is given)
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The Worker is bundled by wrangler, which loads the reference viewer's files
// as Text modules (wrangler.toml [[rules]]) and JSON without import
// attributes; Node does neither, so do both here. The viewer's files are not
// part of the document: an empty string stands in for them. Nor are the
// runtime's classes, which route modules import for their RPC stubs, nor its
// sockets.
const TEXT_MODULES = /swagger-ui-dist\/swagger-ui(-bundle\.js|\.css)$/;
registerHooks({
  load(url, context, nextLoad) {
    if (TEXT_MODULES.test(url)) return { format: "module", shortCircuit: true, source: "export default '';" };
    // The alarm sinks' and syslog's sockets (durable-objects/outbound-socket.ts): never opened while printing a
    // document.
    if (url === "cloudflare:sockets")
      return {
        format: "module",
        shortCircuit: true,
        source: "export function connect() { throw new Error('no sockets outside workerd'); }",
      };
    if (url === "cloudflare:workers") {
      return {
        format: "module",
        shortCircuit: true,
        source:
          "export class RpcTarget {} export class DurableObject {} export class " +
          "WorkerEntrypoint {} export const env = {};",
      };
    }
    if (url.startsWith("file:") && url.endsWith(".json")) {
      return {
        format: "module",
        shortCircuit: true,
        source: `export default ${readFileSync(fileURLToPath(url), "utf8")};`,
      };
    }
    return nextLoad(url, context);
  },
});

const { routes } = await import("../src/routes/index.ts");
const { openApiDocument } = await import("../src/openapi/document.ts");
const text = JSON.stringify(openApiDocument(routes), null, 2) + "\n";
const out = process.argv[2];
if (out) {
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, text);
} else process.stdout.write(text);
