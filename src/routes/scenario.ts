/**
 * Scenario control: the twin's own surface (outside `/api/v1`) for scripting
 * faults reproducibly. The action schema is the simulator's, so the body is
 * validated where the actions are defined.
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { ScenarioFile, TwinScenarioAction } from "../../simulator/scenario-file.ts";

export const ScenarioState = z
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

export const ScenarioRunResult = z.object({ ok: z.literal(true), steps: z.int(), state: ScenarioState }).meta({ id: "ScenarioRunResult" });

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
      "`disconnect-sessions {share, filter}`, `reseed {seed}`, `fail-daemon {daemon}` and `revive-daemon {daemon}` (`routing` or `ipsec`: their endpoints then answer `reachable` false; a reseed starts them again), " +
      "`reset-bgp {neighbor}` (the session, or every global neighbor's, starts afresh: a flap), `upgrade {version, drain}` (stages a placeholder package of that version and applies it, as the upgrade endpoints would) and " +
      "`load-lease {days, graceDays, bandMax}` (the twin issues and loads an offline lease expiring in `days` simulated days). Same seed and same actions give the same state.",
    floor: "super-user",
    body: TwinScenarioAction,
    response: {
      description: "what the action did, and the state after it",
      schema: z.object({ ok: z.literal(true), action: z.string(), detail: z.record(z.string(), z.union([z.number(), z.string()])), state: ScenarioState }).meta({ id: "ScenarioResult" }),
    },
    errors: [404, 409, 422],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.scenario(ctx.body, actorName(ctx.principal!))).result,
  }),
  route({
    method: "POST",
    path: "/twin/v1/scenario/run",
    section: "Scenario control",
    summary: "Run a scenario file: a timeline of scenario actions at simulated times",
    description:
      "Runs the file's steps in order: a reseed first when it names a `seed`, then for each step the clock is advanced to its `at` (simulated seconds since the run started) and its action applied, then the clock runs on to `until`. " +
      "The same seed and the same file give the same state. A refused step stops the run with that step's error (`steps[n]` names it); the steps before it stay applied. " +
      "`npm start` runs one at start-up on every appliance when `BNG_SCENARIO` names a file; examples are in `scenarios/`.",
    floor: "super-user",
    body: ScenarioFile,
    response: {
      description: "the number of steps run and the state after the last one",
      schema: ScenarioRunResult,
    },
    errors: [404, 409, 422],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.runScenario(ctx.body, actorName(ctx.principal!))).result,
  }),
];
