/** Metrics: the history the model keeps, and the Prometheus scrape gathered at one instant. */
import { metrics } from "../../src/schemas/metrics.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { serves } from "./serves.ts";

export function metricsPorts(core: Pick<ApplianceCore, "dataPlane" | "scrape">) {
  return {
    history: serves(metrics.history, (_, { query }) => core.dataPlane().model.metrics.history(query.range ?? null)),
    scrape: () => core.scrape(),
  } satisfies PortsOf<"metrics">;
}
