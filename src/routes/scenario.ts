/** Scenario control: the twin's own surface (outside `/api/v1`) for scripting faults reproducibly. */
import { implement } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { scenario } from "../schemas/scenario.ts";

export const scenarioRoutes = [
  implement(scenario.state, (ctx) => ctx.appliance.stub.dataPlane().scenarioState()),
  implement(scenario.apply, async (ctx) => unwrap(await ctx.appliance.stub.scenario(ctx.body, actorName(ctx.principal!))).result),
  implement(scenario.run, async (ctx) => unwrap(await ctx.appliance.stub.runScenario(ctx.body, actorName(ctx.principal!))).result),
];
