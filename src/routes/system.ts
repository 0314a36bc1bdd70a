/** System: health (anonymous, the natural smoke test). */
import { z } from "zod";
import { route } from "../http/route.ts";
import { SOFTWARE_VERSION } from "../../durable-objects/appliance.ts";

const Health = z
  .object({
    status: z.enum(["ok", "down"]).meta({ description: "`ok` when the appliance answers and its storage reads" }),
    appliance: z.string(),
    softwareVersion: z.string(),
    uptimeSeconds: z.int().nullable().meta({ description: "since the appliance's control plane (its Durable Object) started" }),
    timeUtc: z.iso.datetime(),
    checks: z.object({ storage: z.enum(["ok", "failed"]) }),
  })
  .meta({ id: "Health" });

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
    errors: [503],
    handle: async (ctx) => {
      const base = { appliance: ctx.appliance.name, softwareVersion: SOFTWARE_VERSION, timeUtc: new Date().toISOString() };
      try {
        const health = await ctx.appliance.stub.health();
        return { status: "ok", ...base, uptimeSeconds: health.uptimeSeconds, checks: { storage: "ok" } };
      } catch {
        return Response.json({ status: "down", ...base, uptimeSeconds: null, checks: { storage: "failed" } }, { status: 503 });
      }
    },
  }),
];
