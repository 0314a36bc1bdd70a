import { describe, expect, it } from "vitest";
import type { Gateway } from "../../simulator/index.ts";
import { gateway, profile } from "./helpers.ts";

/** A busy (not walled-garden) session, so packets flow quickly. */
function busySession(g: Gateway): number {
  const s = g.sessions.list({ limit: 500 }).items.filter((x) => !x.walledGarden);
  const rated = s.map((x) => {
    const r = g.sessions.rates(x.id);
    return { id: x.id, pps: r.ok ? r.rates.rxPps + r.rates.txPps : 0 };
  });
  rated.sort((a, b) => b.pps - a.pps);
  return rated[0]?.id ?? 0;
}

const stops = (g: Gateway) => g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "capture.stop");

describe("packet captures", () => {
  it("starts one capture per session and refuses a second or an unknown session", () => {
    const g = gateway(profile(), 91, 600);
    const id = busySession(g);
    const r = g.startCapture(id, "192.0.2.50", 1000, 60);
    expect(r).toEqual({
      ok: true,
      capture: {
        sessionId: id,
        destinationIp: "192.0.2.50",
        maxPackets: 1000,
        maxDurationSeconds: 60,
        startedUtc: new Date(g.nowMs).toISOString(),
      },
    });
    expect(g.startCapture(id, "192.0.2.51", null, null)).toEqual({ ok: false, reason: "already-capturing" });
    expect(g.startCapture(99_999_999, "192.0.2.51", null, null)).toEqual({ ok: false, reason: "unknown-session" });
    expect(g.startCapture(busySession(g) === id ? id + 0 : id, "not an ip", null, null).ok).toBe(false);
    expect(g.captures.list().map((c) => c.sessionId)).toEqual([id]);
  });

  it("refuses a destination that is not an address and negative limits", () => {
    const g = gateway(profile(), 92, 600);
    const [a, b] = g.sessions.list({ limit: 2 }).items;
    expect(g.startCapture(a?.id ?? 0, "collector.example", null, null)).toEqual({
      ok: false,
      reason: "invalid-destination",
    });
    expect(g.startCapture(b?.id ?? 0, "2001:db8::7", -1, null)).toEqual({ ok: false, reason: "invalid-limit" });
  });

  it("stops on the operator's request with the spec's result", () => {
    const g = gateway(profile(), 93, 600);
    const id = busySession(g);
    g.startCapture(id, "192.0.2.50", null, null);
    g.step(60);
    expect(g.stopCapture(id)).toEqual({ ok: true, status: "stopped", sessionId: id });
    expect(g.stopCapture(id)).toEqual({ ok: false, reason: "not-capturing" });
    expect(stops(g).at(-1)?.fields).toMatchObject({ sessionId: id, reason: "operator", durationSeconds: 60 });
  });

  it("stops by itself when maxPackets is reached, counting the session's packet rate", () => {
    const g = gateway(profile(), 94, 600);
    const id = busySession(g);
    const r = g.sessions.rates(id);
    const pps = r.ok ? r.rates.rxPps + r.rates.txPps : 0;
    expect(pps).toBeGreaterThan(10);
    const max = Math.ceil(pps * 25);
    g.startCapture(id, "192.0.2.50", max, null);
    g.step(10);
    expect(g.captures.list()).toHaveLength(1);
    expect(g.captures.list()[0]?.packetsMirrored).toBeLessThan(max);
    g.step(600);
    expect(g.captures.list()).toEqual([]);
    expect(stops(g).at(-1)?.fields).toMatchObject({ sessionId: id, reason: "max-packets", packets: max });
  });

  it("stops by itself when maxDurationSeconds is reached, and never for null or 0 limits", () => {
    const g = gateway(profile(), 95, 600);
    const [a, b] = g.sessions.list({ limit: 2 }).items;
    g.startCapture(a?.id ?? 0, "192.0.2.50", null, 120);
    g.startCapture(b?.id ?? 0, "192.0.2.51", 0, 0);
    g.step(110);
    expect(g.captures.list()).toHaveLength(2);
    g.step(10);
    expect(g.captures.list().map((c) => c.sessionId)).toEqual([b?.id]);
    expect(stops(g).at(-1)?.fields).toMatchObject({ sessionId: a?.id, reason: "max-duration", durationSeconds: 120 });
  });

  it("stops when the session goes down", () => {
    const g = gateway(profile(), 96, 600);
    const id = g.sessions.list({ limit: 1 }).items[0]?.id ?? 0;
    g.startCapture(id, "192.0.2.50", null, null);
    g.disconnect(id);
    expect(g.captures.list()).toEqual([]);
    expect(stops(g).at(-1)?.fields).toMatchObject({ sessionId: id, reason: "session-down" });
  });
});
