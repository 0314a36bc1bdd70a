/**
 * System: health (anonymous, the natural smoke test), and the operations the
 * spec names without shapes: status, hardware inventory and the interface
 * table. Each is read at one instant from the same state as the other
 * endpoints, so their numbers agree with the session summary, the alarms and
 * the metrics history read at that instant.
 */
import { inWorker } from "../http/route.ts";
import { system, type InterfaceTable } from "../schemas/system.ts";
import { SOFTWARE_VERSION } from "../../durable-objects/core.ts";

/** Health's 503: the appliance's state cannot be read. */
const down = (appliance: string) =>
  Response.json(
    {
      status: "down",
      appliance,
      timeUtc: new Date().toISOString(),
      softwareVersion: SOFTWARE_VERSION,
      uptimeSeconds: null,
      checks: { storage: "failed" },
    },
    { status: 503 },
  );

export const systemRoutes = [
  inWorker(system.health, async (ctx) => {
    try {
      const health = await ctx.port.system.health();
      return {
        status: "ok" as const,
        appliance: ctx.appliance.name,
        timeUtc: new Date().toISOString(),
        softwareVersion: health.softwareVersion,
        uptimeSeconds: health.uptimeSeconds,
        checks: { storage: "ok" as const },
      };
    } catch {
      // An object whose storage would not open, or that cannot even be asked, is down, not an internal error.
      return down(ctx.appliance.name);
    }
  }),
  inWorker(system.interfaces, async (ctx): Promise<InterfaceTable> => {
    const table = await ctx.port.system.interfaces();
    return {
      asOfUtc: table.asOfUtc,
      interfaces: table.interfaces,
      tunnels: table.tunnels.map((c) => ({
        name: `gre-${c.id}`,
        circuitId: c.id,
        vrf: c.vrf,
        operState: c.tunnelState === "up" ? "up" : "down",
        tunnelState: c.tunnelState,
        lastChangeUtc: c.lastChangeUtc,
      })),
    };
  }),
];
