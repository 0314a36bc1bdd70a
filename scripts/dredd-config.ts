/**
 * Writes examples/dredd/dredd.yml, the configuration `npx dredd --config examples/dredd/dredd.yml` runs the
 * served OpenAPI document with (docs/decisions.md, Examples and Dredd): every operation's success transaction,
 * by Dredd's name for it, but those no example can make succeed on a fresh fleet, each listed with why.
 * Dredd 14 tests every response an OpenAPI 3 document lists, and one call cannot answer both 200 and 404, so
 * the list (`only`) is what makes a run pass; it also leaves out the never-ending log stream.
 *
 * Usage: node scripts/dredd-config.ts <openapi.json> [--check]   (`--check`: exit 1 if the file differs)
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The operations no example can make succeed on a fresh fleet without a hook that carries a value from one
 * answer into the next call, or a device or service outside the fleet. Their examples are still in the
 * document and still checked against their schemas (test/architecture/examples.test.ts).
 */
export const NEEDS_MORE_THAN_EXAMPLES: Record<string, string> = {
  "POST /api/v1/auth/enrol": "the enrolment token is minted by each login, and the TOTP code by the authenticator app",
  "POST /api/v1/auth/password": "a browser session's own act: a token is refused (403)",
  "POST /api/v1/auth/passkeys/registration-options": "a browser session's own act: a token is refused (403)",
  "POST /api/v1/auth/passkeys": "the attestation comes from an authenticator (navigator.credentials.create())",
  "PATCH /api/v1/auth/passkeys/{id}": "names a passkey an authenticator registered",
  "DELETE /api/v1/auth/passkeys/{id}": "names a passkey an authenticator registered",
  "GET /api/v1/auth/tokens/{id}": "token ids are random; the create answer names it",
  "DELETE /api/v1/auth/tokens/{id}": "token ids are random; the create answer names it",
  "DELETE /api/v1/auth/sessions/{id}": "session ids are random; only a login makes one",
  "GET /api/v1/auth/oidc/{name}/login": "needs a live OpenID provider's discovery document",
  "GET /api/v1/auth/oidc/{name}/callback": "needs the code and state of a live OpenID provider's redirect",
  "GET /api/v1/auth/providers/oidc/{name}":
    "a fresh fleet has no provider, and Dredd reads (GET) before it writes (PUT)",
  "POST /api/v1/cgn/bindings/{bindingIndex}/identify":
    "an anonymous auto-learned binding appears only with traffic, at an index the traffic picks",
  "POST /api/v1/config/webui/certificate": "the example would publish a private key; a real one is the operator's",
  "GET /api/v1/config/webui/certificate": "a fresh fleet presents its factory certificate (404 until one is uploaded)",
  "POST /api/v1/licensing/activate": "the token is issued by the licensing service",
  "POST /api/v1/licensing/load-offline": "the lease is signed by the licensing service",
  "POST /api/v1/licensing/renew": "a fresh fleet runs in dev mode, with no licence to renew (409)",
  "POST /api/v1/system/upgrade/stage": "the package must be signed with the fleet's upgrade key",
  "POST /api/v1/system/upgrade/apply": "needs a staged package, and reboots the appliance",
  "GET /api/v1/logs/stream": "an event stream never ends, and Dredd waits for the whole body",
};

interface Document {
  paths: Record<
    string,
    Record<string, { summary: string; responses: Record<string, { content?: Record<string, unknown> }> }>
  >;
}

/**
 * Dredd's name for each operation's success transaction (`<path> > <summary> > <status>[ > <type>]`), but those it
 * cannot run.
 */
export function successTransactions(doc: Document): string[] {
  const names: string[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (`${method.toUpperCase()} ${p}` in NEEDS_MORE_THAN_EXAMPLES) continue;
      const [status, response] = Object.entries(op.responses).find(([s]) => /^[23]\d\d$/.test(s))!;
      const type = Object.keys(response.content ?? {})[0];
      names.push([p, op.summary, status, ...(type ? [type] : [])].join(" > "));
    }
  }
  return names;
}

/** The configuration file's text (YAML; each name a JSON string, which is a YAML double-quoted scalar). */
export function dreddConfig(doc: Document): string {
  const left = Object.entries(NEEDS_MORE_THAN_EXAMPLES).map(([op, why]) => `#   ${op}: ${why}`);
  return [
    "# Dredd 14 against a fresh local fleet (docs/decisions.md, Examples and Dredd). Written by",
    "# `node scripts/dredd-config.ts .bngfleet/openapi.json` from the document;",
    "# `npm run lint:openapi` checks it is current.",
    "#",
    "#   BNG_FRESH=1 BNG_HTTP=1 BNG_BOOTSTRAP_TOKEN=bngtok_... npm start",
    '#   curl -s -H "Authorization: Bearer bngtok_..." http://127.0.0.1:8443/api/v1/openapi/v1.json > openapi.json',
    '#   npx dredd --config examples/dredd/dredd.yml --header "Authorization: Bearer bngtok_..."',
    "#",
    "# Every operation's success, in Dredd's --sorted order (every POST, then GET, PUT, PATCH, DELETE), but these:",
    ...left,
    "blueprint: openapi.json",
    "endpoint: http://127.0.0.1:8443",
    "sorted: true",
    "# Dredd 14 reads a configuration file's paths only from this key (without it: `invalid pattern`).",
    "path: []",
    "only:",
    ...successTransactions(doc).map((name) => `  - ${JSON.stringify(name)}`),
    "",
  ].join("\n");
}

const FILE = path.join(import.meta.dirname, "../examples/dredd/dredd.yml");

if (import.meta.main) {
  const [source, flag] = process.argv.slice(2);
  if (!source) throw new Error("usage: node scripts/dredd-config.ts <openapi.json> [--check]");
  const text = dreddConfig(JSON.parse(readFileSync(source, "utf8")) as Document);
  if (flag === "--check") {
    if (readFileSync(FILE, "utf8") !== text) {
      console.error(
        "examples/dredd/dredd.yml is not the document's: run node scripts/dredd-config.ts .bngfleet/openapi.json",
      );
      process.exit(1);
    }
  } else writeFileSync(FILE, text);
}
