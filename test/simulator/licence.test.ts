import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  DEV_TERMS,
  Gateway,
  licenceState,
  offlineTerms,
  onlineTerms,
  renewedTerms,
  type LicenceGrant,
  type LicenceTerms,
} from "../../simulator/index.ts";
import { START, expectConsistent, gateway, observe, profile, restore } from "./helpers.ts";

const HOUR_MS = 3_600_000;

const grant = (over: Partial<LicenceGrant> = {}): LicenceGrant => ({
  licenceId: "LIC-TEST-1",
  instanceId: "inst-1",
  role: "bng",
  bandName: "S-3k",
  bandMax: 3000,
  contractEndMs: START + 365 * DAY_MS,
  renewalDays: 30,
  graceDays: 30,
  ...over,
});

const online = (nowMs: number, over: Partial<LicenceGrant> = {}): LicenceTerms => {
  const r = onlineTerms(grant(over), nowMs);
  if (!r.ok) throw new Error(r.reason);
  return r.terms;
};

const logged = (g: Gateway, msgId: string) => g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === msgId);
const alarmIds = (g: Gateway) => g.alarms.list().active.map((a) => a.id);

describe("the licence state machine", () => {
  it("is Dev with no licence", () => {
    expect(licenceState(DEV_TERMS, START)).toBe("Dev");
  });

  it("runs Licensed until expiry, Grace for graceDays, then Lapsed", () => {
    const terms = online(START);
    expect(terms.expiresAtMs).toBe(START + 30 * DAY_MS);
    expect(licenceState(terms, START + 30 * DAY_MS - 1)).toBe("Licensed");
    expect(licenceState(terms, START + 30 * DAY_MS)).toBe("Grace");
    expect(licenceState(terms, START + 60 * DAY_MS - 1)).toBe("Grace");
    expect(licenceState(terms, START + 60 * DAY_MS)).toBe("Lapsed");
  });

  it("caps an online entitlement at the contract end and refuses an ended contract", () => {
    expect(online(START, { contractEndMs: START + 2 * HOUR_MS }).expiresAtMs).toBe(START + 2 * HOUR_MS);
    expect(onlineTerms(grant({ contractEndMs: START }), START)).toEqual({ ok: false, reason: "contract-ended" });
  });

  it("renews online licences only, up to the contract end", () => {
    const terms = online(START);
    const later = START + 40 * DAY_MS;
    const renewed = renewedTerms(terms, later);
    expect(renewed).toMatchObject({ ok: true, terms: { expiresAtMs: later + 30 * DAY_MS, lastRenewalMs: later } });
    expect(renewedTerms(terms, START + 366 * DAY_MS)).toEqual({ ok: false, reason: "contract-ended" });
    expect(renewedTerms(DEV_TERMS, START)).toEqual({ ok: false, reason: "dev" });
    const lease = offlineTerms({ ...grant(), expiresAtMs: START + DAY_MS }, START);
    if (!lease.ok) throw new Error(lease.reason);
    expect(lease.terms.mode).toBe("offline");
    expect(renewedTerms(lease.terms, START)).toEqual({ ok: false, reason: "offline" });
    expect(offlineTerms({ ...grant(), expiresAtMs: START }, START)).toEqual({ ok: false, reason: "expired" });
  });
});

describe("the licence on a running gateway", () => {
  it("starts in dev mode with the platform capacity as its band, counting live sessions", () => {
    const g = gateway(profile(), 31, 900);
    const status = g.licence.status();
    expect(status).toMatchObject({
      state: "Dev",
      mode: "dev",
      bandName: "dev",
      meter: "sessions",
      bandMax: 2500,
      licenceId: null,
      instanceId: null,
      expiresAtUtc: null,
      daysRemaining: null,
      adminFreezeActive: false,
      isUnlicensed: true,
      isEnrolled: false,
    });
    expect(status.currentCount).toBe(g.sessions.summary().total);
    expect(status.peakCount).toBeGreaterThanOrEqual(status.currentCount);
  });

  it("logs every state change at the simulated instant it happens, and counts the days down", () => {
    // A tiny population: two simulated days run in a moment.
    const tiny = profile("small", (raw) => {
      raw.population = { subscribers: 120, steadyStateSessions: 100, licensedSessions: 150, setupsPerSecond: 20 };
    });
    const g = gateway(tiny, 32, 600);
    const changesAcross = (seconds: number) => {
      const since = g.lastSeq;
      g.step(seconds);
      return g.logs
        .tail({ count: 1000, sinceSeq: since })
        .entries.filter((e) => e.msgId === "licence.state")
        .map((e) => [e.fields.from, e.fields.to, e.timestamp]);
    };
    g.setLicence(online(g.nowMs, { renewalDays: 1, graceDays: 1 }));
    expect(logged(g, "licence.state").map((e) => [e.fields.from, e.fields.to])).toEqual([["Dev", "Licensed"]]);
    expect(g.licence.status()).toMatchObject({
      state: "Licensed",
      mode: "online",
      daysRemaining: 1,
      isUnlicensed: false,
      isEnrolled: true,
    });
    const expiry = g.nowMs + DAY_MS;
    g.step(DAY_MS / 1000 - 3600);
    expect(g.licence.status()).toMatchObject({ state: "Licensed", daysRemaining: 1 });
    expect(changesAcross(3600)).toEqual([["Licensed", "Grace", new Date(expiry).toISOString()]]);
    expect(g.licence.status()).toMatchObject({ state: "Grace", daysRemaining: 1, adminFreezeActive: false });
    expect(alarmIds(g)).toContain("licence.grace");
    g.step(DAY_MS / 1000 - 3600);
    expect(changesAcross(3600)).toEqual([["Grace", "Lapsed", new Date(expiry + DAY_MS).toISOString()]]);
    expect(g.licence.status()).toMatchObject({
      state: "Lapsed",
      daysRemaining: 0,
      adminFreezeActive: true,
      isUnlicensed: true,
    });
    expect(alarmIds(g)).toContain("licence.lapsed");
    expect(alarmIds(g)).not.toContain("licence.grace");
    // Activation is the recovery path.
    g.setLicence(online(g.nowMs));
    expect(g.licence.status().state).toBe("Licensed");
    // Lapsed in the last step: its alarm is held for its first minute (alarms.ts MIN_ACTIVE_MS).
    g.step(60);
    expect(alarmIds(g)).not.toContain("licence.lapsed");
  });

  it("alarms a session count above the band, and clears it when the band holds them", () => {
    const g = gateway(profile(), 33, 1800);
    const live = g.sessions.summary().total;
    g.setLicence(online(g.nowMs, { bandName: "XS-1k", bandMax: 1000 }));
    expect(live).toBeGreaterThan(1000);
    const alarm = g.alarms.list().active.find((a) => a.id === "licence.band.exceeded");
    expect(alarm?.context).toEqual({ currentCount: String(live), bandMax: "1000", bandName: "XS-1k" });
    expect(g.licence.meter()).toMatchObject({ bandMax: 1000, currentCount: live });
    // Sessions beyond the band are still admitted: the band is alarmed, not enforced.
    g.step(600);
    expect(g.sessions.summary().total).toBeGreaterThan(1000);
    g.setLicence(online(g.nowMs, { bandName: "M-5k", bandMax: 5000 }));
    expect(alarmIds(g)).not.toContain("licence.band.exceeded");
    expectConsistent(g);
  });

  it("survives a snapshot and a reseed", () => {
    const g = gateway(profile(), 34, 600);
    g.setLicence(online(g.nowMs, { bandMax: 1000 }));
    g.step(600);
    const copy = restore(g);
    expect(copy.licence.status()).toEqual(g.licence.status());
    expect(observe(copy)).toBe(observe(g));
    g.scenario({ action: "reseed", seed: 35 });
    expect(g.licence.status()).toMatchObject({ state: "Licensed", licenceId: "LIC-TEST-1", bandMax: 1000 });
  });

  it("keeps its meter equal to the sessions summary", () => {
    const g = Gateway.create(profile(), { seed: 36, startTimeMs: START });
    for (let i = 0; i < 6; i++) {
      g.step(300);
      expect(g.licence.status().currentCount).toBe(g.sessions.summary().total);
    }
  });
});
