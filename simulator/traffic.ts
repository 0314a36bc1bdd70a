/**
 * Per-session traffic for one sub-step. A session's rate is its plan rate
 * times its subscriber's activity (heavy-tailed: most lines idle, a few
 * busy), the daily curve (evening peak) and a per-step jitter; walled-garden
 * sessions are shaped to `walledGardenKbps`. Rates are from the BNG's side:
 * rx = received from the subscriber (upstream), tx = sent to it. Port rates
 * are the sums over the port's sessions. The same loop renews IPoE leases
 * and sizes each CGN binding's flows. No allocation per session.
 */
import { SUB_STEP_SECONDS, dailyFactor } from "./clock.ts";
import { renewalDelayMs } from "./lifecycle.ts";
import type { Model } from "./model.ts";
import { DOWN_PACKET_BYTES, UP_PACKET_BYTES } from "./frame-sizes.ts";
import { mix32 } from "./random.ts";
import { ENCAP_IPOE } from "./subscribers.ts";

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

/** Runs one sub-step of traffic; returns the slots whose lease lapsed (to be torn down by the caller). */
export function runTraffic(m: Model): number[] {
  const s = m.store;
  const plans = m.profile.plans;
  const planDown = Float64Array.from(plans, (p) => p.downloadKbps * 1000);
  const planUp = Float64Array.from(plans, (p) => p.uploadKbps * 1000 * UPLOAD_RATIO);
  const wgBps = m.profile.walledGardenKbps * 1000;
  const curve = dailyFactor(m.profile.traffic.dailyCurve, m.nowMs, m.profile.utcOffsetMinutes);
  const renewFail = m.profile.leases.renewFailureProbability;
  const groups = m.cgn.groups;
  const meanActivity = Math.max(0.001, m.profile.traffic.meanActivity);
  const tickSalt = Math.imul(m.tick + 1, 0x9e3779b1);
  const portRx = m.portRx;
  const portTx = m.portTx;
  portRx.fill(0);
  portTx.fill(0);
  const lapsed: number[] = [];
  const now = m.nowMs;
  const cgn = m.cgn;
  const flowBase = Float64Array.from(groups, (g) => g.config.flowsPerSubscriber / meanActivity);
  // Columns hoisted into locals: the calls below (rng, setFlows) would otherwise force V8 to reload them per row.
  const { alive, encap, leaseMs, id, activity, plan: planOf, walledGarden, rxBps, txBps, rxBytes, txBytes, port: portOf, sub: subOf } = s;
  const bindingOf = s.cgn;
  const bindingGroup = cgn.group;
  // Slot order, not live-list order: sequential access through the columns is several times faster at 128k.
  const end = s.highWater;
  for (let slot = 0; slot < end; slot++) {
    if (alive[slot] !== 1) continue;
    const sid = id[slot] ?? 0;
    if (encap[slot] === ENCAP_IPOE && (leaseMs[slot] ?? 0) <= now) {
      // A client that fails to renew loses its lease: no traffic this step, torn down by the caller.
      if (m.rng.chance(renewFail)) {
        lapsed.push(slot);
        continue;
      }
      leaseMs[slot] = now + renewalDelayMs(m, sid, m.tick);
    }
    const h = mix32(sid ^ tickSalt);
    // Jitter in [0.6, 1.4): one hash per session per step instead of a random draw keeps the stream short.
    const jitter = 0.6 + (h / 4294967296) * 0.8;
    const act = (activity[slot] ?? 0) * curve * jitter;
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
    // Stored as float32; sum the stored values so port rates equal the sum of session rates exactly.
    rx = Math.fround(rx);
    tx = Math.fround(tx);
    rxBps[slot] = rx;
    txBps[slot] = tx;
    rxBytes[slot] = (rxBytes[slot] ?? 0) + (rx / 8) * SUB_STEP_SECONDS;
    txBytes[slot] = (txBytes[slot] ?? 0) + (tx / 8) * SUB_STEP_SECONDS;
    const port = portOf[slot] ?? -1;
    if (port >= 0) {
      portRx[port] = (portRx[port] ?? 0) + rx;
      portTx[port] = (portTx[port] ?? 0) + tx;
    }
    const binding = bindingOf[slot] ?? -1;
    if (binding >= 0) {
      const flows = (flowBase[bindingGroup[binding] ?? 0] ?? 0) * act * (wg ? 0.05 : 1);
      cgn.setFlows(now, binding, roundRate(flows) + 1);
    }
  }
  return lapsed;
}
