/**
 * System: health (anonymous, the natural smoke test), and the operations the
 * spec names without shapes: status, hardware inventory and the interface
 * table. Each is read at one instant from the same state as the other
 * endpoints, so their numbers agree with the session summary, the alarms and
 * the metrics history read at that instant.
 */
import { inWorker } from "../http/route.ts";
import { system, type HardwareInventory, type InterfaceTable, type SystemStatus } from "../schemas/system.ts";
import { SOFTWARE_VERSION } from "../../durable-objects/appliance.ts";

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Health's 503: the appliance's state cannot be read. */
const down = (appliance: string) =>
  Response.json({ status: "down", appliance, timeUtc: new Date().toISOString(), softwareVersion: SOFTWARE_VERSION, uptimeSeconds: null, checks: { storage: "failed" } }, { status: 503 });

export const systemRoutes = [
  inWorker(system.health, async (ctx) => {
    try {
      const health = await ctx.port.system.health();
      return { status: "ok" as const, appliance: ctx.appliance.name, timeUtc: new Date().toISOString(), softwareVersion: health.softwareVersion, uptimeSeconds: health.uptimeSeconds, checks: { storage: "ok" as const } };
    } catch {
      // An object whose storage would not open, or that cannot even be asked, is down, not an internal error.
      return down(ctx.appliance.name);
    }
  }),
  inWorker(system.status, async (ctx): Promise<SystemStatus> => {
    const s = await ctx.port.system.status();
    const d = s.dataPlane;
    const down = d.upgradePhase === "rebooting";
    return {
      appliance: d.appliance,
      hostname: s.hostname,
      softwareVersion: s.softwareVersion,
      asOfUtc: new Date(d.nowMs).toISOString(),
      controlPlane: { state: d.upgradePhase === "draining" ? "draining" : down ? "rebooting" : "running", ...s.controlPlane },
      dataPlane: {
        forwarding: d.forwarding,
        acceptingSessions: d.upgradePhase !== "draining" && !down,
        bootedUtc: new Date(d.bootedMs).toISOString(),
        uptimeSeconds: Math.max(0, Math.floor((d.nowMs - d.bootedMs) / 1000)),
      },
      simulation: { profile: d.profile, seed: d.seed, simulatedTimeUtc: new Date(d.nowMs).toISOString() },
      sessions: {
        total: d.sessions,
        licensed: d.licence.bandMax,
        utilisationPercent: round1((d.sessions / d.licence.bandMax) * 100),
        setupsSinceBoot: d.sessionEvents.setups,
        teardownsSinceBoot: d.sessionEvents.teardowns,
        setupFailuresSinceBoot: d.sessionEvents.failures,
      },
      traffic: { rxBps: d.ports.reduce((n, p) => n + p.rxBps, 0), txBps: d.ports.reduce((n, p) => n + p.txBps, 0) },
      cpu: { cores: d.load.cpuCores, utilisationPercent: d.load.cpuPercent },
      memory: { totalBytes: d.load.memoryTotalBytes, usedBytes: d.load.memoryUsedBytes, utilisationPercent: d.load.memoryPercent },
      alarms: d.alarms,
      configuration: { ...s.configuration, pendingRestart: s.configuration.pendingRestartVersions.length > 0 },
      licence: { state: s.licenceState, meter: d.licence.meter, bandMax: d.licence.bandMax, currentCount: d.licence.currentCount, peakCount: d.licence.peakCount },
      upgrade: { state: s.upgradeState },
    };
  }),
  inWorker(system.inventory, async (ctx): Promise<HardwareInventory> => ctx.port.system.inventory()),
  inWorker(system.interfaces, async (ctx): Promise<InterfaceTable> => {
    const table = await ctx.port.system.interfaces();
    return {
      asOfUtc: table.asOfUtc,
      interfaces: table.interfaces,
      tunnels: table.tunnels.map((c) => ({ name: `gre-${c.id}`, circuitId: c.id, vrf: c.vrf, operState: c.tunnelState === "up" ? "up" : "down", tunnelState: c.tunnelState, lastChangeUtc: c.lastChangeUtc })),
    };
  }),
];
