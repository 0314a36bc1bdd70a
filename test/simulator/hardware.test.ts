import { describe, expect, it } from "vitest";
import { chassisOf, portHardware } from "../../simulator/index.ts";
import { serialNumber } from "../../simulator/hardware.ts";
import { gateway, profile } from "./helpers.ts";

const EDGE = { appliance: "edge-1", seed: 1001 };
const optics = (inventory: ReturnType<ReturnType<typeof gateway>["inventory"]>) =>
  inventory.lineCards.flatMap((c) => c.ports.map((p) => p.optic));

describe("ports and chassis", () => {
  it("reads speed, optic and line card from the port's interface name", () => {
    expect(portHardware({ portId: 7, label: "et-0/1/2 OLT-7" })).toMatchObject({
      name: "et-0/1/2",
      description: "OLT-7",
      speedMbps: 100_000,
      formFactor: "QSFP28",
      lanes: 4,
      lineCard: "0/1",
    });
    expect(portHardware({ portId: 1, label: "xe-0/0/0 OLT-north" })).toMatchObject({
      name: "xe-0/0/0",
      speedMbps: 10_000,
      formFactor: "SFP+",
      lanes: 1,
      lineCard: "0/0",
    });
    expect(portHardware({ portId: 2, label: "uplink" })).toMatchObject({
      name: "uplink",
      description: "",
      speedMbps: 10_000,
      lineCard: "0/0",
    });
  });

  it("installs the smallest chassis that holds the profile's ports", () => {
    expect(chassisOf(profile("small")).model).toBe("BNG-2010");
    expect(chassisOf(profile("default")).model).toBe("BNG-4100");
    expect(chassisOf(profile("large")).model).toBe("BNG-8100");
  });
});

describe("the inventory", () => {
  it("lists the profile's ports, each with an optic", () => {
    const p = profile("large");
    const inventory = gateway(p, 1, 60).inventory(EDGE);
    expect(inventory.lineCards.map((c) => c.slot)).toEqual(["0/0", "0/1"]);
    expect(inventory.lineCards.flatMap((c) => c.ports.map((x) => [x.portId, x.label]))).toEqual(
      p.ports.map((x) => [x.portId, x.label]),
    );
    for (const optic of optics(inventory)) expect(optic.dom.lanes).toHaveLength(4);
  });

  it("derives serial numbers and MACs from the appliance name and seed, not from the simulation", () => {
    const a = gateway(profile(), 1, 60).inventory(EDGE);
    const b = gateway(profile(), 2, 600).inventory(EDGE);
    const c = gateway(profile(), 1, 60).inventory({ appliance: "edge-2", seed: 1001 });
    expect(b.chassis).toEqual(a.chassis);
    expect(optics(b).map((o) => o.serialNumber)).toEqual(optics(a).map((o) => o.serialNumber));
    expect(c.chassis.serialNumber).not.toBe(a.chassis.serialNumber);
    expect(a.chassis.serialNumber).toMatch(/^BF[0-9A-Y]{10}$/);
    expect(a.chassis.baseMac).toMatch(/^02(:[0-9a-f]{2}){5}$/);
    expect(serialNumber({ appliance: "edge-1", seed: 1002 }, "chassis", "BF", 10)).not.toBe(a.chassis.serialNumber);
  });

  it("lets optical readings drift with the simulated clock, within their thresholds", () => {
    const g = gateway(profile(), 1, 60);
    const first = optics(g.inventory(EDGE));
    expect(optics(g.inventory(EDGE))).toEqual(first);
    g.step(3600);
    const later = optics(g.inventory(EDGE));
    expect(later.map((o) => o.dom)).not.toEqual(first.map((o) => o.dom));
    for (const { dom } of [...first, ...later]) {
      expect(dom.temperatureCelsius).toBeGreaterThan(dom.thresholds.temperatureCelsius.lowWarning);
      expect(dom.temperatureCelsius).toBeLessThan(dom.thresholds.temperatureCelsius.highWarning);
      for (const lane of dom.lanes) {
        expect(lane.txPowerDbm).toBeGreaterThan(dom.thresholds.txPowerDbm.lowWarning);
        expect(lane.txPowerDbm).toBeLessThan(dom.thresholds.txPowerDbm.highWarning);
        expect(lane.rxPowerDbm).toBeGreaterThan(dom.thresholds.rxPowerDbm.lowWarning);
        expect(lane.rxPowerDbm).toBeLessThan(lane.txPowerDbm);
      }
    }
  });

  it("runs warmer and busier with load", () => {
    const idle = gateway(profile(), 1, 10);
    const busy = gateway(profile(), 1, 1800);
    expect(busy.systemLoad().cpuPercent).toBeGreaterThan(idle.systemLoad().cpuPercent);
    expect(busy.systemLoad().memoryUsedBytes).toBeGreaterThan(idle.systemLoad().memoryUsedBytes);
    const npu = (g: typeof idle) => g.inventory(EDGE).temperatures.find((t) => t.sensor === "npu")!.celsius;
    expect(npu(busy)).toBeGreaterThanOrEqual(npu(idle) - 1);
  });
});

describe("the interface table", () => {
  it("has one row per profile port, then the two core uplinks, the loopback and the management port", () => {
    const p = profile("default");
    const rows = gateway(p, 3, 600).interfaces(EDGE);
    expect(rows.map((r) => r.label)).toEqual([...p.ports.map((x) => x.label), null, null, null, null]);
    // The uplinks are named as the seeded IGP configuration names its links to the core (src/config/seed.ts).
    expect(rows.map((r) => r.name).slice(-4)).toEqual(["uplink0", "uplink1", "lo0", "mgmt0"]);
    expect(new Set(rows.map((r) => r.mac)).size).toBe(rows.length);
  });

  it("shows the metrics history's newest rates and the session summary's per-port counts", () => {
    const g = gateway(profile(), 3, 600);
    const history = g.metrics.history();
    const summary = g.sessions.summary();
    for (const row of g.interfaces(EDGE).filter((r) => r.portId !== null)) {
      const port = history.ports.find((x) => x.portId === row.portId)!;
      expect(row.rxBps).toBe(port.rxBps.at(-1));
      expect(row.txBps).toBe(port.txBps.at(-1));
      expect(row.sessions).toBe(summary.byPort.find((x) => x.portId === row.portId)!.count);
    }
  });

  it("counts bytes and packets that only grow, at the rate shown", () => {
    const g = gateway(profile(), 3, 600);
    let before = g.interfaces(EDGE);
    for (let i = 0; i < 30; i++) {
      g.step(10);
      const after = g.interfaces(EDGE);
      after.forEach((row, k) => {
        const was = before[k]!;
        for (const key of Object.keys(row.counters) as (keyof typeof row.counters)[])
          expect(row.counters[key]).toBeGreaterThanOrEqual(was.counters[key]);
        if (row.portId !== null)
          expect(Math.abs(((row.counters.rxBytes - was.counters.rxBytes) * 8) / 10 - row.rxBps)).toBeLessThan(2);
      });
      before = after;
    }
    expect(before[0]!.counters.rxPackets).toBeGreaterThan(0);
  });
});
