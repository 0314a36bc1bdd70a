/**
 * Per-session traffic for one sub-step. A session's download is its plan rate
 * times its subscriber's activity (heavy-tailed: most lines idle, a few
 * busy), the daily curve (evening peak, 20:00-23:00 in the shipped profiles)
 * and a jitter per draw; its upload is the download times the subscriber's
 * own up:down ratio (log-normal across subscribers, `traffic.upstream`: a few
 * upload as much as they download), within the plan, and now and then a
 * burst at nearly the plan's upload rate for a few minutes (a backup, a video
 * posted: `traffic.uploadBursts`). Packets follow from the bytes: a
 * subscriber's downstream is a mix of full segments and small packets (its
 * own share of full ones), uploads are full segments, and each side ACKs
 * every second full segment of the other (frame-sizes.ts), so a downloader's
 * upstream is mostly 52-byte ACKs and an uploader's mostly full segments.
 * Walled-garden sessions are shaped to `walledGardenKbps`. Rates are from the
 * BNG's side: rx = received from the subscriber (upstream), tx = sent to it.
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
import { ACK_BYTES, DOWN_FULL_SHARE, FULL_SEGMENT_BYTES, SMALL_PACKET_BYTES } from "./frame-sizes.ts";
import { normalQuantile } from "./lifetimes.ts";
import { mix32 } from "./random.ts";

/** Sub-steps between two draws of a session's rate (3 × 10 s: the load interval). */
export const RATE_INTERVAL_STEPS = 3;

/** Session packets per second, both directions (capture packet counting). */
export function packetsPerSecond(m: Model, slot: number): number {
  return (m.store.rxPps[slot] ?? 0) + (m.store.txPps[slot] ?? 0);
}

const DAY_MS = 86_400_000;
/** Salts of the per-subscriber hashes. */
const S_MIX = 70;
const S_BURST = 71;
/** Levels of the per-subscriber draws (a table instead of an exp and a quantile per draw). */
const LEVELS = 1024;

/** The up:down ratio of each of LEVELS equally likely subscribers (log-normal: median, sigma), made once per pair. */
function ratioTable(median: number, sigma: number): Float64Array {
  const key = `${median}/${sigma}`;
  let table = RATIO_TABLES.get(key);
  if (!table) {
    const level = (k: number) => median * Math.exp(sigma * normalQuantile((k + 0.5) / LEVELS));
    table = Float64Array.from({ length: LEVELS }, (_, k) => level(k));
    RATIO_TABLES.set(key, table);
  }
  return table;
}
const RATIO_TABLES = new Map<string, Float64Array>();

/**
 * Per level of a subscriber's share of full segments (DOWN_FULL_SHARE, LEVELS steps): the downstream packets a bit
 * of download makes, and the upstream ACKs they call for, per bit (one 52-byte ACK per two full segments).
 */
const DOWN_PACKETS_PER_BIT = new Float64Array(LEVELS);
const UP_ACKS_PER_DOWN_BIT = new Float64Array(LEVELS);
for (let k = 0; k < LEVELS; k++) {
  const full = DOWN_FULL_SHARE[0] + (DOWN_FULL_SHARE[1] - DOWN_FULL_SHARE[0]) * (k / LEVELS);
  DOWN_PACKETS_PER_BIT[k] = 1 / (8 * (full * FULL_SEGMENT_BYTES + (1 - full) * SMALL_PACKET_BYTES));
  UP_ACKS_PER_DOWN_BIT[k] = ((DOWN_PACKETS_PER_BIT[k] ?? 0) * full) / 2;
}
/** Upload packets per bit (full segments), and the bits of one ACK. */
const UP_PACKETS_PER_BIT = 1 / (8 * FULL_SEGMENT_BYTES);
const ACK_BITS = ACK_BYTES * 8;

/**
 * Whether a subscriber is in an upload burst at an instant: a day holds a burst with `perDay` (at most one),
 * starting at a random instant of it and lasting minMinutes to maxMinutes (log-uniform); one can run past
 * midnight into the next day. One hash per day decides, so a traffic draw pays one mixing for it.
 */
export function inUploadBurst(
  seed: number,
  sub: number,
  nowMs: number,
  b: { perDay: number; minMinutes: number; maxMinutes: number },
): boolean {
  const day = Math.floor(nowMs / DAY_MS);
  const key = mix32(seed ^ S_BURST) ^ Math.imul(sub + 1, 0x85ebca77);
  return burstAt(key, day, b.perDay * 4294967296, nowMs, b);
}

/** Whether the burst of `key`'s subscriber on `day` (or one from the day before still running) covers `nowMs`. */
function burstAt(
  key: number,
  day: number,
  chance: number,
  nowMs: number,
  b: { minMinutes: number; maxMinutes: number },
): boolean {
  const today = mix32(key ^ Math.imul(day, 0x9e3779b1));
  if (today < chance && burstCovers(today, day, nowMs, b)) return true;
  // A burst of yesterday's last minutes only.
  if (nowMs - day * DAY_MS >= b.maxMinutes * 60_000) return false;
  const yesterday = mix32(key ^ Math.imul(day - 1, 0x9e3779b1));
  return yesterday < chance && burstCovers(yesterday, day - 1, nowMs, b);
}

/** Whether the burst of hash `h` on day `d` covers `nowMs` (its instant and length from the same hash). */
function burstCovers(h: number, d: number, nowMs: number, b: { minMinutes: number; maxMinutes: number }): boolean {
  const startMs = d * DAY_MS + (mix32(h ^ 0x27d4eb2d) / 4294967296) * DAY_MS;
  // Most draws fall outside the longest burst's reach: no length to work out.
  if (nowMs < startMs || nowMs >= startMs + b.maxMinutes * 60_000) return false;
  const length = mix32(h ^ 0x165667b1) / 4294967296;
  const minutes = b.minMinutes * Math.exp(length * Math.log(b.maxMinutes / b.minMinutes));
  return nowMs < startMs + minutes * 60_000;
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
  const planUp = Float64Array.from(plans, (p) => p.uploadKbps * 1000);
  const t = m.profile.traffic;
  const ratios = ratioTable(t.upstream.medianRatio, t.upstream.sigma);
  const bursts = t.uploadBursts;
  const burstChance = bursts.perDay * 4294967296;
  const seed = m.seed;
  // Per-step constants of the per-subscriber hashes: one mixing per subscriber and purpose at each draw.
  const mixSeed = mix32(seed ^ S_MIX);
  const burstSeed = mix32(seed ^ S_BURST);
  const day = Math.floor(m.nowMs / DAY_MS);
  const daySalt = Math.imul(day, 0x9e3779b1);
  const earlyInDay = m.nowMs - day * DAY_MS < bursts.maxMinutes * 60_000;
  const planShare = bursts.planShare;
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
    const sub = subOf[slot] ?? 0;
    let down = (planDown[plan] ?? 0) * u;
    let upCap = planUp[plan] ?? 0;
    if (sub < 0) {
      // A local subscriber is shaped to its configured rates (the plan's where it gives none).
      const local = m.locals.ofSub(sub);
      down = (local?.downBps ?? 0) * u;
      upCap = local?.upBps ?? 0;
    }
    // The subscriber's mix: its up:down ratio and its downstream's share of full segments, from one hash.
    const subKey = Math.imul(sub + 1, 0x85ebca77);
    const mix = mix32(mixSeed ^ subKey);
    let up = down * (ratios[mix >>> 22] ?? 0);
    if (act > 0) {
      // Today's burst (one hash: most subscribers have none), or yesterday's running past midnight.
      const today = mix32(burstSeed ^ subKey ^ daySalt);
      const bursting =
        (today < burstChance && burstCovers(today, day, now, bursts)) ||
        (earlyInDay && burstAt(burstSeed ^ subKey, day, burstChance, now, bursts));
      if (bursting) up = upCap * planShare;
    }
    const wg = walledGarden[slot] === 1;
    if (wg) {
      if (down > wgBps) down = wgBps;
      if (up > wgBps) up = wgBps;
    }
    // Packets: the downstream's full segments and small packets, full-segment uploads, each side's ACKs of the
    // other's full segments (one per two), the ACKs taking their room within the plan's upload.
    const level = mix & 0x3ff;
    const downPps = down * (DOWN_PACKETS_PER_BIT[level] ?? 0);
    const upAckPps = down * (UP_ACKS_PER_DOWN_BIT[level] ?? 0);
    const upAck = upAckPps * ACK_BITS;
    if (up > upCap - upAck) up = upCap > upAck ? upCap - upAck : 0;
    const upPps = up * UP_PACKETS_PER_BIT;
    const downAckPps = upPps * 0.5;
    const rx = up + upAck;
    let tx = down + downAckPps * ACK_BITS;
    // The ACKs of an upload share the download's shaping (the walled garden's rate, the plan's).
    const downCap = wg ? wgBps : sub < 0 ? (m.locals.ofSub(sub)?.downBps ?? 0) : (planDown[plan] ?? 0);
    if (tx > downCap) tx = downCap;
    // Packet rates in 64ths of a packet a second: binary fractions keep the port sums exact, and a light session
    // (a few kb/s, under half a packet a second) still counts its packets.
    s.setRates(
      slot,
      roundRate(rx),
      roundRate(tx),
      Math.round((upPps + upAckPps) * 64) / 64,
      Math.round((downPps + downAckPps) * 64) / 64,
      tick,
    );
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
