/**
 * System: health (anonymous, the natural smoke test), and the operations the
 * spec names without shapes: status, hardware inventory and the interface
 * table. Each is read at one instant from the same state as the other
 * endpoints, so their numbers agree with the session summary, the alarms and
 * the metrics history read at that instant.
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { Health, InterfaceTable, Inventory, SystemStatus } from "../schemas/system.ts";
import { SOFTWARE_VERSION } from "../../durable-objects/appliance.ts";

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Health's 503: the appliance's state cannot be read. */
const down = (appliance: string) =>
  Response.json({ status: "down", appliance, timeUtc: new Date().toISOString(), softwareVersion: SOFTWARE_VERSION, uptimeSeconds: null, checks: { storage: "failed" } }, { status: 503 });

export const systemRoutes = [
  route({
    method: "GET",
    path: "/api/v1/system/health",
    section: "System",
    summary: "Appliance health; needs no credential",
    description: "200 with status `ok`, or 503 with status `down` when the appliance's state cannot be read.",
    floor: "anonymous",
    fp: true,
    response: { description: "Health", schema: Health },
    // 404: deployed, a hostname no appliance of the fleet answers to (a load
    // balancer's health check pointed at the wrong name must see that).
    errors: [404, 503],
    handle: async (ctx) => {
      try {
        const health = await ctx.appliance.stub.health();
        return { status: "ok" as const, appliance: ctx.appliance.name, timeUtc: new Date().toISOString(), softwareVersion: health.softwareVersion, uptimeSeconds: health.uptimeSeconds, checks: { storage: "ok" as const } };
      } catch {
        return down(ctx.appliance.name);
      }
    },
    // An object that cannot even be asked (its storage would not open) is down too, not an internal error.
    unreachable: (appliance) => down(appliance.name),
  }),
  route({
    method: "GET",
    path: "/api/v1/system/status",
    section: "System",
    summary: "Appliance status: software, uptime, load, sessions, alarms, configuration, licence",
    description:
      "Read at one instant: `sessions.total` equals GET /sessions/summary `total`, `alarms.countBySeverity` equals GET /alarms, `traffic` is the sum of the metrics history's newest port rates, " +
      "`configuration.version` is the active configuration version. CPU and memory utilisation are derived deterministically from that load (see the fields). " +
      "`pendingRestart` lists committed changes to keys that apply at restart (`GET /config/schema` `apply: restart`, e.g. CGN) made since the appliance last started or rebooted for an upgrade.",
    fp: true,
    response: { description: "SystemStatus", schema: SystemStatus },
    handle: async (ctx): Promise<z.infer<typeof SystemStatus>> => {
      const s = await ctx.appliance.stub.systemStatus();
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
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/system/inventory",
    section: "System",
    summary: "Hardware inventory: chassis, line cards with their ports and optics, power supplies, fans, temperatures",
    description:
      "The chassis is the smallest model that holds the profile's data-plane ports (`BNG-2010` 10GbE, `BNG-4100` 4 x 100GbE, `BNG-8100` two 100GbE line cards); a port's speed, optic and line card follow its interface name " +
      "(`xe-` 10GbE SFP+, `et-` 100GbE QSFP28, `ge-` 1GbE SFP; `<fpc>/<pic>/<port>`). Serial numbers and MACs are derived from the appliance name and its fleet-file seed. " +
      "Sensor and optical readings drift deterministically with the simulated clock and follow the load: the same instant gives the same readings.",
    fp: true,
    response: { description: "HardwareInventory", schema: Inventory },
    handle: async (ctx): Promise<z.infer<typeof Inventory>> => ctx.appliance.stub.dataPlane().inventory(),
  }),
  route({
    method: "GET",
    path: "/api/v1/system/interfaces",
    section: "System",
    summary: "Interface table: state, speed, rates, counters and sessions per port, plus GRE tunnels",
    description:
      "One row per data-plane port (the profile's, with the metrics history's `portId` and `label`), then `lo0` and `mgmt0`. Read at one instant: `rxBps`/`txBps` equal the metrics history's newest point " +
      "and `sessions` the session summary's `byPort` count. Byte and packet counters accumulate the same per-step rates, so they only grow while the data plane runs and restart when it boots " +
      "(`countersSinceUtc`); errors and discards are a fixed tiny share of the packets. `tunnels` lists the GRE circuits' tunnel interfaces with their state from GET /gre-circuits/status.",
    fp: true,
    response: { description: "InterfaceTable", schema: InterfaceTable },
    handle: async (ctx): Promise<z.infer<typeof InterfaceTable>> => {
      const table = await ctx.appliance.stub.interfaceTable();
      return {
        asOfUtc: table.asOfUtc,
        interfaces: table.interfaces,
        tunnels: table.tunnels.map((c) => ({ name: `gre-${c.id}`, circuitId: c.id, vrf: c.vrf, operState: c.tunnelState === "up" ? "up" : "down", tunnelState: c.tunnelState, lastChangeUtc: c.lastChangeUtc })),
      };
    },
  }),
];
