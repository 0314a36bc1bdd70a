import { describe, expect, it } from "vitest";
import { allAllocations, expectConsistent, gateway, profile } from "./helpers.ts";

describe("session detail, rates and disconnect", () => {
  it("tells everything known about a session", () => {
    const g = gateway(profile(), 61, 1800);
    const s = g.sessions
      .list({ vrf: "cgn-inside", type: "ipoe", limit: 500 })
      .items.find((x) => !x.ipv4.startsWith("100.64.1."));
    if (!s) throw new Error();
    const d = g.sessions.detail(s.id);
    if (!d.ok) throw new Error();
    expect(d.session).toMatchObject({ ...s, state: "up" });
    expect(d.session.addresses.ipv4).toMatchObject({ address: s.ipv4, pool: "cgn-inside-v4", cgnTranslated: true });
    expect(d.session.cgn).toMatchObject({
      sessionId: s.id,
      insideIp: s.ipv4,
      autoLearned: false,
      subscriberId: s.username,
    });
    expect(d.session.leaseExpiresUtc).not.toBeNull();
    expect(d.session.planRates.downloadKbps).toBeGreaterThan(0);
    expect(d.session.counters.txBytes).toBeGreaterThan(0);
    expect(d.session.rates.sessionId).toBe(s.id);
  });

  it("reports live rates within the plan", () => {
    const g = gateway(profile(), 62, 600);
    for (const s of g.sessions.list({ limit: 50 }).items) {
      const r = g.sessions.rates(s.id);
      const d = g.sessions.detail(s.id);
      if (!r.ok || !d.ok) throw new Error();
      expect(r.rates.txBps).toBeLessThanOrEqual(d.session.planRates.downloadKbps * 1000);
      expect(r.rates.rxBps).toBeLessThanOrEqual(d.session.planRates.uploadKbps * 1000);
      if (s.walledGarden) expect(r.rates.txBps).toBeLessThanOrEqual(g.profile.walledGardenKbps * 1000);
    }
  });

  it("gives packet rates that agree with the byte rates on the packet size the counters show", () => {
    const g = gateway(profile(), 62, 600);
    // Sessions carrying enough downstream packets for the counters' mean packet size to be sharp.
    const busy = g.sessions.list({ limit: 200 }).items.flatMap((s) => {
      const r = g.sessions.rates(s.id);
      const d = g.sessions.detail(s.id);
      return r.ok && d.ok && r.rates.txPps >= 20 && d.session.counters.txPackets >= 10_000
        ? [{ rates: r.rates, counters: d.session.counters }]
        : [];
    });
    expect(busy.length).toBeGreaterThan(10);
    for (const { rates, counters } of busy) {
      const bytesPerPacket = counters.txBytes / counters.txPackets;
      // txPps is whole packets per second: within one packet (and 1 % for the counters' rounding) of bytes ÷ size.
      expect(Math.abs(rates.txPps - rates.txBps / 8 / bytesPerPacket)).toBeLessThanOrEqual(1 + rates.txPps * 0.01);
    }
  });

  it("frees every address and binding of a disconnected session, and names whose it was", () => {
    const g = gateway(profile(), 63, 600);
    const s = g.sessions.list({ vrf: "cgn-inside", limit: 500 }).items.find((x) => {
      const d = g.sessions.detail(x.id);
      return d.ok && d.session.cgn !== null && d.session.addresses.ipv6Pd !== null;
    });
    if (!s) throw new Error();
    const before = g.cgn.status().activeBindings;
    const pd = g.sessions.detail(s.id);
    expect(g.disconnect(s.id)).toEqual({ ok: true, sessionId: s.id, username: s.username });
    expect(g.sessions.detail(s.id)).toEqual({ ok: false, reason: "unknown-session" });
    expect(g.disconnect(s.id)).toEqual({ ok: false, reason: "unknown-session" });
    expect(g.cgn.status().activeBindings).toBe(before - 1);
    expect(allAllocations(g, "cgn-inside-v4").some((a) => a.sessionId === s.id)).toBe(false);
    expect(allAllocations(g, "cgn-v6-pd").some((a) => pd.ok && a.prefix === pd.session.addresses.ipv6Pd?.prefix)).toBe(
      false,
    );
    const last = g.logs.tail({ count: 1 }).entries[0];
    expect(last).toMatchObject({ msgId: "session.down", fields: { sessionId: s.id, cause: "admin-reset" } });
    expectConsistent(g, { noReservations: true });
  });

  it("answers unknown-session for ids never issued", () => {
    const g = gateway(profile(), 64, 60);
    expect(g.sessions.rates(10_000_000)).toEqual({ ok: false, reason: "unknown-session" });
    expect(g.sessions.detail(0)).toEqual({ ok: false, reason: "unknown-session" });
  });
});
