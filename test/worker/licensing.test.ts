import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { licensingKey, mintActivationToken, signLease } from "../../src/trust/licence.ts";

/**
 * Instance ids as docs/decisions.md (Licensing) defines them, SHA-256(`bngfleet-instance/1:<appliance>:<licenceId>`)
 * shown as a UUID,
 * worked out with coreutils: printf 'bngfleet-instance/1:edge-1:LIC-OFF-1' | sha256sum, first 32 hex digits.
 */
const INSTANCE_ID: Record<string, string> = {
  "edge-1:LIC-OFF-1": "d4b56282-532b-3d12-bacd-3861cf078e0e",
  "edge-1:LIC-TEST-1": "711d3c8c-7ade-8fd1-f95c-9ed6a7808ea2",
  "edge-2:LIC-OFF-1": "0fe48e25-993b-07c0-f777-27b0dad5ab83",
};
import type { ScenarioState } from "../../src/schemas/scenario.ts";
import type { AlarmsResponse } from "../../src/schemas/alarms.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { LicenceStatus, TelemetryPreview } from "../../src/schemas/licensing.ts";
import type { LogTail } from "../../src/schemas/logs.ts";
import type { SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import { call, tokenWithRole } from "./client.ts";
import { admin, advance, get, scrape, send, valueOf } from "./helpers.ts";

/** The wire shape of GET /api/v1/licensing (the model's LicenceStatus). */
type Status = LicenceStatus;
type Problem = z.output<typeof ProblemDetails>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const key = () => licensingKey(env.BNG_FLEET_SECRET!);
const iso = (ms: number) => new Date(ms).toISOString();
const status = (appliance = "edge-1") => get<Status>("/api/v1/licensing", appliance);
/** The appliance's simulated now (licences are judged by it, not by the wall clock). */
const simulatedNow = async () =>
  Date.parse((await get<z.output<typeof ScenarioState>>("/twin/v1/scenario")).simulatedTimeUtc);

async function token(
  over: {
    licenceId?: string;
    bandName?: string;
    bandMax?: number;
    contractEndMs?: number;
    renewalDays?: number;
    graceDays?: number;
  } = {},
): Promise<string> {
  const now = await simulatedNow();
  return mintActivationToken(await key(), {
    licenceId: over.licenceId ?? "LIC-TEST-1",
    bandName: over.bandName ?? "M-5k",
    bandMax: over.bandMax ?? 5000,
    contractEndUtc: iso(over.contractEndMs ?? now + 365 * DAY_MS),
    renewalDays: over.renewalDays ?? 30,
    graceDays: over.graceDays ?? 30,
    issuedUtc: iso(now),
  });
}

async function lease(over: { instanceId?: string; expiresAtMs?: number; bandMax?: number } = {}) {
  const now = await simulatedNow();
  return signLease(await key(), {
    licenceId: "LIC-OFF-1",
    instanceId: over.instanceId ?? INSTANCE_ID["edge-1:LIC-OFF-1"]!,
    bandName: "S-2k",
    bandMax: over.bandMax ?? 2000,
    issuedUtc: iso(now),
    expiresAtUtc: iso(over.expiresAtMs ?? now + 30 * DAY_MS),
    contractEndUtc: iso(now + 365 * DAY_MS),
    graceDays: 10,
  });
}

const activate = (body: unknown) => send("POST", "/api/v1/licensing/activate", body);
const loadOffline = (body: unknown) => send("POST", "/api/v1/licensing/load-offline", body);
const renew = () => send("POST", "/api/v1/licensing/renew");
let nextTable = 300;
const commitVrf = (name: string) => {
  const tableId = nextTable++;
  return send("POST", "/api/v1/vrfs", { name, tableId, rd: `65000:${tableId}` });
};
const alarmIds = async () => (await get<AlarmsResponse>("/api/v1/alarms")).active.map((a) => a.id);
const logIds = async () => (await get<LogTail>("/api/v1/logs/tail?count=1000")).entries;

describe("licence status", () => {
  it("is unlicensed dev mode on a fresh appliance, with the platform capacity as its band", async () => {
    expect(await status()).toEqual({
      state: "Dev",
      mode: "dev",
      role: "bng",
      licenceId: null,
      instanceId: null,
      bandName: "dev",
      meter: "sessions",
      bandMax: 2500,
      currentCount: 0,
      peakCount: 0,
      expiresAtUtc: null,
      contractEndUtc: null,
      lastRenewalUtc: null,
      daysRemaining: null,
      adminFreezeActive: false,
      isUnlicensed: true,
      isEnrolled: false,
    });
  });

  it("counts the live sessions, as the sessions summary and the scrape do", async () => {
    await advance(600);
    const [licence, summary, samples] = await Promise.all([
      status(),
      get<SessionSummaryCounts>("/api/v1/sessions/summary"),
      scrape(),
    ]);
    expect(licence.currentCount).toBe(summary.total);
    expect(licence.currentCount).toBeGreaterThan(1000);
    expect(licence.peakCount).toBeGreaterThanOrEqual(licence.currentCount);
    expect(valueOf(samples, "bng_licence_meter_current", { meter: "sessions" })).toBe(licence.currentCount);
    expect(valueOf(samples, "bng_licence_meter_peak", { meter: "sessions" })).toBe(licence.peakCount);
  });

  it("is readable by every role", async () => {
    const readOnly = await tokenWithRole("read-only");
    expect((await call("/api/v1/licensing", { headers: { authorization: `Bearer ${readOnly}` } })).status).toBe(200);
    expect(
      (await call("/api/v1/licensing/telemetry", { headers: { authorization: `Bearer ${readOnly}` } })).status,
    ).toBe(200);
    const operator = await tokenWithRole("operator");
    expect(
      (
        await send(
          "POST",
          "/api/v1/licensing/activate",
          { token: await token() },
          { authorization: `Bearer ${operator}` },
        )
      ).status,
    ).toBe(403);
  });
});

describe("activation", () => {
  it("licenses the appliance online with the token's band, and never shows the token again", async () => {
    const t = await token({ bandName: "M-5k", bandMax: 5000 });
    const response = await activate({ token: t, licenceId: "LIC-TEST-1" });
    expect(response.status).toBe(200);
    const instanceId = INSTANCE_ID["edge-1:LIC-TEST-1"]!;
    expect(await response.json()).toEqual({ activated: true, instanceId });
    const now = await simulatedNow();
    const s = await status();
    expect(s).toMatchObject({
      state: "Licensed",
      mode: "online",
      licenceId: "LIC-TEST-1",
      instanceId,
      bandName: "M-5k",
      bandMax: 5000,
      daysRemaining: 30,
      isUnlicensed: false,
      isEnrolled: true,
      adminFreezeActive: false,
    });
    expect(s.expiresAtUtc).toBe(iso(now + 30 * DAY_MS));
    expect(s.lastRenewalUtc).toBe(iso(now));
    const everything = JSON.stringify([s, await get("/api/v1/licensing/telemetry"), await logIds()]);
    expect(everything).not.toContain(t.split(".")[1]!);
    const audit = (await logIds()).filter((e) => e.msgId === "audit.licence.activate");
    expect(audit[0]?.fields).toMatchObject({ licenceId: "LIC-TEST-1", actor: "token:bootstrap" });
    expect(
      (await logIds()).some(
        (e) => e.msgId === "licence.state" && e.fields.from === "Dev" && e.fields.to === "Licensed",
      ),
    ).toBe(true);
  });

  it("refuses, with 422 naming the token, a token that was altered, forged or is not a token at all", async () => {
    const t = await token();
    const [body, mac] = t.split(".") as [string, string];
    const altered = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${mac}`;
    const forged = await mintActivationToken(await licensingKey("another fleet's secret"), {
      licenceId: "LIC-X",
      bandName: "x",
      bandMax: 1,
      contractEndUtc: "2099-01-01T00:00:00Z",
      issuedUtc: "2026-01-01T00:00:00Z",
    });
    for (const bad of [altered, forged, "bnglic_nothing", "hello"]) {
      const response = await activate({ token: bad });
      expect(response.status, bad).toBe(422);
      const problem = await response.json<Problem>();
      expect(problem.detail).toMatch(/^the activation token was refused/);
      expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "#/token" })]);
    }
    expect((await status()).state).toBe("Dev");
  });

  it("refuses a token for another licence than the one named, and an ended contract", async () => {
    const mismatch = await activate({ token: await token(), licenceId: "LIC-OTHER" });
    expect(mismatch.status).toBe(422);
    expect((await mismatch.json<Problem>()).errors?.[0]?.pointer).toBe("#/licenceId");
    const ended = await activate({ token: await token({ contractEndMs: (await simulatedNow()) - HOUR_MS }) });
    expect(ended.status).toBe(422);
    expect((await ended.json<Problem>()).detail).toMatch(/contract ended/);
  });

  it.each([{}, { token: "" }, { token: 42 }, { token: "x", extra: true }])(
    "answers 400 naming the field for the body %j",
    async (body) => {
      const response = await activate(body);
      expect(response.status).toBe(400);
      expect((await response.json<Problem>()).errors?.length).toBeGreaterThan(0);
    },
  );
});

describe("the clock", () => {
  it("runs a licence past its expiry into Grace, counting the days to the lapse down", async () => {
    const now = await simulatedNow();
    expect((await activate({ token: await token({ contractEndMs: now + HOUR_MS, graceDays: 2 }) })).status).toBe(200);
    expect(await status()).toMatchObject({ state: "Licensed", daysRemaining: 1, expiresAtUtc: iso(now + HOUR_MS) });
    await advance(2 * 3600);
    expect(await status()).toMatchObject({
      state: "Grace",
      daysRemaining: 2,
      adminFreezeActive: false,
      isUnlicensed: false,
    });
    expect(await alarmIds()).toContain("licence.grace");
    expect((await logIds()).find((e) => e.msgId === "licence.state" && e.fields.to === "Grace")).toBeDefined();
    await advance(DAY_MS / 1000);
    expect(await status()).toMatchObject({ state: "Grace", daysRemaining: 1 });
  }, 60_000);

  it("freezes configuration commits while Lapsed, with 409, until a licence is activated", async () => {
    const now = await simulatedNow();
    await activate({ token: await token({ contractEndMs: now + HOUR_MS, graceDays: 0 }) });
    expect((await commitVrf("before-lapse")).status).toBe(200);
    await advance(2 * 3600);
    expect(await status()).toMatchObject({
      state: "Lapsed",
      daysRemaining: 0,
      adminFreezeActive: true,
      isUnlicensed: true,
    });
    expect(await alarmIds()).toContain("licence.lapsed");

    const frozen = await commitVrf("during-lapse");
    expect(frozen.status).toBe(409);
    expect(frozen.headers.get("content-type")).toBe("application/problem+json");
    expect((await frozen.json<Problem>()).detail).toMatch(/lapsed: configuration commits are frozen/);
    expect((await send("PUT", "/api/v1/config", { fields: { "cgn.maxFlows": "1" } })).status).toBe(409);
    expect((await logIds()).some((e) => e.msgId === "config.frozen" && e.fields.operation === "vrf")).toBe(true);
    // Checking a change is not committing it; accounts stay manageable.
    expect((await send("POST", "/api/v1/config/validate", { fields: { "cgn.maxFlows": "1" } })).status).toBe(200);
    expect(
      (await send("POST", "/api/v1/auth/users", { username: "noc", role: "operator", password: "a-long-password-1" }))
        .status,
    ).toBe(200);
    // Renewal cannot help an ended contract; activation is the recovery path.
    expect((await renew()).status).toBe(409);
    expect((await activate({ token: await token({ licenceId: "LIC-TEST-2" }) })).status).toBe(200);
    expect(await status()).toMatchObject({ state: "Licensed", licenceId: "LIC-TEST-2", adminFreezeActive: false });
    expect(await alarmIds()).not.toContain("licence.lapsed");
    expect((await commitVrf("after-recovery")).status).toBe(200);
  });
});

describe("renewal", () => {
  it("moves an online licence's expiry to one period from now", async () => {
    await activate({ token: await token({ renewalDays: 7 }) });
    await advance(3 * 3600);
    const response = await renew();
    expect(response.status).toBe(200);
    const now = await simulatedNow();
    expect(await response.json()).toEqual({
      renewed: true,
      state: "Licensed",
      expiresAtUtc: iso(now + 7 * DAY_MS),
      lastRenewalUtc: iso(now),
    });
    expect(await status()).toMatchObject({
      expiresAtUtc: iso(now + 7 * DAY_MS),
      lastRenewalUtc: iso(now),
      daysRemaining: 7,
    });
  });

  it("answers 409 in dev mode and in offline mode", async () => {
    const dev = await renew();
    expect(dev.status).toBe(409);
    expect((await dev.json<Problem>()).detail).toMatch(/dev mode/);
    expect((await loadOffline(await lease())).status).toBe(200);
    const offline = await renew();
    expect(offline.status).toBe(409);
    expect((await offline.json<Problem>()).detail).toMatch(/load a new lease/);
  });
});

describe("the licence state everywhere", () => {
  const systemState = async () =>
    (await get<{ licence: { state: string | null } }>("/api/v1/system/status")).licence.state;

  it("reads the same in GET /system/status, GET /licensing and the scrape, in dev mode and once licensed", async () => {
    expect(await systemState()).toBe("Dev");
    expect((await status()).state).toBe("Dev");
    expect(valueOf(await scrape(), "bng_licence_state", { state: "Dev" })).toBe(1);
    expect((await loadOffline(await lease())).status).toBe(200);
    expect(await systemState()).toBe("Licensed");
    expect((await status()).state).toBe("Licensed");
    expect(valueOf(await scrape(), "bng_licence_state", { state: "Licensed" })).toBe(1);
  });
});

describe("offline leases", () => {
  it("apply at once and switch the appliance to offline mode", async () => {
    const body = await lease();
    const response = await loadOffline(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ applied: true, state: "Licensed" });
    expect(await status()).toMatchObject({
      state: "Licensed",
      mode: "offline",
      licenceId: "LIC-OFF-1",
      instanceId: body.instanceId,
      bandName: "S-2k",
      bandMax: 2000,
      expiresAtUtc: body.expiresAtUtc,
    });
    expect(JSON.stringify(await status())).not.toContain(body.signature);
    expect((await get<TelemetryPreview>("/api/v1/licensing/telemetry")).delivery).toBe("manual");
  });

  it("refuse, with 422, an altered lease, a lease for another instance and an expired lease", async () => {
    const altered = { ...(await lease()), bandMax: 9_999_999 };
    const refused = await loadOffline(altered);
    expect(refused.status).toBe(422);
    expect((await refused.json<Problem>()).errors?.[0]?.pointer).toBe("#/signature");
    const elsewhere = await loadOffline(await lease({ instanceId: INSTANCE_ID["edge-2:LIC-OFF-1"]! }));
    expect(elsewhere.status).toBe(422);
    expect((await elsewhere.json<Problem>()).errors?.[0]?.pointer).toBe("#/instanceId");
    const expired = await loadOffline(await lease({ expiresAtMs: (await simulatedNow()) - 1000 }));
    expect(expired.status).toBe(422);
    expect((await expired.json<Problem>()).detail).toMatch(/^the lease expired/);
    expect((await status()).state).toBe("Dev");
  });

  it("answer 400 for malformed JSON and for a lease missing a field", async () => {
    const malformed = await call("/api/v1/licensing/load-offline", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: '{"format": ',
    });
    expect(malformed.status).toBe(400);
    const { signature: _, ...unsigned } = await lease();
    const missing = await loadOffline(unsigned);
    expect(missing.status).toBe(400);
    expect((await missing.json<Problem>()).errors).toEqual([expect.objectContaining({ pointer: "#/signature" })]);
  });
});

describe("the band", () => {
  it("alarms and logs a session count above it, and still admits sessions", async () => {
    await advance(600);
    await activate({ token: await token({ bandName: "XS-500", bandMax: 500 }) });
    const s = await status();
    expect(s.currentCount).toBeGreaterThan(500);
    const alarms = await get<AlarmsResponse>("/api/v1/alarms");
    expect(alarms.active.find((a) => a.id === "licence.band.exceeded")?.context).toMatchObject({
      bandMax: "500",
      bandName: "XS-500",
    });
    expect((await logIds()).some((e) => e.msgId === "alarm.raise" && e.fields.id === "licence.band.exceeded")).toBe(
      true,
    );
    expect(valueOf(await scrape(), "bng_licence_meter_max", { meter: "sessions" })).toBe(500);
  });
});

describe("telemetry preview", () => {
  it("shows the usage report the appliance would send with its next renewal", async () => {
    await advance(600);
    await activate({ token: await token() });
    const [preview, s] = await Promise.all([get<Record<string, unknown>>("/api/v1/licensing/telemetry"), status()]);
    expect(preview).toMatchObject({
      format: "bngfleet-telemetry/1",
      appliance: "edge-1",
      instanceId: s.instanceId,
      licenceId: "LIC-TEST-1",
      softwareVersion: expect.stringMatching(/^bngfleet /),
      mode: "online",
      state: "Licensed",
      meter: "sessions",
      bandMax: 5000,
      peakCount: s.peakCount,
      currentCount: s.currentCount,
      period: { startUtc: s.lastRenewalUtc, endUtc: iso(await simulatedNow()) },
      delivery: "renewal",
    });
  });
});

describe("persistence", () => {
  it("keeps the licence across an abrupt restart and a reseed", async () => {
    await activate({ token: await token({ bandMax: 3000 }) });
    const before = await status();
    await abortAllDurableObjects();
    expect(await status()).toMatchObject({
      state: "Licensed",
      licenceId: before.licenceId,
      instanceId: before.instanceId,
      expiresAtUtc: before.expiresAtUtc,
      bandMax: 3000,
    });
    await send("POST", "/twin/v1/scenario", { action: "reseed", seed: 7 });
    expect(await status()).toMatchObject({ state: "Licensed", bandMax: 3000 });
  });
});
