/**
 * Session rates are 30 s averages, a router's load interval (docs/simulation.md, "The
 * simulation"): each session's is drawn every third 10 s sub-step, a third of
 * the table at each, while its byte counters and its port's rate move at
 * every sub-step. Expected values come from the rates the API shows.
 */
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../simulator/index.ts";
import { allSessions, gateway, profile, restore } from "./helpers.ts";

/** A session's shown rates: received and sent bits per second. */
function ratesOf(g: Gateway, id: number): { rx: number; tx: number } {
  const r = g.sessions.rates(id);
  if (!r.ok) throw new Error(`session ${id}`);
  return { rx: r.rates.rxBps, tx: r.rates.txBps };
}

/**
 * What a session puts on its port's wire, by hand (docs/simulation.md, "Interfaces"): its packets with their access
 * headers (Ethernet 14 + two 802.1Q tags 8; PPPoE 6 + PPP 2 more) and its control plane (a PPP session's LCP echo, a
 * 60-byte frame each way every 10 s; an IPoE session's DHCP REQUEST and ACK, 350-byte frames, every 1,800 s).
 */
function wireOf(g: Gateway, id: number, encap: string): { rx: number; tx: number } {
  const r = g.sessions.rates(id);
  if (!r.ok) throw new Error(`session ${id}`);
  const header = encap === "ipoe" ? 22 : 30;
  const control = encap === "ipoe" ? (350 * 8) / 1800 : (60 * 8) / 10;
  return {
    rx: r.rates.rxBps + 8 * header * r.rates.rxPps + control,
    tx: r.rates.txBps + 8 * header * r.rates.txPps + control,
  };
}

describe("session rates over the load interval", () => {
  it("holds each session's rate for three 10 s steps, and redraws about a third of the sessions at every step", () => {
    const g = gateway(profile(), 131, 1800);
    const readings = new Map<number, string[]>();
    for (let k = 0; k < 10; k++) {
      if (k > 0) g.step(10);
      for (const s of allSessions(g)) {
        const { rx, tx } = ratesOf(g, s.id);
        readings.set(s.id, [...(readings.get(s.id) ?? []), `${rx}/${tx}`]);
      }
    }
    // Sessions up at all ten readings (their first draw, at setup, came before the first).
    const steady = [...readings.values()].filter((r) => r.length === 10);
    expect(steady.length).toBeGreaterThan(500);
    const changedAt = new Array<number>(10).fill(0);
    for (const r of steady) {
      const changes = r.flatMap((rate, k) => (k > 0 && rate !== r[k - 1] ? [k] : []));
      // A redraw may repeat a capped rate, so a session may skip a change, but never changes sooner than three steps
      // on.
      for (let i = 1; i < changes.length; i++) expect((changes[i]! - changes[i - 1]!) % 3, r.join(" ")).toBe(0);
      for (const k of changes) changedAt[k]!++;
    }
    for (let k = 1; k < 10; k++) {
      const share = changedAt[k]! / steady.length;
      expect(share, `step ${k}`).toBeGreaterThan(0.2);
      expect(share, `step ${k}`).toBeLessThan(0.4);
    }
  });

  it("gives a session its first rates in the step that sets it up, whatever its turn", () => {
    const g = gateway(profile(), 134);
    g.step(10);
    const fresh = allSessions(g);
    expect(fresh.length).toBeGreaterThan(1000);
    for (const s of fresh) expect(s.uptimeSeconds).toBe(0);
    const carrying = fresh.filter((s) => ratesOf(g, s.id).tx > 0).length;
    expect(carrying / fresh.length).toBeGreaterThan(0.95);
  });

  it("counts each session's bytes at its shown rate over every 10 s step, between redraws too", () => {
    const g = gateway(profile(), 132, 1800);
    const ids = allSessions(g, { limit: 500 })
      .slice(0, 200)
      .map((s) => s.id);
    const counters = (id: number) => {
      const d = g.sessions.detail(id);
      return d.ok ? d.session.counters : null;
    };
    const start = new Map(ids.map((id) => [id, counters(id)]));
    const carried = new Map(ids.map((id) => [id, { rx: 0, tx: 0 }]));
    for (let k = 0; k < 7; k++) {
      g.step(10);
      for (const id of ids) {
        const r = g.sessions.rates(id);
        const sum = carried.get(id);
        if (r.ok && sum) {
          sum.rx += (r.rates.rxBps * 10) / 8;
          sum.tx += (r.rates.txBps * 10) / 8;
        } else carried.delete(id);
      }
    }
    expect(carried.size).toBeGreaterThan(150);
    let busy = 0;
    for (const [id, sum] of carried) {
      const was = start.get(id);
      const now = counters(id);
      if (!was || !now) throw new Error(`session ${id}`);
      // Rates are whole bits per second; the counters are rounded to whole bytes.
      expect(Math.abs(now.rxBytes - was.rxBytes - sum.rx), `session ${id}`).toBeLessThanOrEqual(1);
      expect(Math.abs(now.txBytes - was.txBytes - sum.tx), `session ${id}`).toBeLessThanOrEqual(1);
      if (sum.tx > 0) busy++;
    }
    expect(busy).toBeGreaterThan(50);
  });

  it("keeps port rates the sum of their sessions' frames over a long run and across a restore", () => {
    const original = gateway(profile(), 133, 6 * 3600);
    original.scenario({ action: "disconnect-sessions", share: 0.3, filter: {} });
    original.step(600);
    const copy = restore(original);
    for (const g of [original, copy]) g.step(30);
    for (const g of [original, copy]) {
      const ports = g.metrics.history("1h").ports;
      for (const port of ports) {
        let rx = 0;
        let tx = 0;
        const sessions = allSessions(g, { port: port.portId });
        for (const s of sessions) {
          const r = wireOf(g, s.id, s.encap);
          rx += r.rx;
          tx += r.tx;
        }
        // The control plane's fractions of a bit are summed per port and the history keeps whole bits: within one.
        expect(Math.abs((port.rxBps.at(-1) ?? 0) - rx), `port ${port.portId}`).toBeLessThanOrEqual(1);
        expect(Math.abs((port.txBps.at(-1) ?? 0) - tx), `port ${port.portId}`).toBeLessThanOrEqual(1);
        expect(tx).toBeGreaterThan(0);
      }
    }
    // The copy carries on with the same rates and byte counters.
    const ids = allSessions(original, { limit: 500 })
      .slice(0, 50)
      .map((s) => s.id);
    for (const id of ids) {
      const [a, b] = [original, copy].map((g) => g.sessions.detail(id));
      expect(b).toEqual(a);
    }
  });
});
