/**
 * Scenario files: a JSON timeline of scenario actions at simulated times, so
 * a CI pipeline can replay a fault story (a RADIUS outage, pool and CGN
 * exhaustion, a BGP flap storm, an upgrade with drain, a licence lapse) from
 * one committed file. The file's schema is the wire contract's
 * (src/schemas/scenario.ts); `timeline` turns a file into the ordered clock
 * advances and actions every runner (the appliance, the tests) performs, so
 * they cannot disagree about what a file means.
 */
import type { ScenarioFile, TwinScenarioAction } from "../src/schemas/scenario.ts";

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
  if (file.seed !== undefined)
    out.push({ at: 0, advanceSeconds: 0, action: { action: "reseed", seed: file.seed }, source: "seed" });
  file.steps.forEach(({ at, ...action }, i) =>
    out.push({ at, advanceSeconds: advanceTo(at), action: action as TwinScenarioAction, source: i }),
  );
  if (file.until !== undefined && file.until > now)
    out.push({ at: file.until, advanceSeconds: advanceTo(file.until), action: null, source: "clock" });
  return out;
}
