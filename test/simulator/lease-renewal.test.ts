/**
 * IPoE lease renewals: a session renews at the instant its detail's
 * `leaseExpiresUtc` gives (the first 10 s step at or after it), to a new time
 * between half the lease and the whole lease on (lifecycle.ts, RFC 2131's T1
 * jittered), or, with `renewFailureProbability`, is dropped then. The session
 * table files renewals by the step they fall due in (lease-timers.ts).
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
  const quiet = () =>
    profile("small", (raw) => {
      raw.leases = { ipoeLeaseSeconds: leaseSeconds, renewFailureProbability: 0.3 };
      // No churn: a session ends only when its renewal fails.
      raw.churn.connectsPerSecond = 0;
      raw.churn.disconnectsPerSecond = 0;
    });

  for (const restored of [false, true]) {
    it(`renews at the time the detail shows, or drops the session then${restored ? ", after a restore" : ""}`, () => {
      let g = gateway(quiet(), 141, 300);
      const ipoe = allSessions(g, { type: "ipoe" }).slice(0, 300);
      const due = new Map<number, number>();
      for (const s of ipoe) {
        const d = g.sessions.detail(s.id);
        if (!d.ok || d.session.leaseExpiresUtc === null) throw new Error(`session ${s.id}`);
        due.set(s.id, Date.parse(d.session.leaseExpiresUtc));
      }
      if (restored) g = restore(g);
      // Over two leases every session renews at least once more, or is dropped.
      let renewals = 0;
      let dropped = 0;
      for (let k = 0; k < (2 * leaseSeconds) / 10 + 1; k++) {
        g.step(10);
        for (const [id, at] of due) {
          const d = g.sessions.detail(id);
          if (g.nowMs < at) {
            expect(d.ok && d.session.leaseExpiresUtc, `session ${id} before its renewal`).toBe(new Date(at).toISOString());
          } else if (!d.ok) {
            due.delete(id);
            dropped++;
          } else {
            const next = Date.parse(d.session.leaseExpiresUtc ?? "");
            expect(next - g.nowMs, `session ${id}`).toBeGreaterThanOrEqual((leaseSeconds * 1000) / 2);
            expect(next - g.nowMs, `session ${id}`).toBeLessThanOrEqual(leaseSeconds * 1000);
            due.set(id, next);
            renewals++;
          }
        }
      }
      // 300 sessions, each due at least twice in 1,200 s (a lease is at most 600 s ahead), 30 % failing each time.
      const attempts = renewals + dropped;
      expect(attempts).toBeGreaterThan(450);
      expect(dropped / attempts).toBeGreaterThan(0.2);
      expect(dropped / attempts).toBeLessThan(0.4);
    });
  }
});
