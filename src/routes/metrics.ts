/** Metrics: the in-memory history of session counts and port rates, and the Prometheus scrape. */
import { inWorker } from "../http/route.ts";
import { renderExposition } from "../metrics/exposition.ts";
import { scrapeFamilies } from "../metrics/families.ts";
import { EXPOSITION_CONTENT_TYPE, metrics } from "../schemas/metrics.ts";

export const metricsRoutes = [
  inWorker(metrics.scrape, async (ctx) => {
    // Rendered here, in the stateless Worker: the object only reads its state.
    const state = await ctx.port.metrics.scrape();
    return new Response(renderExposition(scrapeFamilies(state)), {
      headers: { "content-type": EXPOSITION_CONTENT_TYPE, "cache-control": "no-store" },
    });
  }),
];
