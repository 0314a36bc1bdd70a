/**
 * examples/ansible/ as an operator runs it (Debian's ansible-core, ansible.builtin.uri only) against a fresh
 * three-appliance fleet from `npm start`'s launcher, twice: the first run creates the VRF and changes and
 * rolls back the configuration; the second changes nothing but that change and its rollback, and the API
 * shows the VRF and the history the runs made.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { newToken } from "../../src/trust/tokens.ts";

const PORT_BASE = await freePortBase(3);
const PORTS = [PORT_BASE, PORT_BASE + 1, PORT_BASE + 2];
const BOOTSTRAP = newToken();
const EXAMPLE = path.resolve("examples/ansible");
/** The playbook's two tasks that commit on every run (a change, then its rollback). */
const CHANGE_AND_ROLLBACK = [
  "Change the key, only from the version read",
  "Roll back to the version read, only from the version the change made",
];

let fleet: RunningFleet;
let scratch: string;

const api = (port: number, path: string, body?: unknown) =>
  fetchJson(`https://127.0.0.1:${port}${path}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
  });

interface PlaybookRun {
  code: number | null;
  output: string;
  /** Per task name, each result line's status (`ok`, `changed`, `skipping`, `fatal` …), loop items included. */
  tasks: Map<string, string[]>;
  recap: Record<string, number>;
}

/** Runs `ansible-playbook noc.yml` from the example's folder, as its README says, against edge-1. */
function runPlaybook(...args: string[]): Promise<PlaybookRun> {
  const child = spawn("ansible-playbook", ["noc.yml", ...args], {
    cwd: EXAMPLE,
    env: {
      ...process.env,
      BNG_URL: `https://127.0.0.1:${PORTS[0]}`,
      BNG_TOKEN: BOOTSTRAP,
      // edge-1's own self-signed certificate, validated (the launcher names 127.0.0.1 in it).
      BNG_CA: path.join(fleet.dataDir, "certs", "edge-1.crt"),
      ANSIBLE_NOCOLOR: "1",
      // Ansible's working files in this test's scratch folder, not the user's home.
      ANSIBLE_LOCAL_TEMP: path.join(scratch, "ansible-tmp"),
      ANSIBLE_HOME: path.join(scratch, "ansible-home"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const tasks = new Map<string, string[]>();
      for (const section of output.split(/^TASK \[/m).slice(1)) {
        const name = section.slice(0, section.indexOf("]"));
        tasks.set(
          name,
          [...section.matchAll(/^(ok|changed|skipping|fatal|failed): \[localhost\]/gm)].map((m) => m[1]!),
        );
      }
      const recapLine = /^localhost\s+:\s+(.*)$/m.exec(output)?.[1] ?? "";
      const recap = Object.fromEntries([...recapLine.matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
      resolve({ code, output, tasks, recap });
    });
  });
}

const changedTasks = (run: PlaybookRun) =>
  [...run.tasks].filter(([, statuses]) => statuses.includes("changed")).map(([name]) => name);

let first: PlaybookRun;
let second: PlaybookRun;
let renewBeforeDays: string | null;

beforeAll(async () => {
  // Skip-free: a machine without the tool fails here, naming what installs it.
  const version = spawnSync("ansible-playbook", ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0)
    throw new Error(
      "ansible-playbook is not installed: run `bash scripts/install-test-deps.sh` (npm " +
        "test's pretest does; Debian's ansible-core)",
    );
  scratch = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-ansible-"));
  // A manual clock: subscribers do not come and go between the playbook's reads and the test's.
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1", BNG_CLOCK: "manual" },
    PORTS,
  );
  // Ten simulated minutes: the demo fleet's local PPPoE login (the playbook's default subscriber) is up.
  for (const port of PORTS)
    expect((await api(port, "/twin/v1/scenario", { action: "advance-clock", seconds: 600 })).status).toBe(200);
  renewBeforeDays = (await api(PORTS[0]!, "/api/v1/config")).json<{ fields: Record<string, string | null> }>().fields[
    "acme.renewBeforeDays"
  ]!;
  first = await runPlaybook();
  second = await runPlaybook();
}, 240_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
}, 60_000);

describe("the Ansible example (examples/ansible/noc.yml)", () => {
  it("succeeds on a fresh fleet, reading every appliance's health through the fleet proxy, this one's included", () => {
    expect(first.code, first.output).toBe(0);
    expect(first.recap.failed, first.output).toBe(0);
    expect(first.tasks.get("Read every appliance's health through the fleet proxy"), first.output).toEqual([
      "ok",
      "ok",
      "ok",
    ]);
    expect(first.output).toMatch(/edge-1 ok \(bngfleet [^)]+\); edge-2 ok \(bngfleet [^)]+\); edge-3 ok/);
  });

  it("finds the subscriber on every appliance it is online on, by the session the API lists", async () => {
    for (const [i, port] of PORTS.entries()) {
      const listed = (await api(port, "/api/v1/sessions?username=noc-test%40isp.example")).json<{
        items: { id: number }[];
      }>().items;
      expect(listed.length, `edge-${i + 1}`).toBeGreaterThan(0);
      expect(first.output, JSON.stringify(listed)).toContain(
        `edge-${i + 1} session ${listed[0]!.id} noc-test@isp.example`,
      );
    }
  });

  it("creates the VRF on the first run, and the VRF is there through the API afterwards", async () => {
    expect(first.tasks.get("Create the VRF when it is missing")).toEqual(["changed"]);
    const vrfs = (await api(PORTS[0]!, "/api/v1/vrfs")).json<
      { name: string; configured: boolean; tableId?: number; rd?: string | null }[]
    >();
    expect(vrfs.find((v) => v.name === "noc-lab")).toMatchObject({ configured: true, tableId: 4001, rd: "64500:4001" });
  });

  it("changes nothing on a second run but the change and its rollback, which commit on every run", () => {
    expect(second.code, second.output).toBe(0);
    expect(second.tasks.get("Create the VRF when it is missing")).toEqual(["skipping"]);
    expect(changedTasks(second), second.output).toEqual(CHANGE_AND_ROLLBACK);
    expect(second.recap.changed).toBe(2);
  });

  it("changes the configuration from the version it read and rolls it back to that version, each run", async () => {
    const config = (await api(PORTS[0]!, "/api/v1/config")).json<{ fields: Record<string, string | null> }>();
    expect(config.fields["acme.renewBeforeDays"]).toBe(renewBeforeDays);
    type Entry = {
      version: number;
      operation: string;
      rollbackTo: number | null;
      changes: { pointer: string; before: string | null; after: string | null }[];
    };
    const history = (await api(PORTS[0]!, "/api/v1/config/history")).json<{ items: Entry[] }>().items;
    // Newest first: run 2's rollback and change, run 1's rollback and change, the VRF, the seeded version 1.
    expect(history.map((e) => e.operation)).toEqual(["rollback", "config", "rollback", "config", "vrf", "seed"]);
    expect(history.map((e) => e.version)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(history[0]!.rollbackTo).toBe(4);
    expect(history[2]!.rollbackTo).toBe(2);
    expect(history[1]!.changes).toEqual([
      { pointer: "#/fields/acme.renewBeforeDays", before: renewBeforeDays, after: "21" },
    ]);
  });

  it("sends the version it read as If-Match: a stale one is a 412 and nothing is committed", async () => {
    const history = async () => (await api(PORTS[0]!, "/api/v1/config/history")).json<{ total: number }>().total;
    const versions = await history();
    // Extra variables win over what a task registers: the change is made as if the configuration had been read at
    // version 1.
    const stale = await runPlaybook(
      "--tags",
      "change",
      "-e",
      JSON.stringify({ before: { etag: '"v1"', json: { fields: {} } } }),
    );
    expect(stale.code, stale.output).not.toBe(0);
    expect(stale.tasks.get("Change the key, only from the version read")).toEqual(["fatal"]);
    expect(stale.output).toContain("Status code was 412");
    expect(await history()).toBe(versions);
  });
});
