/**
 * Session lifetimes: what ends a subscriber's session, when, and how long its
 * CPE stays away (docs/simulation.md, "Session lifetimes", gives the sources).
 *
 * Four hazards act on every live session of a generated subscriber:
 * - line outages (loss of sync, a cut, the cabinet's power): a rate per
 *   subscriber, log-normal across subscribers and fitted to two shares (at
 *   least monthly, at least weekly), capped at one a day; flat over the day;
 *   the line is back after 30 s to 4 h (log-uniform);
 * - CPE reboots (power-cycles, crashes): `cpeRebootsPerMonth`, following the
 *   daily curve (people power-cycle when they use the line); back in 1-3 min;
 * - firmware pushes: one every `firmwarePushDays`, inside the maintenance
 *   window; the CPE closes its session and is back in 2-5 min;
 * - switch-offs (power off for hours or days): starting with the daily curve,
 *   lasting `absence.minHours` to `absence.maxDays` (log-uniform), at the rate
 *   that keeps the population's share off, (subscribers − steadyStateSessions)
 *   / subscribers, in balance.
 * Each session's next event is drawn from the sum of the hazards at their
 * daily peaks and thinned by the curve at the instant it falls (Lewis and
 * Shedler's thinning: exact for a rate that varies with the time of day).
 *
 * What the event does depends on the access type, as the protocols decide:
 * a PPP session (PPPoE, LAC, LNS) ends once LCP echo goes unanswered (30 s:
 * a request every 10 s, three missed, RFC 1661 §5.8) or at once when the CPE
 * closes it (a firmware push); an IPoE session outlives its CPE's absence when
 * the CPE is back before its lease expires (it renews then, keeping its
 * address and session), and ends at the lease's expiry otherwise (leases.ts).
 * A forced reconnect (`sessionTimeoutHours`, RADIUS Session-Timeout) ends a
 * session that long after it came up, and the CPE dials again at once.
 *
 * Draws are hashes of the seed, the session id and the instant, so the
 * shared random stream is not touched and the same seed gives the same lives.
 */
import { SUB_STEP_MS, dailyFactor } from "./clock.ts";
import type { ModelCore } from "./model-core.ts";
import type { Profile } from "./profile.ts";
import { hashUnit } from "./random.ts";
import { ENCAP_IPOE } from "./subscribers.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Days in an average month (365.25 / 12): the survey's "a month". */
export const MONTH_DAYS = 30.4375;
/** A week in months, the survey's other threshold. */
const WEEK_MONTHS = 7 / MONTH_DAYS;
/** A line failing more than daily is a fault being repaired, not a rate. */
export const MAX_LINE_OUTAGES_PER_DAY = 1;
/** LCP echo: a request every 10 s, the session closed after three unanswered (RFC 1661 §5.8 Echo-Request). */
export const LCP_ECHO_SECONDS = 10;
export const LCP_DETECT_MS = 3 * LCP_ECHO_SECONDS * 1000;
/** How long a line outage lasts: 30 s (a resync) to 4 h (a repair), log-uniform. */
export const LINE_DOWN_MS = [30_000, 4 * HOUR_MS] as const;
/** How long a CPE takes to boot and train its line again. */
export const REBOOT_MS = [60_000, 180_000] as const;
/** How long a firmware push keeps a CPE away: the download is done beforehand, then flash and boot. */
export const FIRMWARE_MS = [120_000, 300_000] as const;

/** Causes of a decided end (the session table's `endKind`; 0 = a candidate of the hazard). */
export const END_CAUSES = [
  "",
  "line-down",
  "cpe-reboot",
  "cpe-firmware-upgrade",
  "cpe-power-off",
  "session-timeout",
] as const;
type EndCause = Exclude<(typeof END_CAUSES)[number], "">;
const LINE = 1;
const REBOOT = 2;
const FIRMWARE = 3;
const POWER_OFF = 4;
const TIMEOUT = 5;

/** Why a session went down: a lifetime event (above), its lease, or an act of the operator or the box. */
export type DownCause =
  | EndCause
  | "lease-expired"
  | "admin-reset"
  | "scenario"
  | "reseed"
  | "local-subscriber-removed"
  | "local-subscriber-changed"
  | "static-address-claimed"
  /** A block the session held left the pools (its subnet or pool removed, an exclude added, the pool rebuilt). */
  | "pool-reconfigured"
  /** The L2TP peer its tunnel goes to stopped answering (scenario `fail-l2tp-peer`). */
  | "l2tp-peer-unreachable";

/** Salts of the hashes. */
const S_LINE_A = 40;
const S_LINE_B = 41;
const S_WHEN = 42;
const S_CAUSE = 43;
const S_ACCEPT = 44;
const S_OFF = 45;
const S_AWAY = 46;
const S_AWAY_LEFT = 47;
const S_AWAY_LENGTH = 48;

/** Φ⁻¹, the standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.928510446969, 138.357751867269, -30.66479806614716];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const a5 = 2.506628277459239;
  const c5 = 2.938163982698783;
  const tail = (q: number): number =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c5) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a5) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * The log-normal of line outages per month that puts `atLeastMonthly` of the
 * subscribers at one or more a month and `atLeastWeekly` at one or more a week:
 * ln r = μ + σz, with ln 1 = μ + σ·Φ⁻¹(1 − monthly) and ln(months per week)⁻¹
 * = μ + σ·Φ⁻¹(1 − weekly). None when either share is 0.
 */
export function lineOutageFit(atLeastMonthly: number, atLeastWeekly: number): { mu: number; sigma: number } | null {
  if (!(atLeastMonthly > 0 && atLeastWeekly > 0 && atLeastWeekly < atLeastMonthly && atLeastMonthly < 1)) return null;
  const z1 = normalQuantile(1 - atLeastMonthly);
  const z2 = normalQuantile(1 - atLeastWeekly);
  const sigma = Math.log(1 / WEEK_MONTHS) / (z2 - z1);
  return { mu: -sigma * z1, sigma };
}

/** A log-uniform value between `lo` and `hi` for a uniform `u`. */
function logUniform(lo: number, hi: number, u: number): number {
  return lo * Math.exp(u * Math.log(hi / lo));
}

/** The hazards of one profile, and the events they bring. */
export class Lifetimes {
  readonly #seed: number;
  /** The daily curve scaled to a mean of one, and its peak. */
  readonly #curve: number[];
  readonly #curveMax: number;
  readonly #utcOffset: number;
  readonly #fit: { mu: number; sigma: number } | null;
  readonly #rebootPerDay: number;
  readonly #firmwarePerDay: number;
  readonly #windowFrom: number;
  readonly #windowHours: number;
  /** Share of subscribers switched off at a time, and the rate at which a present one switches off, per day. */
  readonly awayShare: number;
  readonly switchOffsPerDay: number;
  readonly #absenceMs: readonly [number, number];
  /** Forced reconnect per encapsulation (ENCAPS order), ms; 0 = none. */
  readonly #timeoutMs: number[];

  constructor(profile: Profile, seed: number) {
    const churn = profile.churn;
    this.#seed = seed >>> 0;
    const mean = churn.dailyCurve.reduce((a, b) => a + b, 0) / 24;
    this.#curve = churn.dailyCurve.map((v) => v / mean);
    this.#curveMax = Math.max(...this.#curve);
    this.#utcOffset = profile.utcOffsetMinutes;
    this.#fit = lineOutageFit(churn.lineOutages.atLeastMonthly, churn.lineOutages.atLeastWeekly);
    this.#rebootPerDay = churn.cpeRebootsPerMonth / MONTH_DAYS;
    this.#firmwarePerDay = churn.firmwarePushDays === null ? 0 : 1 / churn.firmwarePushDays;
    this.#windowFrom = churn.maintenanceWindow.fromHour;
    this.#windowHours = churn.maintenanceWindow.hours;
    this.#absenceMs = [churn.absence.minHours * HOUR_MS, churn.absence.maxDays * DAY_MS];
    const pop = profile.population;
    this.awayShare = Math.max(0, 1 - pop.steadyStateSessions / pop.subscribers);
    const [lo, hi] = this.#absenceMs;
    const meanAbsenceDays = (hi - lo) / Math.log(hi / lo) / DAY_MS;
    // Balance: the share switching off a day × the mean absence = the share off (a renewal process's steady state).
    this.switchOffsPerDay = this.awayShare < 1 ? this.awayShare / ((1 - this.awayShare) * meanAbsenceDays) : 0;
    const t = churn.sessionTimeoutHours;
    this.#timeoutMs = [t.ipoe, t["pppoe-local"], t["pppoe-lac"], t.l2tp].map((h) => (h === null ? 0 : h * HOUR_MS));
  }

  /** A subscriber's line outages per day (a pure function of the seed and the subscriber). */
  lineOutagesPerDay(sub: number): number {
    const fit = this.#fit;
    if (!fit) return 0;
    // Box-Muller from two hashes: a standard normal per subscriber.
    const u = 1 - hashUnit(this.#seed, sub, S_LINE_A);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * hashUnit(this.#seed, sub, S_LINE_B));
    return Math.min(MAX_LINE_OUTAGES_PER_DAY, Math.exp(fit.mu + fit.sigma * z) / MONTH_DAYS);
  }

  /**
   * When a subscriber's CPE is back at the start (epoch seconds), or 0 when it
   * is on: the share switched off at a time is off from the first instant,
   * for the rest of an absence as a renewal process has it in its steady
   * state (the absence under way is length-biased: x·(1/x) makes a
   * log-uniform one uniform; what is left of it is a uniform part of it).
   */
  awayAtStart(sub: number, nowMs: number): number {
    if (hashUnit(this.#seed, sub, S_AWAY) >= this.awayShare) return 0;
    const [lo, hi] = this.#absenceMs;
    const left = (lo + (hi - lo) * hashUnit(this.#seed, sub, S_AWAY_LENGTH)) * hashUnit(this.#seed, sub, S_AWAY_LEFT);
    return Math.ceil((nowMs + Math.max(SUB_STEP_MS, left)) / 1000);
  }

  /** Files a session's first lifetime event as it comes up (generated subscribers: configured ones live on). */
  begin(m: ModelCore, slot: number): void {
    this.#next(m, slot, m.nowMs);
  }

  /** Draws every live session's next event afresh (the churn multiplier changed; the hazards are memoryless). */
  redraw(m: ModelCore): void {
    const s = m.store;
    for (let i = 0; i < s.liveCount; i++) {
      const slot = s.live[i] ?? 0;
      if ((s.sub[slot] ?? -1) >= 0 && s.endKind[slot] === 0) this.#next(m, slot, m.nowMs);
    }
  }

  /**
   * Runs the lifetime events due at the model's instant: a candidate is
   * thinned, and an accepted one strikes; a decided end calls `end` with its
   * cause and when the subscriber's CPE is back.
   */
  run(m: ModelCore, end: (slot: number, cause: EndCause, backMs: number) => void): void {
    const s = m.store;
    const now = m.nowMs;
    for (const slot of s.dueEnds(now)) {
      const kind = s.endKind[slot] ?? 0;
      const sub = s.sub[slot] ?? 0;
      if (kind !== 0) {
        end(slot, END_CAUSES[kind] as EndCause, kind === TIMEOUT ? now : (m.backAt[sub] ?? 0) * 1000);
        continue;
      }
      const rates = this.#rates(m, sub);
      const id = s.id[slot] ?? 0;
      const at = Math.floor(now / 1000);
      let x = hashUnit(this.#seed ^ id, at, S_CAUSE) * rates.total;
      let cause = LINE;
      const byCause = [
        [LINE, rates.line],
        [REBOOT, rates.reboot],
        [FIRMWARE, rates.firmware],
        [POWER_OFF, rates.off],
      ];
      for (const [k, r] of byCause as [number, number][]) {
        cause = k;
        if ((x -= r) < 0) break;
      }
      if (hashUnit(this.#seed ^ id, at, S_ACCEPT) * this.#peak(cause) >= this.#level(cause, now)) {
        this.#next(m, slot, now);
        continue;
      }
      this.#strike(m, slot, cause, end);
    }
  }

  /**
   * Subscribers whose CPE is back: an away one dials again; one still online
   * (an IPoE session that outlived the absence) renews its lease at once
   * (`renew`: a client back on its link verifies its lease, RFC 2131 §3.2).
   */
  wake(m: ModelCore, renew: (slot: number) => void): void {
    const now = m.nowMs;
    for (const sub of m.returns.take(now)) {
      const back = m.backAt[sub] ?? 0;
      if (back === 0 || back * 1000 > now) continue;
      if (m.isAway(sub)) {
        m.makeReady(sub);
        continue;
      }
      m.backAt[sub] = 0;
      const slot = m.slotOfSub[sub] ?? -1;
      if (slot < 0) continue;
      m.store.quietUntil[slot] = 0;
      if (m.store.encap[slot] === ENCAP_IPOE) renew(slot);
    }
  }

  /** The event strikes: the CPE is gone until it is back; the session ends as its access type decides. */
  #strike(
    m: ModelCore,
    slot: number,
    cause: number,
    end: (slot: number, cause: EndCause, backMs: number) => void,
  ): void {
    const s = m.store;
    const now = m.nowMs;
    const sub = s.sub[slot] ?? 0;
    const back = now + this.#away(cause, s.id[slot] ?? 0, now);
    m.awayUntil(sub, back);
    const backSeconds = m.backAt[sub] ?? 0;
    if (s.encap[slot] === ENCAP_IPOE) {
      // The client keeps its lease while away; the lease decides (leases.ts). Nothing else befalls an absent CPE.
      s.quietUntil[slot] = backSeconds;
      this.#next(m, slot, backSeconds * 1000);
      return;
    }
    // A firmware push closes the session first (PADT, LCP Terminate-Request); otherwise LCP echo finds it gone.
    if (cause === FIRMWARE) return end(slot, END_CAUSES[FIRMWARE], back);
    s.quietUntil[slot] = backSeconds;
    s.setEnd(slot, Math.ceil((now + LCP_DETECT_MS) / 1000), cause);
  }

  /** Files a session's next candidate from `fromMs`, or its forced reconnect when that comes first. */
  #next(m: ModelCore, slot: number, fromMs: number): void {
    const s = m.store;
    const rates = this.#rates(m, s.sub[slot] ?? 0);
    const id = s.id[slot] ?? 0;
    let at = Number.POSITIVE_INFINITY;
    if (rates.total > 0) {
      const u = hashUnit(this.#seed ^ id, Math.floor(fromMs / 1000), S_WHEN);
      at = fromMs + (-Math.log(1 - u) / rates.total) * DAY_MS;
    }
    const timeout = this.#timeoutMs[s.encap[slot] ?? 0] ?? 0;
    if (timeout > 0 && (s.upMs[slot] ?? 0) + timeout <= at) {
      s.setEnd(slot, Math.ceil(((s.upMs[slot] ?? 0) + timeout) / 1000), TIMEOUT);
      return;
    }
    // Beyond the seconds column's range (2106) nothing is filed: no event.
    if (at / 1000 < 4_294_967_295) s.setEnd(slot, Math.ceil(at / 1000), 0);
    else s.setEnd(slot, 0, 0);
  }

  /** The four hazards of a subscriber at their peaks, per day (the churn multiplier on all but switch-offs). */
  #rates(m: ModelCore, sub: number): { line: number; reboot: number; firmware: number; off: number; total: number } {
    const k = m.churnMultiplier;
    const line = k * this.lineOutagesPerDay(sub);
    const reboot = k * this.#rebootPerDay * this.#curveMax;
    const firmware = k * this.#firmwarePerDay * (24 / this.#windowHours);
    const off = this.switchOffsPerDay * this.#curveMax;
    return { line, reboot, firmware, off, total: line + reboot + firmware + off };
  }

  /** A hazard's peak level (the envelope the candidates were drawn at). */
  #peak(cause: number): number {
    if (cause === LINE) return 1;
    if (cause === FIRMWARE) return 24 / this.#windowHours;
    return this.#curveMax;
  }

  /** A hazard's level at an instant: flat, the daily curve, or the maintenance window. */
  #level(cause: number, nowMs: number): number {
    if (cause === LINE) return 1;
    if (cause === FIRMWARE) {
      const hour = Math.floor((((nowMs / HOUR_MS + this.#utcOffset / 60) % 24) + 24) % 24);
      const into = (hour - this.#windowFrom + 24) % 24;
      return into < this.#windowHours ? 24 / this.#windowHours : 0;
    }
    return dailyFactor(this.#curve, nowMs, this.#utcOffset);
  }

  /** How long the CPE is away after an event of this cause. */
  #away(cause: number, id: number, nowMs: number): number {
    const u = hashUnit(this.#seed ^ id, Math.floor(nowMs / 1000), S_OFF);
    if (cause === LINE) return logUniform(LINE_DOWN_MS[0], LINE_DOWN_MS[1], u);
    if (cause === REBOOT) return REBOOT_MS[0] + u * (REBOOT_MS[1] - REBOOT_MS[0]);
    if (cause === FIRMWARE) return FIRMWARE_MS[0] + u * (FIRMWARE_MS[1] - FIRMWARE_MS[0]);
    return logUniform(this.#absenceMs[0], this.#absenceMs[1], u);
  }
}
