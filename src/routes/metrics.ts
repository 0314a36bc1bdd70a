/** Metrics: the in-memory history of session counts and port rates, and the Prometheus scrape. */
import { implement } from "../http/route.ts";
import { renderExposition } from "../metrics/exposition.ts";
import { scrapeFamilies } from "../metrics/families.ts";
import { EXPOSITION_CONTENT_TYPE, metrics } from "../schemas/metrics.ts";

export const metricsRoutes = [
  implement(metrics.history, (ctx) => ctx.appliance.stub.dataPlane().metricsHistory(ctx.query.range ?? null)),
  implement(metrics.scrape, async (ctx) => {
    const state = await ctx.appliance.stub.scrape();
    return new Response(renderExposition(scrapeFamilies(state)), {
      headers: { "content-type": EXPOSITION_CONTENT_TYPE, "cache-control": "no-store" },
    });
  }),
];
