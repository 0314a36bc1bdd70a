/** Scenario control: the twin's own surface (outside `/api/v1`) for scripting faults reproducibly. */
import { inWorker } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { scenario } from "../schemas/scenario.ts";

export const scenarioRoutes = [
  inWorker(scenario.state, (ctx) => ctx.port.scenario.state()),
  inWorker(scenario.faults, (ctx) => ctx.port.scenario.faults()),
  inWorker(scenario.apply, async (ctx) => unwrap(await ctx.port.scenario.apply(ctx.body)).result),
  inWorker(scenario.run, async (ctx) => unwrap(await ctx.port.scenario.run(ctx.body)).result),
];
