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
 * given each operation's success only (`only` in the shipped configuration,
 * scripts/dredd-config.ts), as it does for Swagger 2. The document is taken
 * as served: no media type stripped, nothing else changed.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { successTransactions } from "../../scripts/dredd-config.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const BOOTSTRAP = "bngtok_" + "E2e".repeat(10) + "4YjhF4"; // well-formed: the checksum is CRC-32 in base62
const DREDD = createRequire(import.meta.url).resolve("dredd/bin/dredd");
/** The configuration docs/decisions.md tells users to run Dredd with. */
const CONFIG = path.join(import.meta.dirname, "../../examples/dredd/dredd.yml");

let fleet: RunningFleet;
let port: number;
const api = (p: string) => `http://127.0.0.1:${port}${p}`;
const asBootstrap = { authorization: `Bearer ${BOOTSTRAP}` };

beforeAll(async () => {
  port = await freePortBase(3);
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(port), BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" },
    [port, port + 1, port + 2],
  );
  // "A fresh fleet" as its examples describe it: its subscribers up (session 1 and 2 exist), which takes its first
  // steps.
  for (let i = 0; i < 240; i++) {
    const summary = (await fetch(api("/api/v1/sessions/summary"), { headers: asBootstrap }).then((r) => r.json())) as {
      total: number;
    };
    if (summary.total > 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
}, 240_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
});

function dredd(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DREDD, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    // Its reporter colours every line, even into a pipe.
    child.on("exit", (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, "") }));
  });
}

it("passes every transaction of the documented run (examples/dredd/dredd.yml), with " +
  "no hook but the bootstrap token", async () => {
  // As the docs say: the served document saved as openapi.json, Dredd run with the shipped configuration and the
  // token. Only the configuration's endpoint differs, the port this fleet was given.
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-dredd-"));
  const response = await fetch(api("/api/v1/openapi/v1.json"), { headers: asBootstrap });
  const doc = (await response.json()) as Parameters<typeof successTransactions>[0];
  await writeFile(path.join(dir, "openapi.json"), JSON.stringify(doc));
  const shipped = await readFile(CONFIG, "utf8");
  const only = [...shipped.matchAll(/^ {2}- (".*")$/gm)].map((m) => JSON.parse(m[1]!) as string);
  // The shipped list is the served document's (a renamed summary would leave a name no transaction has).
  expect(only).toEqual(successTransactions(doc));
  await writeFile(path.join(dir, "dredd.yml"), shipped.replace(/^endpoint: .*$/m, `endpoint: ${api("")}`));
  const run = await dredd(["--config", "dredd.yml", "--header", `Authorization: Bearer ${BOOTSTRAP}`], dir);
  const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(run.output);
  expect(summary, run.output.slice(-3000)).not.toBeNull();
  const [, passing, failing, errors] = summary!.map(Number);
  expect(
    { failing, errors },
    run.output
      .split("\n")
      .filter((l) => /^(fail|error)/.test(l))
      .join("\n"),
  ).toEqual({ failing: 0, errors: 0 });
  expect(passing).toBe(only.length);
  expect(run.code).toBe(0);
}, 600_000);
