import { describe, expect, it } from "vitest";
import {
  compileSteering,
  frameBytes,
  type Gateway,
  type InjectRequest,
  type SessionSummary,
  type SourceVrfRule,
} from "../../simulator/index.ts";
import { allSessions, gateway, profile } from "./helpers.ts";

const NO_RULES = compileSteering([]);

/** A request sent from a session's own line: its port and VLAN pair. */
const fromSession = (s: SessionSummary, extra: Partial<InjectRequest> = {}): InjectRequest => ({
  port: s.portId ?? -1,
  source: s.ipv4,
  destination: "203.0.113.9",
  sVlan: s.svlan,
  cVlan: s.vlan,
  ...extra,
});

function trace(g: Gateway, req: InjectRequest, rules = NO_RULES) {
  const r = g.inject(req, rules);
  if (!r.ok) throw new Error(r.reason);
  return r.result;
}

const stepOf = (result: ReturnType<typeof trace>, stage: string) => result.steps.find((s) => s.stage === stage);
const accessSession = (g: Gateway, vrf: string) => {
  const s = g.sessions.list({ vrf, limit: 500 }).items.find((x) => x.portId !== null);
  if (!s) throw new Error(`no access session in ${vrf}`);
  return s;
};

describe("inject trace", () => {
  const g = gateway(profile(), 71, 1800);

  it("is a dry run by default, dropped at the egress staging point", () => {
    const s = accessSession(g, "default");
    const result = trace(g, fromSession(s));
    expect(result).toMatchObject({ emitted: false, dryRun: true });
    expect(result.steps.map((x) => x.stage)).toEqual([
      "ingress-port",
      "vlan-classify",
      "mpls",
      "subscriber-lookup",
      "source-vrf",
      "route-lookup",
      "egress",
    ]);
    expect(result.steps[3]).toEqual({ stage: "subscriber-lookup", verdict: "session:default", a: s.id, b: 32 });
    expect(result.steps.at(-1)).toEqual({ stage: "egress", verdict: "drop:dry-run", a: -1, b: result.frameBytes });
  });

  it("emits when asked, if no stage dropped the frame", () => {
    const s = accessSession(g, "default");
    const result = trace(g, fromSession(s, { emit: true }));
    expect(result).toMatchObject({ emitted: true, dryRun: false });
    expect(result.steps.at(-1)!.verdict).toBe("emitted");
    const dropped = trace(g, fromSession(s, { emit: true, destination: "224.0.0.5" }));
    expect(dropped).toMatchObject({ emitted: false, dryRun: false });
  });

  it("is deterministic and leaves the simulation's random stream alone", () => {
    const a = gateway(profile(), 72, 900);
    const b = gateway(profile(), 72, 900);
    const s = accessSession(a, "cgn-inside");
    expect(trace(a, fromSession(s))).toEqual(trace(a, fromSession(s)));
    for (let i = 0; i < 20; i++) trace(a, fromSession(s, { sourcePort: i }));
    a.step(600);
    b.step(600);
    expect(allSessions(a)).toEqual(allSessions(b));
  });
});

describe("source-VRF steering in the trace", () => {
  const g = gateway(profile(), 73, 1800);
  const s = accessSession(g, "wholesale");
  const rules: SourceVrfRule[] = [
    { name: "other", ingestVrf: "cgn-inside", sourceSubnets: [], targetVrf: "default" },
    { name: "one-host", ingestVrf: "wholesale", sourceSubnets: [`${s.ipv4}/32`], targetVrf: "cgn-inside" },
  ];

  it("names the matching rule's position and the ingest and target VRFs, and routes in the target VRF", () => {
    const result = trace(g, fromSession(s), compileSteering(rules));
    expect(stepOf(result, "source-vrf")).toEqual({
      stage: "source-vrf",
      verdict: "steer:wholesale->cgn-inside",
      a: 2,
      b: 32,
    });
    expect(stepOf(result, "route-lookup")).toMatchObject({ verdict: "upstream:cgn-inside" });
  });

  it("routes in the ingest VRF when no rule matches", () => {
    const result = trace(g, fromSession(s), compileSteering(rules.slice(0, 1)));
    expect(stepOf(result, "source-vrf")).toEqual({ stage: "source-vrf", verdict: "no-match", a: 0, b: 0 });
    expect(stepOf(result, "route-lookup")).toMatchObject({ verdict: "upstream:wholesale" });
  });

  it("steers every session exactly when a rule covers its address in its VRF", () => {
    const wide = compileSteering([
      { name: "half-wholesale", ingestVrf: "wholesale", sourceSubnets: ["10.128.0.0/23"], targetVrf: "default" },
      { name: "some-cgn", ingestVrf: "cgn-inside", sourceSubnets: ["100.64.2.0/23"], targetVrf: "wholesale" },
    ]);
    // The two rules worked by hand: 10.128.0.0/23 is 10.128.0.x-10.128.1.x, 100.64.2.0/23 is 100.64.2.x-100.64.3.x.
    // (The wholesale sessions on an access port are a LAC's, with their LNS's addresses: the first rule takes none.)
    const targetOf = (s: SessionSummary) => {
      const [a, b, c] = s.ipv4.split(".").map(Number) as [number, number, number];
      if (s.vrf === "wholesale" && a === 10 && b === 128 && c <= 1) return "default";
      if (s.vrf === "cgn-inside" && a === 100 && b === 64 && c >= 2 && c <= 3) return "wholesale";
      return null;
    };
    let steered = 0;
    for (const x of allSessions(g).filter((y) => y.portId !== null)) {
      const expected = targetOf(x);
      const step = stepOf(trace(g, fromSession(x), wide), "source-vrf")!;
      if (expected) steered++;
      expect(step.verdict).toBe(expected ? `steer:${x.vrf}->${expected}` : "no-match");
    }
    expect(steered).toBeGreaterThan(10);
  });

  it("steers a source without a session only by a rule on the global table, and drops it otherwise", () => {
    const stranger = { port: 1, source: "192.0.2.200", destination: "203.0.113.9" };
    expect(trace(g, stranger).steps.slice(-2)).toEqual([
      { stage: "subscriber-lookup", verdict: "no-session", a: 0, b: 0 },
      { stage: "source-vrf", verdict: "drop:unknown-source", a: 0, b: 0 },
    ]);
    const onDefault = compileSteering([
      { name: "lab", ingestVrf: "default", sourceSubnets: ["192.0.2.128/25"], targetVrf: "wholesale" },
    ]);
    expect(stepOf(trace(g, stranger, onDefault), "source-vrf")).toEqual({
      stage: "source-vrf",
      verdict: "steer:default->wholesale",
      a: 1,
      b: 25,
    });
  });
});

describe("pipeline stages", () => {
  const g = gateway(profile(), 74, 1800);

  it("drops a session's address arriving on another VLAN pair at the source check", () => {
    const s = accessSession(g, "default");
    const result = trace(g, fromSession(s, { sVlan: s.svlan === 4094 ? 4093 : s.svlan + 1 }));
    expect(result.steps.at(-1)).toEqual({
      stage: "subscriber-lookup",
      verdict: "drop:source-check",
      a: s.id,
      b: s.portId,
    });
  });

  it("translates a CGN session's traffic upstream, but not when a rule steers it", () => {
    const s = g.sessions.list({ vrf: "cgn-inside", limit: 500 }).items.find((x) => {
      const d = g.sessions.detail(x.id);
      return x.portId !== null && d.ok && d.session.cgn !== null;
    })!;
    const d = g.sessions.detail(s.id);
    if (!d.ok || !d.session.cgn) throw new Error();
    const start = Number(d.session.cgn.portBlocks[0]!.split("-")[0]);
    const nat = stepOf(trace(g, fromSession(s, { protocol: 6, sourcePort: 40_000 })), "cgn");
    expect(nat).toEqual({
      stage: "cgn",
      verdict: `snat:${d.session.cgn.publicIp}`,
      a: start + (40_000 % d.session.cgn.chunkSize),
      b: start,
    });
    const steer = compileSteering([{ name: "r", ingestVrf: "cgn-inside", sourceSubnets: [], targetVrf: "default" }]);
    expect(stepOf(trace(g, fromSession(s), steer), "cgn")).toMatchObject({ verdict: "skip:steered" });
  });

  it("routes to a subscriber of the VRF out of that subscriber's port", () => {
    const [from, to] = g.sessions.list({ vrf: "default", limit: 500 }).items.filter((x) => x.portId !== null);
    const result = trace(g, fromSession(from!, { destination: to!.ipv4 }));
    expect(stepOf(result, "route-lookup")).toEqual({
      stage: "route-lookup",
      verdict: "subscriber:default",
      a: to!.id,
      b: 32,
    });
    expect(stepOf(result, "egress")).toMatchObject({ a: to!.portId });
  });

  it("drops traffic to an unassigned pool address at the subnet's discard route, and to martians", () => {
    const s = accessSession(g, "default");
    const held = new Set(allSessions(g).map((x) => x.ipv4));
    const free = Array.from({ length: 200 }, (_, i) => `198.18.5.${i + 2}`).find((a) => !held.has(a))!;
    expect(trace(g, fromSession(s, { destination: free })).steps.at(-1)).toEqual({
      stage: "route-lookup",
      verdict: "drop:unassigned",
      a: 0,
      b: 23,
    });
    expect(trace(g, fromSession(s, { destination: "239.1.1.1" })).steps.at(-1)).toMatchObject({
      stage: "route-lookup",
      verdict: "drop:martian",
    });
    expect(trace(g, { port: 1, source: "127.0.0.1", destination: "203.0.113.9" }).steps.at(-1)).toMatchObject({
      verdict: "drop:martian-source",
    });
  });

  it("finds an IPv6 source inside a session's delegated prefix", () => {
    const s = allSessions(g).find((x) => {
      const d = g.sessions.detail(x.id);
      return x.portId !== null && d.ok && d.session.addresses.ipv6Pd !== null;
    })!;
    const d = g.sessions.detail(s.id);
    if (!d.ok || !d.session.addresses.ipv6Pd) throw new Error();
    const [base, length] = d.session.addresses.ipv6Pd.prefix.split("/");
    const source = base!.replace(/::$/, "::42");
    const result = trace(g, fromSession(s, { source, destination: "2001:db8:ffff::1" }));
    expect(stepOf(result, "subscriber-lookup")).toEqual({
      stage: "subscriber-lookup",
      verdict: `session:${s.vrf}`,
      a: s.id,
      b: Number(length),
    });
  });

  it("pops an MPLS label and drops a reserved one", () => {
    const s = accessSession(g, "default");
    expect(stepOf(trace(g, fromSession(s, { mplsLabel: 299_776 })), "mpls")).toEqual({
      stage: "mpls",
      verdict: "pop",
      a: 299_776,
      b: 4,
    });
    expect(trace(g, fromSession(s, { mplsLabel: 3 })).steps.at(-1)).toEqual({
      stage: "mpls",
      verdict: "drop:reserved-label",
      a: 3,
      b: 4,
    });
  });

  it("refuses a port the appliance does not have and mixed address families", () => {
    expect(g.inject({ port: 9, source: "198.18.0.20", destination: "203.0.113.9" }, NO_RULES)).toEqual({
      ok: false,
      reason: "unknown-port",
    });
    expect(g.inject({ port: 1, source: "198.18.0.20", destination: "2001:db8::1" }, NO_RULES)).toEqual({
      ok: false,
      reason: "family-mismatch",
    });
    expect(g.inject({ port: 1, source: "banana", destination: "2001:db8::1" }, NO_RULES)).toEqual({
      ok: false,
      reason: "bad-source",
    });
  });
});

describe("frame size", () => {
  it(
    "adds the Ethernet header, 4 bytes per VLAN tag and MPLS label, the IP and L4 " +
      "headers, the payload and the FCS",
    () => {
      expect(frameBytes({ family: 4, tags: 0, labels: 0, protocol: 17, size: 100 })).toBe(14 + 20 + 8 + 100 + 4);
      expect(frameBytes({ family: 4, tags: 2, labels: 1, protocol: 17, size: 100 })).toBe(14 + 12 + 20 + 8 + 100 + 4);
      expect(frameBytes({ family: 6, tags: 1, labels: 0, protocol: 6, size: 1000 })).toBe(14 + 4 + 40 + 20 + 1000 + 4);
      expect(frameBytes({ family: 4, tags: 0, labels: 0, protocol: 47, size: 30 })).toBe(14 + 20 + 30 + 4);
    },
  );

  it("pads to the 64-byte minimum frame", () => {
    expect(frameBytes({ family: 4, tags: 0, labels: 0, protocol: 1, size: 0 })).toBe(64);
  });

  it("is what the trace reports, from the request's tags, label and protocol", () => {
    const g = gateway(profile(), 75, 600);
    const s = accessSession(g, "default");
    expect(trace(g, fromSession(s, { mplsLabel: 16, protocol: 6, size: 200 })).frameBytes).toBe(
      14 + 8 + 4 + 20 + 20 + 200 + 4,
    );
    expect(trace(g, fromSession(s, { sVlan: 0, cVlan: 0, size: 200 })).frameBytes).toBe(14 + 20 + 8 + 200 + 4);
  });
});
