/**
 * Scenario files in the pure model: a file's meaning (`timeline`: the clock
 * advances and actions in order), and reproducibility — the same seed and
 * file give the same state, whatever seed the gateway started with.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Gateway, timeline } from "../../simulator/index.ts";
import { ScenarioAction, ScenarioFile } from "../../src/schemas/scenario.ts";
import { START, observe, profile } from "./helpers.ts";

const shipped = (name: string) =>
  ScenarioFile.parse(JSON.parse(readFileSync(`${import.meta.dirname}/../../scenarios/${name}.json`, "utf8")));

/** Runs a file's data-plane actions on a gateway, as the appliance does. */
function run(g: Gateway, file: ScenarioFile): void {
  for (const step of timeline(file)) {
    if (step.advanceSeconds > 0) g.step(step.advanceSeconds);
    if (step.action) {
      const result = g.scenario(ScenarioAction.parse(step.action));
      expect(result.ok, JSON.stringify(step)).toBe(true);
    }
  }
}

describe("a scenario file's timeline", () => {
  it("reseeds at zero, advances to each step's time, runs equal times in file order, then runs on to until", () => {
    const file = ScenarioFile.parse({
      seed: 9,
      steps: [
        { at: 60, action: "fail-radius-server", server: "radius-1.isp.example" },
        { at: 60, action: "set-churn-multiplier", multiplier: 2 },
        { at: 600, action: "revive-radius-server", server: "radius-1.isp.example" },
      ],
      until: 900,
    });
    expect(timeline(file).map((s) => [s.source, s.advanceSeconds, s.action?.action ?? null])).toEqual([
      ["seed", 0, "reseed"],
      [0, 60, "fail-radius-server"],
      [1, 0, "set-churn-multiplier"],
      [2, 540, "revive-radius-server"],
      ["clock", 300, null],
    ]);
  });

  it("splits a gap longer than one advance-clock may take (30 days) into several", () => {
    const file = ScenarioFile.parse({ steps: [{ at: 65 * 86_400, action: "reset-bgp" }] });
    expect(timeline(file).map((s) => s.advanceSeconds)).toEqual([30 * 86_400, 30 * 86_400, 5 * 86_400]);
  });

  it("fills in the actions' defaults", () => {
    const file = ScenarioFile.parse({
      steps: [
        { at: 0, action: "reset-bgp" },
        { at: 0, action: "disconnect-sessions", share: 0.5 },
      ],
    });
    expect(file.steps).toEqual([
      { at: 0, action: "reset-bgp", neighbor: null },
      { at: 0, action: "disconnect-sessions", share: 0.5, filter: {} },
    ]);
  });
});

describe("reproducibility", () => {
  it.each(["radius-outage", "pool-cgn-exhaustion"])(
    "%s: the same file gives the same state from gateways started with different seeds",
    (name) => {
      const file = shipped(name);
      const a = Gateway.create(profile(), { seed: 1, startTimeMs: START });
      const b = Gateway.create(profile(), { seed: 2, startTimeMs: START });
      run(a, file);
      run(b, file);
      expect(a.seed).toBe(file.seed);
      expect(observe(a)).toBe(observe(b));
    },
  );

  it("a different seed in the file gives a different state", () => {
    const file = shipped("radius-outage");
    const a = Gateway.create(profile(), { seed: 1, startTimeMs: START });
    const b = Gateway.create(profile(), { seed: 1, startTimeMs: START });
    run(a, file);
    run(b, { ...file, seed: (file.seed ?? 0) + 1 });
    expect(observe(a)).not.toBe(observe(b));
  });
});
