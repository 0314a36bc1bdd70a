import { describe, expect, it } from "vitest";
import { PORT_MTU, PPPOE_MTU, type Gateway, type PingRequest } from "../../simulator/index.ts";
import { allSessions, gateway, profile } from "./helpers.ts";

const request = (destination: string, extra: Partial<PingRequest> = {}): PingRequest => ({
  destination,
  vrf: "default",
  count: 5,
  size: 56,
  dontFragment: false,
  timeoutMs: 1000,
  ...extra,
});

function ping(g: Gateway, req: PingRequest) {
  const r = g.ping(req);
  if (!r.ok) throw new Error(r.reason);
  return r.result;
}

describe("ping", () => {
  const g = gateway(profile(), 81, 1800);

  it("is deterministic for the same seed, clock and request, and leaves the simulation alone", () => {
    const a = gateway(profile(), 82, 900);
    const b = gateway(profile(), 82, 900);
    const req = request("203.0.113.77", { count: 20 });
    expect(ping(a, req)).toEqual(ping(b, req));
    expect(ping(a, req)).toEqual(ping(a, req));
    a.step(600);
    b.step(600);
    expect(allSessions(a)).toEqual(allSessions(b));
    expect(ping(a, req)).toEqual(ping(b, req));
  });

  it("varies with the simulated clock but keeps a destination's round trip in one band", () => {
    const a = gateway(profile(), 83, 900);
    const req = request("198.51.100.20", { count: 10 });
    const before = ping(a, req);
    a.step(60);
    const after = ping(a, req);
    expect(after.replies).not.toEqual(before.replies);
    expect(after.rttMs!.min / before.rttMs!.min).toBeGreaterThan(0.85);
    expect(after.rttMs!.min / before.rttMs!.min).toBeLessThan(1.15);
  });

  it("reaches a live subscriber in its VRF within a few milliseconds", () => {
    const results = allSessions(g)
      .filter((s) => s.encap === "ipoe")
      .slice(0, 40)
      .map((s) => ({ s, r: ping(g, request(s.ipv4, { vrf: s.vrf })) }));
    for (const { s, r } of results) {
      expect(r).toMatchObject({ route: "subscriber", sessionId: s.id, pathMtu: PORT_MTU, sent: 5 });
      for (const reply of r.replies.filter((x) => x.result === "reply")) expect(reply.rttMs).toBeLessThan(10);
    }
    expect(results.filter(({ r }) => r.received === 5).length).toBeGreaterThan(25);
  });

  it("does not find a subscriber from another VRF", () => {
    const s = allSessions(g).find((x) => x.vrf === "wholesale")!;
    expect(ping(g, request(s.ipv4, { vrf: "default" })).route).not.toBe("subscriber");
  });

  it("yields would-fragment, not an error, for a payload over the path MTU with dontFragment set", () => {
    const over = ping(g, request("203.0.113.77", { size: PORT_MTU - 28 + 1, dontFragment: true }));
    expect(over).toMatchObject({
      packetBytes: 1501,
      pathMtu: 1500,
      sent: 5,
      received: 0,
      lossPercent: 100,
      rttMs: null,
    });
    expect(over.replies.every((r) => r.result === "would-fragment" && r.rttMs === null)).toBe(true);
    expect(
      ping(g, request("203.0.113.77", { size: PORT_MTU - 28, dontFragment: true })).replies.some(
        (r) => r.result === "would-fragment",
      ),
    ).toBe(false);
    expect(ping(g, request("203.0.113.77", { size: 4000 })).replies.some((r) => r.result === "would-fragment")).toBe(
      false,
    );
  });

  it("uses a PPPoE subscriber's 1492-byte MTU", () => {
    const s = allSessions(g).find((x) => x.encap === "pppoe-local")!;
    const r = ping(g, request(s.ipv4, { vrf: s.vrf, size: 1465, dontFragment: true }));
    expect(r).toMatchObject({ pathMtu: PPPOE_MTU, packetBytes: 1493 });
    expect(r.replies.every((x) => x.result === "would-fragment")).toBe(true);
  });

  it("answers unreachable for an unassigned pool address and for martians", () => {
    const held = new Set(allSessions(g).map((x) => x.ipv4));
    const free = Array.from({ length: 200 }, (_, i) => `198.18.5.${i + 2}`).find((a) => !held.has(a))!;
    expect(ping(g, request(free))).toMatchObject({ route: "discard", received: 0 });
    expect(ping(g, request(free)).replies.every((r) => r.result === "unreachable")).toBe(true);
    expect(ping(g, request("224.0.0.1"))).toMatchObject({ route: "martian", received: 0 });
  });

  it("answers at once from the appliance's own address in the VRF", () => {
    const r = ping(g, request("10.128.0.1", { vrf: "wholesale", local: ["10.128.0.1"] }));
    expect(r).toMatchObject({ route: "local", received: 5, lossPercent: 0 });
    expect(r.rttMs!.max).toBeLessThan(0.1);
  });

  it("counts, summarises and times out consistently", () => {
    const r = ping(g, request("198.51.100.99", { count: 100 }));
    expect(r.replies.map((x) => x.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(r.received).toBe(r.replies.filter((x) => x.result === "reply").length);
    expect(r.lossPercent).toBe(100 - r.received);
    expect(r.received).toBeGreaterThan(90);
    const rtts = r.replies.flatMap((x) => (x.rttMs === null ? [] : [x.rttMs]));
    expect(r.rttMs).toMatchObject({ min: Math.min(...rtts), max: Math.max(...rtts) });
    const tight = ping(g, request("198.51.100.99", { count: 100, timeoutMs: Math.floor(r.rttMs!.min) }));
    expect(tight.received).toBe(0);
  });
});
