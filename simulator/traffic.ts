/**
 * Per-session traffic for one sub-step. A session's rate is its plan rate
 * times its subscriber's activity (heavy-tailed: most lines idle, a few
 * busy), the daily curve (evening peak) and a jitter per draw; walled-garden
 * sessions are shaped to `walledGardenKbps`. Rates are from the BNG's side:
 * rx = received from the subscriber (upstream), tx = sent to it.
 *
 * A rate is a 30 s average, a router's load interval: each session's is drawn
 * every third sub-step, a third of the table at each (by slot), and first
 * in the sub-step that sets the session up. Its CGN binding's flows are
 * sized at the same draw. A rate is whole bits per second; the session table
 * keeps the port rates (the sums over the port's sessions) and counts bytes
 * as a rate changes (sessions.ts `setRates`), so a session's counters read
 * the same as if they were added to at every sub-step. A session whose CPE
 * is away (off, rebooting, its line down: lifetimes.ts) carries nothing.
 * Touching a third of the sessions per step is what keeps a 128k step within
 * a few milliseconds. No allocation per session.
 */
import { dailyFactor } from "./clock.ts";
import type { Model } from "./model.ts";
import { DOWN_PACKET_BYTES, UP_PACKET_BYTES } from "./frame-sizes.ts";
import { mix32 } from "./random.ts";

/** Sub-steps between two draws of a session's rate (3 × 10 s: the load interval). */
export const RATE_INTERVAL_STEPS = 3;

/** Upload share of the plan's upload rate relative to download utilisation. */
const UPLOAD_RATIO = 0.6;

/** Session packets per second, both directions (capture packet counting). */
export function packetsPerSecond(m: Model, slot: number): number {
  return (m.store.rxBps[slot] ?? 0) / (8 * UP_PACKET_BYTES) + (m.store.txBps[slot] ?? 0) / (8 * DOWN_PACKET_BYTES);
}

/**
 * `Math.round` of a non-negative number, in integer arithmetic below 2^30:
 * the traffic loop rounds twice or thrice per session, and V8's Math.round
 * costs several times more there. Exact: when adding 0.5 rounded up past the
 * integer, the correction takes it back.
 */
export function roundRate(x: number): number {
  if (!(x >= 0 && x < 1073741824)) return Math.round(x);
  const y = (x + 0.5) | 0;
  return y - 0.5 > x ? y - 1 : y;
}

/** Runs one sub-step of traffic (after the step's lease expiries have ended their sessions). */
export function runTraffic(m: Model): void {
  const s = m.store;
  const plans = m.profile.plans;
  const planDown = Float64Array.from(plans, (p) => p.downloadKbps * 1000);
  const planUp = Float64Array.from(plans, (p) => p.uploadKbps * 1000 * UPLOAD_RATIO);
  const wgBps = m.profile.walledGardenKbps * 1000;
  const curve = dailyFactor(m.profile.traffic.dailyCurve, m.nowMs, m.profile.utcOffsetMinutes);
  const meanActivity = Math.max(0.001, m.profile.traffic.meanActivity);
  const tick = m.tick;
  const tickSalt = Math.imul(tick + 1, 0x9e3779b1);
  const now = m.nowMs;
  const cgn = m.cgn;
  const flowBase = Float64Array.from(cgn.groups, (g) => g.config.flowsPerSubscriber / meanActivity);
  // Columns hoisted into locals: the calls below (rng, setFlows) would otherwise force V8 to reload them per row.
  const { alive, id, activity, plan: planOf, walledGarden, sub: subOf, quietUntil } = s;
  const nowSeconds = now / 1000;
  const bindingOf = s.cgn;
  const bindingGroup = cgn.group;

  /** Draws a live session's rates and sizes its CGN binding's flows. */
  const draw = (slot: number): void => {
    const h = mix32((id[slot] ?? 0) ^ tickSalt);
    // Jitter in [0.6, 1.4): one hash per draw instead of a random draw keeps the stream short.
    const jitter = 0.6 + (h / 4294967296) * 0.8;
    // A CPE that is away sends and receives nothing.
    const act = (quietUntil[slot] ?? 0) > nowSeconds ? 0 : (activity[slot] ?? 0) * curve * jitter;
    const u = act > 1 ? 1 : act;
    const plan = planOf[slot] ?? 0;
    let tx = (planDown[plan] ?? 0) * u;
    let rx = (planUp[plan] ?? 0) * u;
    const sub = subOf[slot] ?? 0;
    if (sub < 0) {
      // A local subscriber is shaped to its configured rates (the plan's where it gives none).
      const local = m.locals.ofSub(sub);
      tx = (local?.downBps ?? 0) * u;
      rx = (local?.upBps ?? 0) * UPLOAD_RATIO * u;
    }
    const wg = walledGarden[slot] === 1;
    if (wg) {
      if (tx > wgBps) tx = wgBps;
      if (rx > wgBps) rx = wgBps;
    }
    s.setRates(slot, roundRate(rx), roundRate(tx), tick);
    const binding = bindingOf[slot] ?? -1;
    if (binding >= 0) {
      const flows = (flowBase[bindingGroup[binding] ?? 0] ?? 0) * act * (wg ? 0.05 : 1);
      cgn.setFlows(now, binding, roundRate(flows) + 1);
    }
  };

  // Sessions set up in this sub-step (every setup happens in one, before its traffic) draw their first rates now.
  const first = (RATE_INTERVAL_STEPS - (tick % RATE_INTERVAL_STEPS)) % RATE_INTERVAL_STEPS;
  for (const slot of s.takeFresh()) {
    if (alive[slot] === 1 && (slot - first) % RATE_INTERVAL_STEPS !== 0) draw(slot);
  }
  // Then this sub-step's turn, in slot order (sequential through the columns): the slots with (slot + tick)
  // divisible by RATE_INTERVAL_STEPS.
  const end = s.highWater;
  for (let slot = first; slot < end; slot += RATE_INTERVAL_STEPS) {
    if (alive[slot] === 1) draw(slot);
  }
}
