/**
 * System status, hardware inventory and interface table: each agrees with
 * the endpoints that show the same numbers, read at one instant (the clock is
 * manual, so nothing moves between the reads).
 */
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { admin, advance, get, scenario, send, sum } from "./helpers.ts";
import { call } from "./client.ts";
import type { CgnCommitResult } from "../../src/schemas/cgn-config.ts";
import type { GreStatus } from "../../src/schemas/gre-circuits.ts";
import type { AlarmsResponse } from "../../src/schemas/alarms.ts";
import type { page } from "../../src/schemas/common.ts";
import type { ConfigHistoryEntry } from "../../src/schemas/config.ts";
import type { MetricsHistory as History } from "../../src/schemas/metrics.ts";
import type { SessionSummaryCounts as Summary } from "../../src/schemas/sessions.ts";
import type {
  HardwareInventory as Inventory,
  Health,
  InterfaceTable as Table,
  SystemStatus as Status,
} from "../../src/schemas/system.ts";

type Counters = Table["interfaces"][number]["counters"];

const ports = (inventory: Inventory) => inventory.lineCards.flatMap((c) => c.ports);
const newest = (values: number[]) => values[values.length - 1] ?? 0;

describe("system status", () => {
  it(
    "agrees with the session summary, the alarms, the metrics history and the " + "configuration at one instant",
    async () => {
      await advance(1800);
      await scenario({ action: "fill-pool", pool: "residential-v4", percent: 100 });
      await advance(600);
      const [status, summary, alarms, history, config, health] = await Promise.all([
        get<Status>("/api/v1/system/status"),
        get<Summary>("/api/v1/sessions/summary"),
        get<AlarmsResponse>("/api/v1/alarms"),
        get<History>("/api/v1/metrics/history"),
        get<z.output<ReturnType<typeof page<typeof ConfigHistoryEntry>>>>("/api/v1/config/history?limit=1"),
        get<Health>("/api/v1/system/health"),
      ]);
      expect(summary.total).toBeGreaterThan(1000);
      expect(status.sessions.total).toBe(summary.total);
      expect(status.alarms).toEqual({ count: alarms.count, countBySeverity: alarms.countBySeverity });
      expect(status.alarms.count).toBeGreaterThan(0);
      expect(status.traffic.rxBps).toBe(sum(history.ports.map((p) => newest(p.rxBps))));
      expect(status.traffic.txBps).toBe(sum(history.ports.map((p) => newest(p.txBps))));
      expect(status.configuration.version).toBe(config.items[0]!.version);
      expect(status.licence).toMatchObject({ currentCount: summary.total, bandMax: status.sessions.licensed });
      expect(status).toMatchObject({
        appliance: "edge-1",
        hostname: "edge-1.bng.localhost",
        softwareVersion: health.softwareVersion,
        controlPlane: { state: "running" },
        dataPlane: { forwarding: true, acceptingSessions: true },
        simulation: { profile: "small", seed: 1001 },
        configuration: { pendingRestart: false, pendingRestartVersions: [] },
        upgrade: { state: "idle" },
      });
      expect(health.softwareVersion).toBe("bngfleet 0.1.0");
    },
  );

  it("derives CPU and memory from the load, the same for the same state", async () => {
    const idle = await get<Status>("/api/v1/system/status");
    await advance(1800);
    const busy = await get<Status>("/api/v1/system/status");
    expect(busy.cpu.utilisationPercent).toBeGreaterThan(idle.cpu.utilisationPercent);
    expect(busy.memory.usedBytes).toBeGreaterThan(idle.memory.usedBytes);
    expect(busy.memory.usedBytes).toBeLessThan(busy.memory.totalBytes);
    // The control plane's uptime is wall-clock time; everything else stands still with the simulated clock.
    const again = await get<Status>("/api/v1/system/status");
    expect({ ...again, controlPlane: null }).toEqual({ ...busy, controlPlane: null });
    expect(busy.dataPlane.uptimeSeconds).toBeGreaterThanOrEqual(1800);
  });

  it("reports a restart-only commit as pending until the appliance restarts", async () => {
    // Read before the commit too, as a NOC's status page is: the commit shows on the next read.
    expect((await get<Status>("/api/v1/system/status")).configuration).toMatchObject({
      pendingRestart: false,
      pendingRestartVersions: [],
    });
    const commit = await send("PUT", "/api/v1/cgn/settings", { maxBindings: 5000, maxFlows: 600000 });
    expect(commit.status).toBe(200);
    const { version } = await commit.json<z.output<typeof CgnCommitResult>>();
    expect((await get<Status>("/api/v1/system/status")).configuration).toMatchObject({
      version,
      pendingRestart: true,
      pendingRestartVersions: [version],
    });
    await abortAllDurableObjects();
    expect((await get<Status>("/api/v1/system/status")).configuration).toMatchObject({
      version,
      pendingRestart: false,
      pendingRestartVersions: [],
    });
  });

  it("is readable on a peer through the fleet proxy", async () => {
    const response = await call("/api/v1/fleet/edge-2/system/status", { headers: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      appliance: "edge-2",
      hostname: "edge-2.bng.localhost",
      simulation: { seed: 1002 },
    });
  });
});

describe("hardware inventory", () => {
  it("lists the profile's ports as the metrics history and the session summary name them", async () => {
    await advance(60);
    const [inventory, history, summary] = await Promise.all([
      get<Inventory>("/api/v1/system/inventory"),
      get<History>("/api/v1/metrics/history"),
      get<Summary>("/api/v1/sessions/summary"),
    ]);
    const listed = ports(inventory).map((p) => ({ portId: p.portId, label: p.label }));
    expect(listed).toEqual([
      { portId: 1, label: "xe-0/0/0 OLT-north" },
      { portId: 2, label: "xe-0/0/1 OLT-south" },
    ]);
    expect(history.ports.map((p) => ({ portId: p.portId, label: p.label }))).toEqual(listed);
    expect(summary.byPort.map((p) => ({ portId: p.portId, label: p.label }))).toEqual(listed);
    expect(inventory.chassis.model).toBe("BNG-2010");
    expect(inventory.psus.length).toBeGreaterThan(0);
    expect(inventory.fans.length).toBeGreaterThan(0);
    expect(inventory.temperatures.map((t) => t.sensor)).toEqual(["inlet", "outlet", "cpu", "npu"]);
  });

  it("keeps its serial numbers across a restart and a reseed, and differs between appliances", async () => {
    const first = await get<Inventory>("/api/v1/system/inventory");
    await scenario({ action: "reseed", seed: 42 });
    await abortAllDurableObjects();
    const later = await get<Inventory>("/api/v1/system/inventory");
    expect(later.chassis).toEqual(first.chassis);
    expect(ports(later).map((p) => p.optic.serialNumber)).toEqual(ports(first).map((p) => p.optic.serialNumber));
    const other = await get<Inventory>("/api/v1/system/inventory", "edge-2");
    expect(other.chassis.serialNumber).not.toBe(first.chassis.serialNumber);
    expect(other.chassis.baseMac).not.toBe(first.chassis.baseMac);
  });

  it("shows optical readings that drift with the simulated clock", async () => {
    const before = ports(await get<Inventory>("/api/v1/system/inventory")).map((p) => p.optic.dom);
    expect(ports(await get<Inventory>("/api/v1/system/inventory")).map((p) => p.optic.dom)).toEqual(before);
    await advance(3600);
    const after = ports(await get<Inventory>("/api/v1/system/inventory")).map((p) => p.optic.dom);
    expect(after).not.toEqual(before);
    for (const [i, dom] of after.entries())
      expect(Math.abs(dom.lanes[0]!.rxPowerDbm - before[i]!.lanes[0]!.rxPowerDbm)).toBeLessThan(1.5);
  });
});

describe("interface table", () => {
  it(
    "shows each port's rates as the metrics history's newest point and its sessions " + "as the summary's byPort",
    async () => {
      await advance(1200);
      await scenario({ action: "disconnect-sessions", share: 0.3, filter: { port: 1 } });
      await advance(10);
      const [table, history, summary] = await Promise.all([
        get<Table>("/api/v1/system/interfaces"),
        get<History>("/api/v1/metrics/history"),
        get<Summary>("/api/v1/sessions/summary"),
      ]);
      const rows = table.interfaces.filter((r) => r.portId !== null);
      expect(rows.map((r) => r.label)).toEqual(history.ports.map((p) => p.label));
      for (const row of rows) {
        const port = history.ports.find((p) => p.portId === row.portId)!;
        expect(row.rxBps, row.name).toBe(newest(port.rxBps));
        expect(row.txBps, row.name).toBe(newest(port.txBps));
        expect(row.rxBps).toBeGreaterThan(0);
        expect(row.sessions, row.name).toBe(summary.byPort.find((p) => p.portId === row.portId)!.count);
        expect(row.operState).toBe("up");
      }
      expect(table.interfaces.map((r) => r.name)).toEqual([
        "xe-0/0/0",
        "xe-0/0/1",
        "uplink0",
        "uplink1",
        "lo0",
        "mgmt0",
      ]);
      expect(new Set(table.interfaces.map((r) => r.mac).filter(Boolean)).size).toBe(5);
    },
  );

  it("has counters that only grow", async () => {
    await advance(300);
    const before = (await get<Table>("/api/v1/system/interfaces")).interfaces;
    await advance(600);
    const after = (await get<Table>("/api/v1/system/interfaces")).interfaces;
    for (const [i, row] of after.entries()) {
      for (const key of Object.keys(row.counters) as (keyof Counters)[])
        expect(row.counters[key], `${row.name} ${key}`).toBeGreaterThanOrEqual(before[i]!.counters[key]);
    }
    expect(after[0]!.counters.rxBytes).toBeGreaterThan(before[0]!.counters.rxBytes);
    expect(after[0]!.counters.txPackets).toBeGreaterThan(before[0]!.counters.txPackets);
  });

  it("lists a GRE circuit's tunnel with its state from the circuit status", async () => {
    expect((await send("PUT", "/api/v1/gre-circuits/listeners/gw1", { localAddress: "192.0.2.10" })).status).toBe(200);
    const circuit = {
      id: "acme-1",
      listenerId: "gw1",
      vrf: "wholesale",
      remote: "203.0.113.7",
      localTunnelAddress: "10.255.0.1/30",
      remoteTunnelAddress: "10.255.0.2/30",
    };
    expect((await send("POST", "/api/v1/gre-circuits", circuit)).status).toBe(200);
    const check = async () => {
      const [table, status] = await Promise.all([
        get<Table>("/api/v1/system/interfaces"),
        get<z.output<typeof GreStatus>>("/api/v1/gre-circuits/status"),
      ]);
      const { tunnelState, lastChangeUtc } = status.circuits[0]!;
      expect(table.tunnels).toEqual([
        {
          name: "gre-acme-1",
          circuitId: "acme-1",
          vrf: "wholesale",
          operState: tunnelState === "up" ? "up" : "down",
          tunnelState,
          lastChangeUtc,
        },
      ]);
      return tunnelState;
    };
    expect(await check()).toBe("provisioning");
    await advance(120);
    await check();
  });
});
