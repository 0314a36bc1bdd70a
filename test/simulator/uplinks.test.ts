/**
 * Interfaces a capacity tool can reconcile (issue #52): the core uplinks carry every subscriber's traffic plus
 * transit, so their counters are above the sum of the subscriber-facing ports'; a port's are above the sum of
 * its sessions' (frame headers and control plane: test/simulator/metrics.test.ts works that out by hand).
 */
import { describe, expect, it } from "vitest";
import type { Interface } from "../../src/schemas/system.ts";
import { gateway, profile } from "./helpers.ts";

const EDGE = { appliance: "edge-1", seed: 1001 };
const uplinks = (rows: Interface[]) => rows.filter((r) => r.name.startsWith("uplink"));
const ports = (rows: Interface[]) => rows.filter((r) => r.portId !== null);
const total = (rows: Interface[], key: keyof Interface["counters"]) => rows.reduce((a, r) => a + r.counters[key], 0);

describe("the core uplinks", () => {
  const g = gateway(profile(), 52, 3600);
  const before = g.interfaces(EDGE);
  g.step(1800);
  const after = g.interfaces(EDGE);
  const moved = (pick: (rows: Interface[]) => Interface[], key: keyof Interface["counters"]) =>
    total(pick(after), key) - total(pick(before), key);

  it("carry more than the subscriber ports together, both ways, over half an hour", () => {
    // Upstream: what the ports receive leaves by the uplinks; downstream: what the ports send came in by them.
    expect(moved(uplinks, "txBytes")).toBeGreaterThan(moved(ports, "rxBytes"));
    expect(moved(uplinks, "rxBytes")).toBeGreaterThan(moved(ports, "txBytes"));
    expect(moved(ports, "txBytes")).toBeGreaterThan(0);
  });

  it(
    "carry the subscribers' downstream plus a tenth of it in transit, less the " +
      "access headers the core does not carry",
    () => {
      // By hand: the small profile's traffic.transitShare is 0.1 of the download; a downstream packet averages at
      // most 1,461 bytes (traffic-shape.test.ts) and carries 22-30 bytes of access headers against the core's 14:
      // the ports' bytes are at most (1461 + 30) / 1461 of the IP bytes, the uplinks' at least 1.1 of them.
      const ratio = moved(uplinks, "rxBytes") / moved(ports, "txBytes");
      expect(ratio).toBeGreaterThan(1.1 / ((1461 + 30) / 1461));
    },
  );

  it("share the traffic as ECMP does: near even, never exactly", () => {
    const [a, b] = uplinks(after).map((r, i) => r.counters.rxBytes - uplinks(before)[i]!.counters.rxBytes);
    const share = a! / (a! + b!);
    expect(share).toBeGreaterThan(0.46);
    expect(share).toBeLessThan(0.54);
    expect(share).not.toBe(0.5);
  });

  it("show the rate their counters moved by over the last step, at the uplink's speed and a core MTU", () => {
    const was = uplinks(g.interfaces(EDGE));
    g.step(10);
    for (const [i, row] of uplinks(g.interfaces(EDGE)).entries()) {
      expect(row).toMatchObject({
        type: "ethernet",
        portId: null,
        sessions: null,
        operState: "up",
        speedMbps: 10_000,
        mtu: 9000,
      });
      expect(Math.abs(((row.counters.rxBytes - was[i]!.counters.rxBytes) * 8) / 10 - row.rxBps)).toBeLessThan(2);
      expect(Math.abs(((row.counters.txBytes - was[i]!.counters.txBytes) * 8) / 10 - row.txBps)).toBeLessThan(2);
      expect(row.rxBps).toBeGreaterThan(0);
    }
  });
});
