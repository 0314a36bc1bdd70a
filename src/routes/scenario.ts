/**
 * Scenario control: the twin's own surface (outside `/api/v1`) for scripting
 * faults reproducibly. The action schema is the simulator's, so the body is
 * validated where the actions are defined.
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { unwrap } from "../schemas/outcome.ts";
import { actorName } from "../schemas/principal.ts";
import { ScenarioAction } from "../../simulator/index.ts";

const ScenarioState = z
  .object({
    appliance: z.string(),
    profile: z.string(),
    seed: z.int(),
    simulatedTimeUtc: z.string(),
    clockLeadSeconds: z.int().meta({ description: "how far simulated time runs ahead of the wall clock after advance-clock actions" }),
    sessions: z.int(),
    lastSeq: z.int(),
  })
  .meta({ id: "ScenarioState" });

export const scenarioRoutes = [
  route({
    method: "GET",
    path: "/twin/v1/scenario",
    section: "Scenario control",
    summary: "The simulation's clock, seed, profile and size",
    floor: "super-user",
    response: { description: "ScenarioState", schema: ScenarioState },
    handle: (ctx) => ctx.appliance.stub.dataPlane().scenarioState(),
  }),
  route({
    method: "POST",
    path: "/twin/v1/scenario",
    section: "Scenario control",
    summary: "Apply one scenario action",
    description:
      "Actions: `advance-clock {seconds}`, `set-churn-multiplier {multiplier}`, `fail-radius-server {server}`, `revive-radius-server {server}`, " +
      "`fill-pool {pool, percent}`, `drain-pool {pool}`, `fill-cgn-group {group, percent}`, `drain-cgn-group {group}`, " +
      "`disconnect-sessions {share, filter}`, `reseed {seed}`, `fail-daemon {daemon}` and `revive-daemon {daemon}` (`routing` or `ipsec`: their endpoints then answer `reachable` false; a reseed starts them again). Same seed and same actions give the same state.",
    floor: "super-user",
    body: ScenarioAction,
    response: {
      description: "what the action did, and the state after it",
      schema: z.object({ ok: z.literal(true), action: z.string(), detail: z.record(z.string(), z.union([z.number(), z.string()])), state: ScenarioState }).meta({ id: "ScenarioResult" }),
    },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().scenario(ctx.body, actorName(ctx.principal!))).result,
  }),
];
