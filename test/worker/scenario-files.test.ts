/**
 * Scenario files (issue 12): the shipped examples in scenarios/ run through
 * POST /twin/v1/scenario/run and each tells its story in the appliance's own
 * outputs — alarms raised and cleared in the log, the licence state, the
 * running version — and a malformed file is a 400 naming the field.
 */
import { describe, expect, it } from "vitest";
import bgpFlapStorm from "../../scenarios/bgp-flap-storm.json";
import licenceLapse from "../../scenarios/licence-lapse.json";
import poolCgnExhaustion from "../../scenarios/pool-cgn-exhaustion.json";
import radiusOutage from "../../scenarios/radius-outage.json";
import upgradeWithDrain from "../../scenarios/upgrade-with-drain.json";
import type { z } from "zod";
import type { AddressPool } from "../../src/schemas/address-pools.ts";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { ScenarioRunResult, ScenarioState } from "../../src/schemas/scenario.ts";
import type { LicenceStatus } from "../../src/schemas/licensing.ts";
import type { LogEntry as Entry, LogTail } from "../../src/schemas/logs.ts";
import type { BgpSummary } from "../../src/schemas/routing.ts";
import type { Health } from "../../src/schemas/system.ts";
import type { UpgradeStatus } from "../../src/schemas/upgrade.ts";
import { putConfig } from "./config-client.ts";
import { admin, get, send } from "./helpers.ts";
import { call } from "./client.ts";
import { importUpgradeSigningKey, signedPackage } from "../../src/trust/package-signature.ts";
import { VENDOR_SIGNING_KEY } from "./upgrade-keys.ts";

type RunResult = z.output<typeof ScenarioRunResult>;

/** Stages a package of `version` signed with the worker project's vendor key (test/worker/upgrade-keys.ts). */
async function stageSigned(version: string): Promise<void> {
  const bytes = await signedPackage(
    version,
    new TextEncoder().encode(`image ${version}`),
    await importUpgradeSigningKey(VENDOR_SIGNING_KEY),
  );
  const response = await call("/api/v1/system/upgrade/stage", {
    method: "POST",
    headers: { ...admin, "content-type": "application/octet-stream" },
    body: bytes,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Runs a file, expecting 200, and returns the result with the log entries it wrote. */
async function run(file: unknown): Promise<{ result: RunResult; log: Entry[] }> {
  const before = (await get<z.output<typeof ScenarioState>>("/twin/v1/scenario")).lastSeq;
  const response = await send("POST", "/twin/v1/scenario/run", file);
  expect(response.status, await response.clone().text()).toBe(200);
  const result = await response.json<RunResult>();
  const log: Entry[] = [];
  for (let since = before; ; ) {
    const page = await get<LogTail>(`/api/v1/logs/tail?count=1000&sinceSeq=${since}`);
    if (page.entries.length === 0) break;
    log.push(...page.entries);
    since = page.entries.at(-1)!.seq;
  }
  return { result, log };
}

const alarmIds = (log: Entry[], msgId: "alarm.raise" | "alarm.clear") =>
  log.filter((e) => e.msgId === msgId).map((e) => e.fields.id);

describe("shipped scenario files", () => {
  it("radius-outage: both servers die (radius.all-dead), setups fail, then service " +
    "returns and the alarm clears", async () => {
    const { result, log } = await run(radiusOutage);
    expect(result).toMatchObject({ ok: true, steps: radiusOutage.steps.length, state: { seed: 42 } });
    expect(alarmIds(log, "alarm.raise")).toContain("radius.all-dead");
    expect(alarmIds(log, "alarm.clear")).toContain("radius.all-dead");
    expect(log.some((e) => e.msgId === "aaa.reject" && e.fields.reason === "no-live-server")).toBe(true);
    const radius = await get<z.output<typeof RadiusPoolStatus>>("/api/v1/radius/servers");
    expect(radius.liveServers).toBe(radius.servers.length);
  }, 60_000);

  it("pool-cgn-exhaustion: the pool and CGN utilisation alarms raise while full, and " +
    "blocks are free again after the drain", async () => {
    const { log } = await run(poolCgnExhaustion);
    const raised = log.filter((e) => e.msgId === "alarm.raise").map((e) => `${e.fields.id} ${e.fields.instance}`);
    expect(raised).toContain("pool.utilisation.high residential-v4");
    expect(raised.some((r) => r.startsWith("cgn.pool.high"))).toBe(true);
    const pools = await get<z.output<typeof AddressPool>[]>("/api/v1/address-pools");
    expect(pools.find((p) => p.name === "residential-v4")!.free).toBeGreaterThan(0);
  }, 60_000);

  it("bgp-flap-storm: every global BGP session leaves Established at each of the five " +
    "resets, and the routing daemon fails and returns", async () => {
    const { log } = await run(bgpFlapStorm);
    const peers = (await get<BgpSummary>("/api/v1/routing/bgp/summary")).peers
      .filter((p) => p.vrf === "default")
      .map((p) => p.peer);
    expect(new Set(peers).size).toBeGreaterThan(0);
    for (const peer of new Set(peers)) {
      const drops = log.filter(
        (e) => e.msgId === "bgp.neighbor.state" && e.fields.peer === peer && e.fields.from === "Established",
      );
      expect(drops.length, peer).toBeGreaterThanOrEqual(5);
    }
    expect(alarmIds(log, "alarm.raise")).toContain("bgp.neighbor.down");
    expect(log.filter((e) => e.msgId === "scenario.action").map((e) => e.fields.action)).toEqual(
      expect.arrayContaining(["reset-bgp", "fail-daemon", "revive-daemon"]),
    );
  }, 60_000);

  it("upgrade-with-drain: 0.2.0 is staged, applied with a drain, and runs; subscribers reconnect", async () => {
    // Its package is signed as any other: an operator stages it before the run (the local launcher gives its own).
    await stageSigned("0.2.0");
    const { result } = await run(upgradeWithDrain);
    const upgrade = await get<UpgradeStatus>("/api/v1/system/upgrade");
    expect(upgrade.state).toBe("idle");
    expect(upgrade.history[0]).toMatchObject({ toVersion: "0.2.0", outcome: "succeeded", drain: true });
    expect((await get<z.output<typeof Health>>("/api/v1/system/health")).softwareVersion).toBe("bngfleet 0.2.0");
    expect(result.state.sessions).toBeGreaterThan(0);
  }, 60_000);

  it("licence-lapse: the lease runs out through Grace into Lapsed, and a " +
    "configuration commit is then refused with 409", async () => {
    const { log } = await run(licenceLapse);
    expect(alarmIds(log, "alarm.raise")).toEqual(expect.arrayContaining(["licence.grace", "licence.lapsed"]));
    expect((await get<LicenceStatus>("/api/v1/licensing")).state).toBe("Lapsed");
    expect((await putConfig({ fields: { "webUi.hostname": "lapsed.bng.localhost" } })).status).toBe(409);
  }, 120_000);
});

describe(
  "a scenario's upgrade (issue #47: it staged an unsigned placeholder, the one way " + "past the vendor's signature)",
  () => {
    it(
      "is refused 409 with no signed package of its version staged, saying how to " + "stage one; nothing is applied",
      async () => {
        const response = await send("POST", "/twin/v1/scenario", { action: "upgrade", version: "0.2.0", drain: false });
        expect(response.status).toBe(409);
        expect((await response.json<z.output<typeof ProblemDetails>>()).detail).toContain(
          "no signed package of version 0.2.0 is staged",
        );
        const upgrade = await get<UpgradeStatus>("/api/v1/system/upgrade");
        expect(upgrade).toMatchObject({ state: "idle", staged: null, runningVersion: "0.1.0", history: [] });
      },
    );

    it(
      "is refused 409 when the staged package is of another version, and applies the " + "signed one of its own",
      async () => {
        await stageSigned("0.3.0");
        const other = await send("POST", "/twin/v1/scenario", { action: "upgrade", version: "0.2.0", drain: false });
        expect(other.status).toBe(409);
        expect((await other.json<z.output<typeof ProblemDetails>>()).detail).toContain("(0.3.0 is)");
        await stageSigned("0.2.0");
        expect(
          (await send("POST", "/twin/v1/scenario", { action: "upgrade", version: "0.2.0", drain: false })).status,
        ).toBe(200);
      },
    );
  },
);

describe("scenario file validation", () => {
  it.each([
    [{ steps: [{ at: 60, action: "fail-radius-server" }] }, "#/steps/0/server"],
    [
      {
        steps: [
          { at: 600, action: "drain-pool", pool: "p" },
          { at: 60, action: "drain-pool", pool: "p" },
        ],
      },
      "#/steps/1/at",
    ],
    [{ steps: [{ at: 60, action: "reset-bgp" }], until: 30 }, "#/until"],
    [{ steps: [{ at: 60, action: "no-such-action" }] }, "#/steps/0/action"],
  ])("refuses %j with 400 naming %s", async (file, pointer) => {
    const response = await send("POST", "/twin/v1/scenario/run", file);
    expect(response.status).toBe(400);
    expect((await response.json<z.output<typeof ProblemDetails>>()).errors!.map((e) => e.pointer)).toEqual([pointer]);
  });

  it("stops at a refused step with 404 naming it, the steps before it applied", async () => {
    const response = await send("POST", "/twin/v1/scenario/run", {
      steps: [
        { at: 0, action: "set-churn-multiplier", multiplier: 3 },
        { at: 60, action: "fill-pool", pool: "no-such-pool", percent: 50 },
      ],
    });
    expect(response.status).toBe(404);
    expect((await response.json<z.output<typeof ProblemDetails>>()).detail).toContain("steps[1] (at 60 s, fill-pool)");
  });
});
