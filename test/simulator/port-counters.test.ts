/**
 * Interface counters read between steps (issue #26): a real interface's byte counters advance at any read
 * instant, so a scrape that does not fall on the model's 10 s steps still sees an even share of each.
 * Hand-worked: 8,000 b/s is 1,000 B/s, 10,000 bytes a 10 s step; at 2.5 packets a second, 25 a step.
 */
import { describe, expect, it } from "vitest";
import { PortCounters } from "../../simulator/interfaces.ts";

const rates = (bps: number) => Float64Array.of(bps);
/** Per-second packets of a rate of 400-byte packets: 8,000 b/s is 2.5 of them a second. */
const pps = (bps: number) => Float64Array.of(bps / 3200);

describe("interface counters between steps", () => {
  it("move from the previous step's values to the last step's in proportion to the time since it", () => {
    const c = new PortCounters(1);
    c.add(rates(8000), rates(0), pps(8000), pps(0));
    expect(c.of(0, 0).rxBytes).toBe(0);
    expect(c.of(0, 0.25).rxBytes).toBe(2500);
    expect(c.of(0, 1)).toMatchObject({ rxBytes: 10_000, rxPackets: 25 });
    c.add(rates(16_000), rates(0), pps(16_000), pps(0));
    expect(c.of(0, 0).rxBytes).toBe(10_000);
    expect(c.of(0, 0.5)).toMatchObject({ rxBytes: 20_000, rxPackets: 50 });
    expect(c.of(0).rxBytes).toBe(30_000);
  });

  it("never run backwards across a step, however the rate changes", () => {
    const c = new PortCounters(1);
    let last = 0;
    for (const bps of [8000, 80_000, 800, 0, 40_000]) {
      c.add(rates(bps), rates(bps), pps(bps), pps(bps));
      for (const progress of [0, 0.3, 0.7, 1]) {
        const now = c.of(0, progress).rxBytes;
        expect(now).toBeGreaterThanOrEqual(last);
        last = now;
      }
    }
  });

  it("count a frame the appliance sends at once, wherever the read falls", () => {
    const c = new PortCounters(1);
    c.add(rates(0), rates(0), pps(0), pps(0));
    c.addTransmitted(0, 1500);
    expect(c.of(0, 0)).toMatchObject({ txBytes: 1500, txPackets: 1 });
    expect(c.of(0, 1)).toMatchObject({ txBytes: 1500, txPackets: 1 });
  });

  it("restore a snapshot from before the values were kept in pairs as standing at its last step", () => {
    const c = new PortCounters(1);
    c.importState(Float64Array.of(10_000, 20_000, 25, 18));
    expect(c.of(0, 0)).toEqual({ rxBytes: 10_000, txBytes: 20_000, rxPackets: 25, txPackets: 18 });
    const copy = new PortCounters(1);
    c.add(rates(8000), rates(0), pps(8000), pps(0));
    copy.importState(c.exportState());
    expect(copy.of(0, 0.5)).toEqual(c.of(0, 0.5));
  });
  it("restore a snapshot written before the uplinks were counted: its ports go on, the uplinks start at 0", () => {
    // Two ports then: rx bytes, tx bytes, rx packets, tx packets each, after the last step then before it.
    const old = Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4);
    const c = new PortCounters(4);
    c.importState(old, 2);
    expect(c.of(1)).toEqual({ rxBytes: 5, txBytes: 6, rxPackets: 7, txPackets: 8 });
    expect(c.of(1, 0)).toEqual({ rxBytes: 2, txBytes: 3, rxPackets: 3, txPackets: 4 });
    expect(c.of(2)).toEqual({ rxBytes: 0, txBytes: 0, rxPackets: 0, txPackets: 0 });
  });
});
