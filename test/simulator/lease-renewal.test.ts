/**
 * IPoE leases as RFC 2131 §4.4.5 has a client keep them (leases.ts): the
 * detail's `leaseExpiresUtc` is the lease's expiry; the client renews at T1
 * (half the lease, ±5 % fuzz), retries a lost request at half the time left
 * to T2 (7/8 of the lease), then rebinds at half the time left to expiry,
 * 60 s apart at least; only a lease nobody renewed ends its session, at its
 * expiry. The session table files each act by the step it falls due in
 * (lease-timers.ts).
 */
import { describe, expect, it } from "vitest";
import { LeaseTimers } from "../../simulator/lease-timers.ts";
import { allSessions, gateway, profile, restore } from "./helpers.ts";

describe("lease timers", () => {
  it("hands out each slot once, in slot order, at the first 10 s step at or after its renewal", () => {
    const t = new LeaseTimers();
    t.add(5, 25_000);
    t.add(3, 20_001);
    t.add(3, 30_000);
    t.add(9, 20_000);
    t.add(7, 40_000);
    expect(t.take(10_000)).toEqual([]);
    expect(t.take(20_000)).toEqual([9]);
    // 20,001 and 25,000 fall due at the 30 s step, as 30,000 does; slot 3 filed twice comes once.
    expect(t.take(30_000)).toEqual([3, 5]);
    expect(t.take(30_000)).toEqual([]);
    // A long skipped gap: everything up to it at once.
    t.add(1, 9_000_000_000);
    expect(t.take(5_000_000_000)).toEqual([7]);
    expect(t.take(9_000_000_000)).toEqual([1]);
  });
});

describe("IPoE lease renewal", () => {
  const leaseSeconds = 600;
  /** Leases and nothing else: no line outages, reboots, firmware pushes or switch-offs end a session. */
  const quiet = (lossProbability: number) =>
    profile("small", (raw) => {
      raw.leases = { ipoeLeaseSeconds: leaseSeconds, renewFailureProbability: lossProbability };
      raw.churn.lineOutages = { atLeastMonthly: 0, atLeastWeekly: 0 };
      raw.churn.cpeRebootsPerMonth = 0;
      raw.churn.firmwarePushDays = null;
      raw.population.subscribers = raw.population.steadyStateSessions;
    });
  const expiryOf = (g: ReturnType<typeof gateway>, id: number): number | null => {
    const d = g.sessions.detail(id);
    return d.ok && d.session.leaseExpiresUtc !== null ? Date.parse(d.session.leaseExpiresUtc) : null;
  };

  for (const restored of [false, true]) {
    const title = `shows the expiry, a lease after the grant, and renews at T1 to a lease after the renewal`;
    it(`${title}${restored ? ", after a restore" : ""}`, () => {
      let g = gateway(quiet(0), 141, 100);
      const ipoe = allSessions(g, { type: "ipoe" }).slice(0, 300);
      const granted = new Map<number, number>();
      for (const s of ipoe) {
        const d = g.sessions.detail(s.id);
        if (!d.ok) throw new Error(`session ${s.id}`);
        // Set up in the last 100 s, on a 10 s step: the lease runs 600 s from then.
        expect(expiryOf(g, s.id)).toBe(Date.parse(d.session.startedUtc) + leaseSeconds * 1000);
        granted.set(s.id, Date.parse(d.session.startedUtc));
      }
      if (restored) g = restore(g);
      const renewedAt = new Map<number, number>();
      for (let k = 0; k < leaseSeconds / 10; k++) {
        g.step(10);
        for (const [id, at] of granted) {
          if (renewedAt.has(id) || expiryOf(g, id) === at + leaseSeconds * 1000) continue;
          // Renewed in this step: the lease runs from now; T1 was 285-315 s after the grant (the step at or after it).
          expect(expiryOf(g, id), `session ${id}`).toBe(g.nowMs + leaseSeconds * 1000);
          expect(g.nowMs - at, `session ${id}`).toBeGreaterThanOrEqual(285_000);
          expect(g.nowMs - at, `session ${id}`).toBeLessThan(325_000);
          renewedAt.set(id, g.nowMs);
        }
      }
      expect(renewedAt.size).toBe(granted.size);
    });
  }

  it("ends a session whose every request is lost at its lease's expiry, not at T1", () => {
    const g = gateway(quiet(1), 142, 300);
    const due = new Map(
      allSessions(g, { type: "ipoe" })
        .slice(0, 300)
        .map((s) => [s.id, expiryOf(g, s.id) ?? 0]),
    );
    for (let k = 0; k < leaseSeconds / 10; k++) {
      g.step(10);
      for (const [id, at] of due) {
        expect(g.sessions.detail(id).ok, `session ${id} at ${g.nowMs - at} ms from its expiry`).toBe(g.nowMs < at);
      }
    }
    const downs = g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "session.down");
    const causes = downs.map((e) => e.fields.cause);
    expect(new Set(causes)).toEqual(new Set(["lease-expired"]));
  });

  it("retries a lost renewal until T2 and rebinds until expiry: half the requests lost drops one lease in 32", () => {
    // Lease 600 s, T1 ≈ 300 s, T2 = 525 s: requests at 300, 412.5 (half the 225 s to T2), 472.5 (56 s to go: the
    // 60 s floor), 525 (T2, rebinding), 585 (half the 75 s to expiry, 60 s floor); at 600 the lease expires.
    // Five requests, each lost with probability 1/2: a lease is lost with 1/2^5 = 1/32 (the other 31 renew).
    const g = gateway(quiet(0.5), 143, 300);
    const sessions = allSessions(g, { type: "ipoe" });
    const first = new Map(sessions.map((s) => [s.id, expiryOf(g, s.id) ?? 0]));
    g.step(leaseSeconds + 10);
    let dropped = 0;
    for (const [id, at] of first) {
      const now = expiryOf(g, id);
      if (now === null) dropped++;
      else expect(now, `session ${id}`).toBeGreaterThan(at);
    }
    // 1,100 or so leases, each lost with 1/32: 34 expected, 3σ = 17.
    const expected = first.size / 32;
    expect(sessions.length).toBeGreaterThan(1000);
    expect(Math.abs(dropped - expected)).toBeLessThan(3 * Math.sqrt(expected));
  });
});
