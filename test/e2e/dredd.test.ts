/**
 * Dredd (issue #26) runs the whole OpenAPI document, as the fleet serves it,
 * against a fresh fleet from `npm start`'s launcher: every operation's call is
 * built from the document's own examples, and its answer must have the
 * documented status and Content-Type and every field of the example answer
 * (Dredd 14's OpenAPI 3 parser passes it no schema from a 3.1 document, so
 * its checker, Gavel, compares with the example; the schemas themselves are
 * checked against every worker test's answers, test/worker/wire-check.ts).
 * No hooks: the only thing Dredd is told besides the document is the
 * bootstrap token (`--header`). `--sorted` runs every POST,
 * then every GET, PUT, PATCH and DELETE, the order the examples are written
 * for (src/schemas/contract.ts, OperationExamples).
 *
 * Dredd tests each response an OpenAPI 3 document lists (for Swagger 2 it
 * skips all but the 2xx); one call cannot answer both 200 and 404, so it is
 * given each operation's success only (`--only`), as it does for Swagger 2.
 */
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePortBase, launchFleet, type RunningFleet } from "./launcher.ts";

const BOOTSTRAP = "bngtok_" + "E2e".repeat(10) + "4YjhF4"; // well-formed: the checksum is CRC-32 in base62
const DREDD = createRequire(import.meta.url).resolve("dredd/bin/dredd");

/**
 * The operations no example can make succeed on a fresh fleet without a hook that carries a value
 * from one answer into the next call, or a device or service outside the fleet. Their examples are
 * still in the document and still checked against their schemas (test/architecture/examples.test.ts).
 */
const NEEDS_MORE_THAN_EXAMPLES: Record<string, string> = {
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
  "GET /api/v1/auth/providers/oidc/{name}": "a fresh fleet has no provider, and Dredd reads (GET) before it writes (PUT)",
  "POST /api/v1/cgn/bindings/{bindingIndex}/identify": "an anonymous auto-learned binding appears only with traffic, at an index the traffic picks",
  "POST /api/v1/config/webui/certificate": "the example would publish a private key; a real one is the operator's",
  "GET /api/v1/config/webui/certificate": "a fresh fleet presents its factory certificate (404 until one is uploaded)",
  "POST /api/v1/licensing/activate": "the token is issued by the licensing service",
  "POST /api/v1/licensing/load-offline": "the lease is signed by the licensing service",
  "POST /api/v1/licensing/renew": "a fresh fleet runs in dev mode, with no licence to renew (409)",
  "POST /api/v1/system/upgrade/stage": "the package must be signed with the fleet's upgrade key",
  "POST /api/v1/system/upgrade/apply": "needs a staged package, and reboots the appliance",
  "GET /api/v1/logs/stream": "an event stream never ends, and Dredd waits for the whole body",
};

let fleet: RunningFleet;
let port: number;
const api = (p: string) => `http://127.0.0.1:${port}${p}`;
const asBootstrap = { authorization: `Bearer ${BOOTSTRAP}` };

beforeAll(async () => {
  port = await freePortBase(3);
  fleet = await launchFleet({ BNG_PORT_BASE: String(port), BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [port, port + 1, port + 2]);
  // "A fresh fleet" as its examples describe it: its subscribers up (session 1 and 2 exist), which takes its first steps.
  for (let i = 0; i < 240; i++) {
    const summary = (await fetch(api("/api/v1/sessions/summary"), { headers: asBootstrap }).then((r) => r.json())) as { total: number };
    if (summary.total > 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
}, 240_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
});

interface Document {
  paths: Record<string, Record<string, { summary: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/**
 * The document as Dredd is given it: every request body's `text/json` entry (the spec's second spelling of
 * the same JSON body) left out. Dredd's OpenAPI 3 reader knows JSON only as application/json and +json: it
 * makes a second transaction of that entry, wants its example as a string (Redocly, rightly, wants the
 * object) and sends it with no body. Nothing else is changed.
 */
function withoutTextJson(doc: Document): Document {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as { requestBody?: { content?: Record<string, unknown> } }[]) delete op.requestBody?.content?.["text/json"];
  }
  return doc;
}

/** Dredd's name for each operation's success transaction (`<path> > <summary> > <status>[ > <type>]`), but those it cannot run. */
function successTransactions(doc: Document): string[] {
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

function dredd(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DREDD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    // Its reporter colours every line, even into a pipe.
    child.on("exit", (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, "") }));
  });
}

it("passes every operation the document's examples can call, with no hook but the bootstrap token", async () => {
  const response = await fetch(api("/api/v1/openapi/v1.json"), { headers: asBootstrap });
  const doc = (await response.json()) as Document;
  const file = path.join(await mkdtemp(path.join(tmpdir(), "bngfleet-dredd-")), "openapi.json");
  await writeFile(file, JSON.stringify(withoutTextJson(doc)));
  const only = successTransactions(doc);
  const run = await dredd([file, api(""), "--sorted", "--header", `Authorization: Bearer ${BOOTSTRAP}`, ...only.flatMap((name) => ["--only", name])]);
  const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(run.output);
  expect(summary, run.output.slice(-3000)).not.toBeNull();
  const [, passing, failing, errors] = summary!.map(Number);
  expect({ failing, errors }, run.output.split("\n").filter((l) => /^(fail|error)/.test(l)).join("\n")).toEqual({ failing: 0, errors: 0 });
  expect(passing).toBe(only.length);
  expect(run.code).toBe(0);
}, 600_000);
