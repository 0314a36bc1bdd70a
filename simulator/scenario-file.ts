/**
 * Scenario files: a JSON timeline of scenario actions at simulated times, so
 * a CI pipeline can replay a fault story (a RADIUS outage, pool and CGN
 * exhaustion, a BGP flap storm, an upgrade with drain, a licence lapse) from
 * one committed file. The zod schema is the single source of the file's
 * validation, its types and its OpenAPI description; `timeline` turns a file
 * into the ordered clock advances and actions every runner (the appliance,
 * the tests) performs, so they cannot disagree about what a file means.
 */
import { z } from "zod";
import { ScenarioAction } from "./scenario.ts";

/**
 * Actions beyond the data plane's: they act on the appliance's control plane
 * (routing, software upgrade, licence), so the appliance carries them out.
 */
export const ApplianceScenarioAction = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("reset-bgp"),
    neighbor: z.string().min(1).max(255).nullable().default(null).describe("a configured global neighbor's address; null or absent resets every one (a hard `clear bgp *`)"),
  }),
  z.strictObject({
    action: z.literal("upgrade"),
    version: z.string().regex(/^\d+\.\d+\.\d+$/).describe("the version of the package staged and applied, e.g. `0.2.0`"),
    drain: z.boolean().default(true).describe("drain subscribers before the reboot, as POST /system/upgrade/apply `drain`"),
  }),
  z.strictObject({
    action: z.literal("load-lease"),
    days: z.int().min(1).max(3650).describe("the lease expires this many simulated days from now"),
    graceDays: z.int().min(0).max(365).default(30).describe("days of Grace after expiry before the licence is Lapsed"),
    bandMax: z.int().min(1).max(10_000_000).default(2000).describe("licensed sessions"),
  }),
]);
export type ApplianceScenarioAction = z.output<typeof ApplianceScenarioAction>;

/** Every action POST /twin/v1/scenario and a scenario file accept. */
export const TwinScenarioAction = z.discriminatedUnion("action", [...ScenarioAction.options, ...ApplianceScenarioAction.options]);
export type TwinScenarioAction = z.output<typeof TwinScenarioAction>;

const MAX_SECONDS = 366 * 86_400;

const At = z.number().min(0).max(MAX_SECONDS).describe("simulated seconds since the scenario started (the file's time zero)");
// Each action's own strict object plus `at`: an intersection would let the strict objects refuse `at`.
const Step = z.discriminatedUnion(
  "action",
  TwinScenarioAction.options.map((o) => o.extend({ at: At })) as unknown as [typeof ScenarioAction.options[0]],
) as unknown as z.ZodType<TwinScenarioAction & { at: number }, z.input<typeof TwinScenarioAction> & { at: number }>;

/** A scenario file. */
export const ScenarioFile = z
  .strictObject({
    description: z.string().max(4096).optional().describe("what the scenario tells, for the reader of the file"),
    seed: z.int().min(0).max(2 ** 32 - 1).optional().describe("reseed the data plane at time zero (a fresh data plane: the same seed and file give the same state)"),
    steps: z.array(Step).max(10_000).describe("actions in order of `at` (equal times run in file order); each is one POST /twin/v1/scenario body plus `at`"),
    until: z.number().min(0).max(MAX_SECONDS).optional().describe("run the clock on to this many seconds after time zero once the last step has run"),
  })
  .superRefine((file, ctx) => {
    file.steps.forEach((step, i) => {
      const before = file.steps[i - 1];
      if (before && step.at < before.at) ctx.addIssue({ code: "custom", path: ["steps", i, "at"], message: `steps must be in time order: ${step.at} s comes after ${before.at} s` });
    });
    const last = file.steps.at(-1)?.at ?? 0;
    if (file.until !== undefined && file.until < last) ctx.addIssue({ code: "custom", path: ["until"], message: `until (${file.until} s) is before the last step (${last} s)` });
  })
  .meta({ id: "ScenarioFile" });
export type ScenarioFile = z.output<typeof ScenarioFile>;

/** One thing a runner does: run the clock on by `advanceSeconds`, then apply `action` (none after `until`). */
export interface TimelineStep {
  at: number;
  advanceSeconds: number;
  action: TwinScenarioAction | null;
  /** Where the step comes from: the file's `seed`, its `steps[n]`, or the clock alone (a long gap, `until`). */
  source: "seed" | number | "clock";
}

/** Longest clock advance one action may ask for (the advance-clock action's own cap). */
const MAX_ADVANCE = 30 * 86_400;

/**
 * The runner's script for a file: a reseed at time zero when the file names
 * a seed, each step's clock advance (split into advance-clock-sized pieces)
 * and action, then the run to `until`.
 */
export function timeline(file: ScenarioFile): TimelineStep[] {
  const out: TimelineStep[] = [];
  let now = 0;
  const advanceTo = (at: number) => {
    while (at - now > MAX_ADVANCE) {
      now += MAX_ADVANCE;
      out.push({ at: now, advanceSeconds: MAX_ADVANCE, action: null, source: "clock" });
    }
    const gap = at - now;
    now = at;
    return gap;
  };
  if (file.seed !== undefined) out.push({ at: 0, advanceSeconds: 0, action: { action: "reseed", seed: file.seed }, source: "seed" });
  file.steps.forEach(({ at, ...action }, i) => out.push({ at, advanceSeconds: advanceTo(at), action: action as TwinScenarioAction, source: i }));
  if (file.until !== undefined && file.until > now) out.push({ at: file.until, advanceSeconds: advanceTo(file.until), action: null, source: "clock" });
  return out;
}
