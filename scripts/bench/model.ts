/** The model alone, in this process: bring-up of a profile and the CPU cost of one 10 s step at full size. */
import { quantile } from "./load.ts";
import { Gateway, type Profile } from "../../simulator/index.ts";

export interface ModelFigures {
  sessions: number;
  simulatedSeconds: number;
  setupsPerSimulatedSecond: number;
  bringUpCpuMs: number;
  stepCpuP50: number;
  stepCpuMax: number;
}

/**
 * Setups per simulated second while ramping: the mean over the 10 s steps that added at least half the busiest step's
 * sessions.
 */
export function rampRate(totals: number[]): number {
  const deltas = totals.slice(1).map((t, i) => t - totals[i]!);
  const busy = deltas.filter((d) => d >= Math.max(...deltas) / 2);
  return busy.reduce((a, b) => a + b, 0) / busy.length / 10;
}

/** The CPU milliseconds of `count` consecutive 10 s steps of `gateway`, sorted. */
export function stepCpuMs(gateway: Gateway, count: number): number[] {
  const steps: number[] = [];
  for (let i = 0; i < count; i++) {
    const c = process.cpuUsage();
    gateway.step(10);
    const used = process.cpuUsage(c);
    steps.push((used.user + used.system) / 1000);
  }
  return steps.sort((a, b) => a - b);
}

/** Brings a gateway of `profile` up to `target` sessions in 10 s steps, then times 30 steps of churn at that size. */
export function modelFigures(profile: Profile, target: number): ModelFigures {
  const gateway = Gateway.create(profile, { seed: 1, startTimeMs: Date.UTC(2026, 0, 1, 20) });
  let simulated = 0;
  const totals = [0];
  const cpu0 = process.cpuUsage();
  while (gateway.sessions.summary().total < target && simulated < 900) {
    gateway.step(10);
    simulated += 10;
    totals.push(gateway.sessions.summary().total);
  }
  const bringUpCpu = process.cpuUsage(cpu0);
  const sessions = gateway.sessions.summary().total;
  gateway.step(600); // settle into churn
  const steps = stepCpuMs(gateway, 30);
  return {
    sessions,
    simulatedSeconds: simulated,
    setupsPerSimulatedSecond: rampRate(totals),
    bringUpCpuMs: (bringUpCpu.user + bringUpCpu.system) / 1000,
    stepCpuP50: quantile(steps, 0.5),
    stepCpuMax: steps[steps.length - 1]!,
  };
}
