/** A traced frame in words, against traces written as the operation's table defines them. */
import { describe, expect, it } from "vitest";
import { stepWords, traceHeadline } from "../../ui/pages/trace-words.ts";
import type { InjectResult } from "../../src/schemas/diagnostics.ts";

const port = (id: number) => ({ 1: "xe-0/0/0 OLT-north", 2: "xe-0/0/1 OLT-south" })[id] ?? `port ${id}`;
const step = (stage: InjectResult["steps"][number]["stage"], verdict: string, a: number, b: number) => ({
  stage,
  verdict,
  a,
  b,
});

describe("a traced frame in words", () => {
  it("reads each stage's two numbers as what they are, never as a bare pair", () => {
    expect(stepWords(step("ingress-port", "accept", 1, 118), port)).toBe(
      "entered on xe-0/0/0 OLT-north, a 118-byte frame.",
    );
    expect(stepWords(step("vlan-classify", "double-tagged", 100, 1), port)).toBe("S-VLAN 100, C-VLAN 1.");
    expect(stepWords(step("subscriber-lookup", "session:cgn-inside", 1993, 32), port)).toBe(
      "from session 1993, the /32 it holds, in VRF cgn-inside.",
    );
    expect(stepWords(step("source-vrf", "steer:default->wholesale", 2, 24), port)).toBe(
      "rule 2 steers it from VRF default into VRF wholesale.",
    );
    expect(stepWords(step("route-lookup", "upstream:default", 0, 0), port)).toBe(
      "up the default route toward the core, in VRF default.",
    );
    expect(stepWords(step("cgn", "snat:192.0.2.34", 8200, 8192), port)).toBe(
      "source translated to 192.0.2.34 port 8200, in the block from 8192.",
    );
    expect(stepWords(step("egress", "drop:dry-run", 2, 118), port)).toBe(
      "would leave by xe-0/0/1 OLT-south; a dry run, so it was not sent.",
    );
    expect(stepWords(step("egress", "drop:dry-run", -1, 118), port)).toBe(
      "would leave by the core uplink (or the session's L2TP tunnel); a dry run, so it was not sent.",
    );
  });

  it("headlines a dry run as what would happen, not as a drop", () => {
    const trace = {
      frameBytes: 118,
      emitted: false,
      steps: [step("ingress-port", "accept", 1, 118), step("egress", "drop:dry-run", 2, 118)],
    };
    expect(traceHeadline(trace, port)).toEqual({
      text: "The 118-byte frame would be forwarded out of xe-0/0/1 OLT-south. Nothing was sent: a dry run.",
      tone: "neutral",
    });
  });

  it("headlines a real drop in red, with where and why", () => {
    const trace = {
      frameBytes: 64,
      emitted: false,
      steps: [step("ingress-port", "accept", 1, 64), step("route-lookup", "drop:unassigned", 0, 20)],
    };
    expect(traceHeadline(trace, port)).toEqual({
      text: "The 64-byte frame is dropped at route: a pool address no session holds (its discard route).",
      tone: "bad",
    });
  });

  it("headlines a frame sent", () => {
    const trace = { frameBytes: 118, emitted: true, steps: [step("egress", "emitted", 1, 118)] };
    expect(traceHeadline(trace, port)).toEqual({
      text: "The 118-byte frame was sent out of xe-0/0/0 OLT-north.",
      tone: "good",
    });
  });
});
