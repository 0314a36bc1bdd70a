/**
 * RADIUS accounting in the simulated AAA (accounting.ts): Start, Interim-Update and Stop per session, counted per
 * server (RFC 2866), with octets, time and Acct-Terminate-Cause in each record; a server lost to accounting is
 * marked dead, and its alarm lasts the outage; records nobody answers queue, raise radius.accounting.failed, and
 * go out in order once a server answers.
 */
import { describe, expect, it } from "vitest";
import type { AccountingRecord } from "../../simulator/radius-records.ts";
import type { Gateway } from "../../simulator/index.ts";
import { allSessions, gateway, profile } from "./helpers.ts";

const active = (g: Gateway, id: string) => g.alarms.list().active.filter((a) => a.id === id);
const totals = (g: Gateway) => {
  const t = { start: 0, interimUpdate: 0, stop: 0, sent: 0, responses: 0 };
  for (const s of g.radius.status().servers) {
    t.start += s.accounting.requestsByType.start;
    t.interimUpdate += s.accounting.requestsByType.interimUpdate;
    t.stop += s.accounting.requestsByType.stop;
    t.sent += s.accounting.requestsSent;
    t.responses += s.accounting.responses;
  }
  return t;
};
/** The live sessions RADIUS authenticated (and so accounts): 2 % of `small`'s are authenticated locally. */
const radiusSessions = (g: Gateway) =>
  allSessions(g).filter((s) => {
    const d = g.sessions.detail(s.id);
    return d.ok && d.session.aaa.method === "radius";
  });

describe("accounting records", () => {
  it("count a Start per session up, a Stop per session down, and an Interim-Update every 600-900 s", () => {
    const g = gateway(profile(), 201, 2 * 3600);
    const before = totals(g);
    const up = radiusSessions(g).length;
    const records: AccountingRecord[] = [];
    g.onAccounting((r) => records.push(r));
    g.scenario({ action: "disconnect-sessions", share: 0.1, filter: {} });
    g.step(3600);
    const after = totals(g);
    const start = records.filter((r) => r.statusType === "Start").length;
    const stop = records.filter((r) => r.statusType === "Stop").length;
    // RFC 2866: a Start as each accounted session begins, a Stop as it ends: their difference over the hour is how
    // many more are up; the mass disconnect alone ended a tenth of them.
    const live = radiusSessions(g).length;
    expect(start - stop).toBe(live - up);
    // The servers count requests: a lost one sent again to the next server counts twice (RFC 2866 §2: retransmission).
    const lost = after.sent - after.responses - (before.sent - before.responses);
    expect(after.start - before.start + after.stop - before.stop - (start + stop)).toBeGreaterThanOrEqual(0);
    expect(after.start - before.start + after.stop - before.stop - (start + stop)).toBeLessThanOrEqual(lost);
    expect(stop).toBeGreaterThan(up * 0.1 * 0.95);
    // By hand: a session updates every interval plus a jitter of up to 300 s (uniform): 750 s on average, so
    // about 3600 / 750 = 4.8 updates a session-hour; about 1,960 RADIUS sessions over the hour.
    const perSessionHour = (after.interimUpdate - before.interimUpdate) / live;
    expect(perSessionHour).toBeGreaterThan(4.8 * 0.9);
    expect(perSessionHour).toBeLessThan(4.8 * 1.1);
    // Two servers of equal weight share them; each answers all but its 0.1 % of lost requests.
    const [r1, r2] = g.radius.status().servers;
    expect(r1!.accounting.requestsSent / after.sent).toBeCloseTo(0.5, 1);
    expect(r1!.accounting.port).toBe(1813);
    expect(r2!.accounting.responses + r2!.accounting.timeouts).toBe(r2!.accounting.requestsSent);
    expect(after.sent - after.responses).toBeLessThan(after.sent * 0.005);
  });

  it("carry the session's octets, time and the terminate cause a BNG sends, in Start, Interim and Stop", () => {
    const g = gateway(profile(), 202, 1800);
    const records: AccountingRecord[] = [];
    g.onAccounting((r) => records.push(r));
    const victim = radiusSessions(g).find((s) => s.encap === "ipoe")!;
    g.step(10);
    const detail = g.sessions.detail(victim.id);
    if (!detail.ok) throw new Error("gone");
    expect(g.disconnect(victim.id)).toEqual({ ok: true, sessionId: victim.id, username: detail.session.username });
    const stop = records.find((r) => r.statusType === "Stop" && r.sessionId === String(victim.id));
    expect(stop).toMatchObject({
      username: victim.username,
      framedIpAddress: victim.ipv4,
      sessionTimeSeconds: detail.session.uptimeSeconds,
      inputOctets: detail.session.counters.rxBytes,
      outputOctets: detail.session.counters.txBytes,
      terminateCause: { code: 6, name: "Admin-Reset" },
      server: expect.stringMatching(/:1813$/),
    });
    g.step(1800);
    // RFC 2866 §5.10 codes: the causes of the half hour's ends.
    const stops = records.filter((r) => r.statusType === "Stop");
    const rfc2866: Record<string, number> = { "User-Request": 1, "Lost-Carrier": 2, "Idle-Timeout": 4 };
    rfc2866["Admin-Reset"] = 6;
    for (const r of stops) expect(rfc2866[r.terminateCause!.name], r.terminateCause!.name).toBe(r.terminateCause!.code);
    const interims = records.filter((r) => r.statusType === "Interim-Update");
    expect(interims.length).toBeGreaterThan(1000);
    for (const r of interims.slice(0, 50)) expect(r.terminateCause).toBeNull();
    // A session's counts only grow from one update to the next.
    const bySession = new Map<string, AccountingRecord[]>();
    for (const r of interims) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
    for (const list of bySession.values()) {
      for (let i = 1; i < list.length; i++) {
        expect(list[i]!.outputOctets).toBeGreaterThanOrEqual(list[i - 1]!.outputOctets);
      }
    }
    const starts = records.filter((r) => r.statusType === "Start");
    expect(starts.length).toBeGreaterThan(0);
    for (const r of starts) expect(r).toMatchObject({ sessionTimeSeconds: 0, inputOctets: 0, outputOctets: 0 });
  });
});

describe("a RADIUS server that stops answering", () => {
  it("is found dead within a step by accounting, and its alarm lasts the whole outage", () => {
    // Six hours on, the updates of sessions brought up together have spread: 2.6 a second (1,960 / 750 s).
    const g = gateway(profile(), 203, 6 * 3600);
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.step(10);
    expect(g.radius.status().servers[0]?.isDead).toBe(true);
    const raises = () => {
      const all = g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "alarm.raise");
      return all.filter((e) => e.fields.id === "radius.server.dead");
    };
    // Fifteen minutes of outage: revived by its 60 s dead time again and again, marked dead again each time.
    for (let k = 0; k < 90; k++) {
      g.step(10);
      const instances = active(g, "radius.server.dead").map((a) => a.instance);
      expect(instances, `+${(k + 2) * 10} s`).toEqual(["radius-1.isp.example:1812"]);
    }
    const revivals = g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "radius.server.alive");
    expect(revivals.length).toBeGreaterThan(5);
    expect(raises()).toHaveLength(1);
    // The other server took every record meanwhile: nothing queued.
    expect(g.radius.status().accounting).toEqual({ queued: 0, dropped: 0 });
    expect(active(g, "radius.accounting.failed")).toEqual([]);
    g.scenario({ action: "revive-radius-server", server: "radius-1.isp.example" });
    expect(active(g, "radius.server.dead")).toEqual([]);
  });

  it("with every server gone, queues the records, raises radius.accounting.failed, sends them once one answers", () => {
    const g = gateway(profile(), 204, 1800);
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    g.step(600);
    const queued = g.radius.status().accounting.queued;
    // By hand: ten minutes of 1,960 sessions updating every 750 s on average: about 1,570 updates, plus Stops.
    expect(queued).toBeGreaterThan(1200);
    expect(active(g, "radius.accounting.failed").map((a) => a.severity)).toEqual(["major"]);
    const sent = totals(g).sent;
    g.scenario({ action: "revive-radius-server", server: "radius-2.isp.example" });
    // Sent again oldest first, up to 2,000 a step until one is lost (1 in 1,000 with one server left): about
    // 1,000 a step, so gone within two or three steps; a minute is ample.
    g.step(60);
    expect(g.radius.status().accounting).toEqual({ queued: 0, dropped: 0 });
    expect(totals(g).sent - sent).toBeGreaterThanOrEqual(queued);
    expect(active(g, "radius.accounting.failed")).toEqual([]);
  });

  it("drops records beyond the queue's size, and counts them", () => {
    const small = profile("small", (raw) => {
      raw.aaa.accountingQueue = 100;
    });
    const g = gateway(small, 205, 1800);
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    g.scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
    g.step(600);
    const { queued, dropped } = g.radius.status().accounting;
    expect(queued).toBe(100);
    expect(dropped).toBeGreaterThan(1000);
  });
});
