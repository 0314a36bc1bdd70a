/**
 * BNG_SCENARIO through the real launcher (`npm start`'s script): the named
 * scenario file runs on every appliance before the banner, and a bad file
 * stops the launch naming the file and the field.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { newToken } from "../../src/trust/tokens.ts";

const PORT_BASE = await freePortBase(2);
const BOOTSTRAP = newToken();
let fleet: RunningFleet;

const api = (port: number, path: string) =>
  fetchJson(`https://127.0.0.1:${port}${path}`, { insecure: true, headers: { authorization: `Bearer ${BOOTSTRAP}` } });

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-scenario-"));
  const fleetFile = path.join(dir, "fleet.json");
  const appliance = (name: string, port: number) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers: [] },
  });
  await writeFile(
    fleetFile,
    JSON.stringify({ portBase: 8443, appliances: [appliance("edge-1", 8443), appliance("edge-2", 8444)] }),
  );
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(PORT_BASE),
      BNG_FLEET: fleetFile,
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_FRESH: "1",
      BNG_SCENARIO: "scenarios/radius-outage.json",
    },
    [PORT_BASE, PORT_BASE + 1],
  );
}, 180_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("BNG_SCENARIO", () => {
  it.each([PORT_BASE, PORT_BASE + 1])(
    "has run the file on the appliance at %i before it answered: reseeded, an hour on, the outage in its log",
    async (port) => {
      const state = (await api(port, "/twin/v1/scenario")).json<{ seed: number; clockLeadSeconds: number }>();
      // radius-outage.json reseeds with 42 and runs the clock 3,600 s ahead.
      expect(state.seed).toBe(42);
      // The lead dips by up to one 10 s step between alarms, more when a loaded machine runs an alarm late;
      // an appliance that never ran the file would lead by about 0.
      expect(state.clockLeadSeconds).toBeGreaterThanOrEqual(3540);
      // The audit trail, oldest first: an hour of session events can push the run's first actions out of the log ring.
      const entries: { seq: number; msgId: string; fields: Record<string, unknown> }[] = [];
      for (let since = 0; ; ) {
        const page = (await api(port, `/api/v1/logs/tail?source=audit&count=1000&sinceSeq=${since}`)).json<{
          entries: typeof entries;
        }>().entries;
        if (page.length === 0) break;
        entries.push(...page);
        since = page.at(-1)!.seq;
      }
      const audited = entries
        .filter((e) => e.msgId === "audit.scenario" && e.fields.actor === "launcher")
        .map((e) => e.fields.action);
      expect(audited).toEqual(expect.arrayContaining(["reseed", "fail-radius-server", "revive-radius-server"]));
    },
  );

  it("installs a scenario's upgrade from a package signed with the launcher's " +
    "development key, checked as any upload (issue #47)", {
    timeout: 120_000,
  }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-scenario-upgrade-"));
    const fleetFile = path.join(dir, "fleet.json");
    await writeFile(
      fleetFile,
      JSON.stringify({
        portBase: 8443,
        appliances: [
          {
            name: "edge-1",
            seed: 5,
            profile: "small",
            webUi: { listener: { address: "127.0.0.1", port: 8443 }, peers: [] },
          },
        ],
      }),
    );
    const port = await freePortBase(1);
    const upgraded = await launchFleet(
      {
        BNG_PORT_BASE: String(port),
        BNG_FLEET: fleetFile,
        BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
        BNG_SCENARIO: "scenarios/upgrade-with-drain.json",
      },
      [port],
      dir,
    );
    try {
      const status = (await api(port, "/api/v1/system/upgrade")).json<{
        runningVersion: string;
        history: { toVersion: string; outcome: string }[];
      }>();
      expect(status.runningVersion).toBe("0.2.0");
      expect(status.history[0]).toMatchObject({ toVersion: "0.2.0", outcome: "succeeded" });
      const audit = (await api(port, "/api/v1/logs/tail?source=audit&count=1000")).json<{
        entries: { msgId: string; fields: Record<string, unknown> }[];
      }>().entries;
      expect(audit.filter((e) => e.msgId === "audit.upgrade.stage").map((e) => e.fields.actor)).toEqual(["launcher"]);
      expect(audit.filter((e) => e.msgId === "audit.upgrade.rejected")).toEqual([]);
    } finally {
      expect(await upgraded.stop()).toBe(0);
    }
  });

  it("stops the launch on a bad file, naming the file and the field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-bad-scenario-"));
    const bad = path.join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ steps: [{ at: 60, action: "fill-pool", pool: "residential-v4" }] }));
    const result = spawnSync(process.execPath, ["scripts/bngfleet.ts", "start"], {
      env: { ...process.env, BNG_SCENARIO: bad, BNG_DATA_DIR: dir, BNG_PORT_BASE: String(await freePortBase(2)) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain(bad);
    expect(output).toContain("steps.0.percent");
  });
});
