import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { bearer, tokenWithRole } from "./client.ts";
import { admin, advance, get, send } from "./helpers.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { InjectResult as Trace, PingResult as Ping } from "../../src/schemas/diagnostics.ts";
import type { LogTail as Tail } from "../../src/schemas/logs.ts";
import type { SessionDetail, SessionList, SessionSummary as Session } from "../../src/schemas/sessions.ts";

type Problem = z.output<typeof ProblemDetails>;

const inject = (body: unknown, headers = admin) => send("POST", "/api/v1/diagnostics/inject", body, headers);
const ping = (body: unknown, headers = admin) => send("POST", "/api/v1/diagnostics/ping", body, headers);
const traced = async (body: unknown): Promise<Trace> => {
  const response = await inject(body);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<Trace>();
};
const stepOf = (t: Trace, stage: string) => t.steps.find((s) => s.stage === stage);

/** A session on an access port in a VRF, and the frame it would send upstream from its own line. */
async function lineOf(vrf: string): Promise<{ session: Session; frame: Record<string, unknown> }> {
  const { items } = await get<SessionList>(`/api/v1/sessions?vrf=${vrf}&limit=100`);
  const session = items.find((s) => s.portId !== null)!;
  return {
    session,
    frame: {
      port: session.portId,
      source: session.ipv4,
      destination: "203.0.113.10",
      sVlan: session.svlan,
      cVlan: session.vlan,
    },
  };
}

describe("diagnostics inject", () => {
  it("is a dry run by default, dropped at the egress staging point", async () => {
    await advance(600);
    const { session, frame } = await lineOf("default");
    const trace = await traced(frame);
    expect(trace).toMatchObject({ emitted: false, dryRun: true });
    expect(trace.steps[0]).toEqual({
      stage: "ingress-port",
      verdict: "accept",
      a: session.portId,
      b: trace.frameBytes,
    });
    expect(stepOf(trace, "subscriber-lookup")).toEqual({
      stage: "subscriber-lookup",
      verdict: "session:default",
      a: session.id,
      b: 32,
    });
    expect(trace.steps.at(-1)).toMatchObject({ stage: "egress", verdict: "drop:dry-run" });
    expect(await traced(frame)).toEqual(trace);
  });

  it("honours a source-VRF rule at once, and stops steering when the rule is deleted", async () => {
    await advance(600);
    const { session, frame } = await lineOf("wholesale");
    expect(stepOf(await traced(frame), "source-vrf")).toMatchObject({ verdict: "no-match", a: 0 });

    const created = await send("POST", "/api/v1/source-vrf-rules", {
      name: "partner-a",
      ingestVrf: "wholesale",
      sourceSubnets: [`${session.ipv4}/32`],
      targetVrf: "cgn-inside",
    });
    expect(created.status).toBe(200);
    const steered = await traced(frame);
    expect(stepOf(steered, "source-vrf")).toEqual({
      stage: "source-vrf",
      verdict: "steer:wholesale->cgn-inside",
      a: 1,
      b: 32,
    });
    expect(stepOf(steered, "route-lookup")).toMatchObject({ verdict: "upstream:cgn-inside" });
    expect((await get<SessionDetail>(`/api/v1/sessions/${session.id}`)).steering).toEqual({
      rule: "partner-a",
      targetVrf: "cgn-inside",
    });

    expect((await send("DELETE", "/api/v1/source-vrf-rules/partner-a")).status).toBe(200);
    const after = await traced(frame);
    expect(stepOf(after, "source-vrf")).toMatchObject({ verdict: "no-match" });
    expect(stepOf(after, "route-lookup")).toMatchObject({ verdict: "upstream:wholesale" });
    expect((await get<SessionDetail>(`/api/v1/sessions/${session.id}`)).steering).toBeNull();
  });

  it("agrees with the session detail's steering", async () => {
    await advance(600);
    expect(
      (
        await send("POST", "/api/v1/source-vrf-rules", {
          name: "low-half",
          ingestVrf: "wholesale",
          sourceSubnets: ["10.128.0.0/23"],
          targetVrf: "default",
        })
      ).status,
    ).toBe(200);
    const { items } = await get<SessionList>("/api/v1/sessions?vrf=wholesale&limit=40");
    const onPorts = items.filter((s) => s.portId !== null);
    expect(onPorts.length).toBeGreaterThan(3);
    for (const s of onPorts) {
      const { steering } = await get<SessionDetail>(`/api/v1/sessions/${s.id}`);
      const step = stepOf(
        await traced({ port: s.portId, source: s.ipv4, destination: "203.0.113.10", sVlan: s.svlan, cVlan: s.vlan }),
        "source-vrf",
      )!;
      expect(step.verdict).toBe(steering ? `steer:wholesale->${steering.targetVrf}` : "no-match");
    }
  });

  it("transmits with emit, audited in the log ring with the actor", async () => {
    await advance(600);
    const { frame } = await lineOf("default");
    const operator = await tokenWithRole("operator", "noc-inject");
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    const response = await inject({ ...frame, emit: true }, bearer(operator));
    expect(response.status).toBe(200);
    const trace = await response.json<Trace>();
    expect(trace).toMatchObject({ emitted: true, dryRun: false });
    expect(trace.steps.at(-1)).toMatchObject({ stage: "egress", verdict: "emitted" });
    const entries = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries;
    expect(entries.find((e) => e.msgId === "audit.diagnostics.inject")!.fields).toMatchObject({
      port: frame.port,
      source: frame.source,
      frameBytes: trace.frameBytes,
      emitted: true,
      actor: "token:noc-inject",
    });
  });

  it("counts VLAN tags and the MPLS label in the frame size", async () => {
    await advance(600);
    const { frame } = await lineOf("default");
    expect((await traced({ ...frame, protocol: 17, size: 100 })).frameBytes).toBe(14 + 4 + 4 + 20 + 8 + 100 + 4);
    const labelled = await traced({ ...frame, mplsLabel: 100_000, protocol: 6, size: 100 });
    expect(labelled.frameBytes).toBe(14 + 4 + 4 + 4 + 20 + 20 + 100 + 4);
    expect(stepOf(labelled, "mpls")).toEqual({ stage: "mpls", verdict: "pop", a: 100_000, b: 4 });
  });

  it("answers a dropped frame with 200 and the stage that dropped it", async () => {
    const trace = await traced({ port: 1, source: "192.0.2.99", destination: "203.0.113.10" });
    expect(trace.steps.at(-1)).toEqual({ stage: "source-vrf", verdict: "drop:unknown-source", a: 0, b: 0 });
  });

  it("refuses bad input with 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ port: 99, source: "192.0.2.1", destination: "203.0.113.10" }, "#/port"],
      [{ port: -1, source: "192.0.2.1", destination: "203.0.113.10" }, "#/port"],
      [{ port: 1, source: "not-an-ip", destination: "203.0.113.10" }, "#/source"],
      [{ port: 1, source: "192.0.2.1", destination: "2001:db8::1" }, "#/destination"],
      [{ port: 1, source: "192.0.2.1", destination: "203.0.113.10", sVlan: 4096 }, "#/sVlan"],
      [{ port: 1, source: "192.0.2.1", destination: "203.0.113.10", mplsLabel: 2 ** 20 }, "#/mplsLabel"],
    ];
    for (const [body, pointer] of cases) {
      const response = await inject(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json<Problem>()).errors!.map((e) => e.pointer)).toContain(pointer);
    }
  });
});

describe("diagnostics ping", () => {
  it("yields would-fragment with dontFragment over the path MTU, as a 200 result", async () => {
    const response = await ping({ destination: "203.0.113.10", size: 1473, dontFragment: true, count: 3 });
    expect(response.status).toBe(200);
    const result = await response.json<Ping>();
    expect(result).toMatchObject({ pathMtu: 1500, packetBytes: 1501, sent: 3, received: 0 });
    expect(result.replies.map((r) => r.result)).toEqual(["would-fragment", "would-fragment", "would-fragment"]);
  });

  it("is deterministic for the same seed and clock", async () => {
    await advance(600);
    const body = { destination: "198.51.100.20", count: 10 };
    const first = await (await ping(body)).json<Ping>();
    expect(await (await ping(body)).json<Ping>()).toEqual(first);
    expect(first.replies).toHaveLength(10);
  });

  it("reaches a subscriber inside its VRF, defaults to five probes and clamps the count", async () => {
    await advance(600);
    // An LNS-terminated session: the LNS gave it its address and routes to it (a LAC's is its LNS's to route).
    const session = (await get<SessionList>("/api/v1/sessions?vrf=wholesale&encap=l2tp&limit=1")).items[0]!;
    const result = await (await ping({ destination: session.ipv4, vrf: "WHOLESALE" })).json<Ping & { vrf: string }>();
    expect(result).toMatchObject({ vrf: "wholesale", route: "subscriber", sessionId: session.id, sent: 5 });
    expect((await (await ping({ destination: session.ipv4, vrf: "wholesale", count: 1000 })).json<Ping>()).sent).toBe(
      100,
    );
  });

  it("answers 404 for an unknown VRF and 400 for a destination that is not an address", async () => {
    expect((await ping({ destination: "203.0.113.10", vrf: "nowhere" })).status).toBe(404);
    const bad = await ping({ destination: "example.com" });
    expect(bad.status).toBe(400);
    expect((await bad.json<Problem>()).errors!.map((e) => e.pointer)).toContain("#/destination");
  });
});

describe("authorization", () => {
  it("refuses read-only tokens on both operations and admits operators", async () => {
    const viewer = bearer(await tokenWithRole("read-only"));
    const operator = bearer(await tokenWithRole("operator"));
    const frame = { port: 1, source: "192.0.2.99", destination: "203.0.113.10" };
    expect((await inject(frame, viewer)).status).toBe(403);
    expect((await ping({ destination: "203.0.113.10" }, viewer)).status).toBe(403);
    expect((await inject(frame, operator)).status).toBe(200);
    expect((await ping({ destination: "203.0.113.10" }, operator)).status).toBe(200);
  });
});
