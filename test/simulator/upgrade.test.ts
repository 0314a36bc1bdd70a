import { describe, expect, it } from "vitest";
import {
  DRAIN_SECONDS,
  INSTALL_SECONDS,
  LOG_CATALOGUE,
  REBOOT_SECONDS,
  planUpgrade,
  upgradePhase,
  type Gateway,
} from "../../simulator/index.ts";
import { gateway, observe, profile, restore } from "./helpers.ts";

const REQUEST = { packageId: "pkg-1", fromVersion: "0.1.0", version: "0.2.0" };

/** A filled-up gateway with an upgrade accepted now. */
function upgrading(drain: boolean, seed = 5): Gateway {
  const g = gateway(profile(), seed, 1800);
  g.beginUpgrade(planUpgrade({ ...REQUEST, drain }, g.nowMs));
  return g;
}

const entries = (g: Gateway, msgId: string) => g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === msgId);

describe("the plan", () => {
  it("installs, drains, reboots and comes back on the sub-step grid", () => {
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 3);
    const plan = planUpgrade({ ...REQUEST, drain: true }, t0);
    expect(plan.requestedMs).toBe(Date.UTC(2026, 0, 1, 12, 0, 0));
    expect([plan.installedMs - plan.requestedMs, plan.rebootMs - plan.installedMs, plan.upMs - plan.rebootMs]).toEqual([
      INSTALL_SECONDS * 1000,
      DRAIN_SECONDS * 1000,
      REBOOT_SECONDS * 1000,
    ]);
    expect([plan.requestedMs, plan.installedMs, plan.rebootMs, plan.upMs].map((t) => upgradePhase(plan, t))).toEqual([
      "applying",
      "draining",
      "rebooting",
      "complete",
    ]);
  });

  it("skips the drain window when not draining", () => {
    const plan = planUpgrade({ ...REQUEST, drain: false }, 0);
    expect(plan.rebootMs).toBe(plan.installedMs);
    expect(upgradePhase(plan, plan.installedMs)).toBe("rebooting");
  });
});

describe("a graceful drain", () => {
  it("keeps admitting sessions while the image installs", () => {
    const g = upgrading(true);
    const before = g.sessions.summary().total;
    g.step(INSTALL_SECONDS);
    expect(g.upgrade()?.phase).toBe("draining");
    expect(g.sessions.summary().total).toBeGreaterThan(before * 0.95);
    expect(entries(g, "upgrade.started")).toHaveLength(1);
  });

  it("ends the sessions evenly, refusing new ones, until none is left at the reboot", () => {
    const g = upgrading(true);
    g.step(INSTALL_SECONDS);
    const start = g.sessions.summary().total;
    const totals: number[] = [];
    for (let t = 0; t < DRAIN_SECONDS - 10; t += 10) {
      g.step(10);
      totals.push(g.sessions.summary().total);
    }
    // Monotonic: nothing comes up while draining.
    for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeLessThanOrEqual(totals[i - 1]!);
    expect(totals[5]).toBeLessThanOrEqual(Math.floor(start / 2));
    expect(totals.at(-1)).toBeGreaterThan(0);
    g.step(10);
    expect(g.sessions.summary().total).toBe(0);
    expect(g.upgrade()).toMatchObject({ phase: "rebooting", drainStartSessions: start, dropped: 0 });
    const drains = entries(g, "upgrade.drain");
    expect(drains).toHaveLength(DRAIN_SECONDS / 10);
    expect(drains.reduce((n, e) => n + Number(e.fields.ended), 0)).toBe(g.upgrade()!.drained);
    expect(drains.some((e) => Number(e.fields.refused) > 0)).toBe(true);
    expect(
      g.logs.tail({ count: 1000 }).entries.some((e) => e.msgId === "session.down" && e.fields.cause === "admin-reboot"),
    ).toBe(true);
    expect(entries(g, "upgrade.rebooting")[0]?.fields).toMatchObject({ sessionsDropped: 0, version: "0.2.0" });
  });

  it("keeps the data plane down through the reboot, then brings subscribers back", () => {
    const g = upgrading(true);
    g.step(INSTALL_SECONDS + DRAIN_SECONDS);
    expect(g.forwarding).toBe(false);
    g.step(REBOOT_SECONDS - 10);
    expect(g.sessions.summary().total).toBe(0);
    expect(g.metrics.history().times).toHaveLength(0);
    g.step(10);
    expect(g.upgrade()?.phase).toBe("complete");
    expect(g.forwarding).toBe(true);
    expect(g.bootedMs).toBe(g.nowMs);
    expect(entries(g, "upgrade.complete")).toHaveLength(1);
    g.step(300);
    expect(g.sessions.summary().total).toBeGreaterThan(1000);
    expect(entries(g, "upgrade.complete")).toHaveLength(1);
  });
});

describe("a reboot without drain", () => {
  it("drops every session at once when the image is installed", () => {
    const g = upgrading(false);
    g.step(INSTALL_SECONDS - 10);
    const live = g.sessions.summary().total;
    expect(live).toBeGreaterThan(1000);
    g.step(10);
    expect(g.sessions.summary().total).toBe(0);
    expect(g.upgrade()?.dropped).toBeGreaterThan(1000);
    expect(entries(g, "upgrade.draining")).toHaveLength(0);
    expect(entries(g, "upgrade.rebooting")[0]?.fields.sessionsDropped).toBe(g.upgrade()?.dropped);
  });

  it("boots with the profile it is given (restart-only configuration applied)", () => {
    const g = upgrading(false);
    const next = profile("small", (raw) => (raw.cgn.maxBindings = 1234));
    g.onReboot(() => next);
    g.step(INSTALL_SECONDS);
    expect(g.profile.cgn.maxBindings).toBe(1234);
  });
});

describe("determinism and persistence", () => {
  it("gives the same state for the same seed and calls", () => {
    const a = upgrading(true, 9);
    const b = upgrading(true, 9);
    a.step(400);
    b.step(400);
    expect(observe(a)).toBe(observe(b));
  });

  it("continues a drain from a snapshot exactly as without it", () => {
    const a = upgrading(true, 11);
    a.step(INSTALL_SECONDS + 40);
    const b = restore(a);
    a.step(300);
    b.step(300);
    expect(b.sessions.summary()).toEqual(a.sessions.summary());
    expect(b.upgrade()).toEqual(a.upgrade());
  });

  it("logs only catalogued fields", () => {
    const g = upgrading(true, 12);
    g.step(INSTALL_SECONDS + DRAIN_SECONDS + REBOOT_SECONDS + 10);
    const catalogue = LOG_CATALOGUE as Record<string, { fields: readonly string[] }>;
    for (const e of g.logs.tail({ count: 1000 }).entries.filter((x) => x.msgId.startsWith("upgrade."))) {
      expect(Object.keys(e.fields).sort(), e.msgId).toEqual([...(catalogue[e.msgId]?.fields ?? [])].sort());
    }
  });
});
