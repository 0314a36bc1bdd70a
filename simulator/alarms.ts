/**
 * Alarms raised and cleared by model conditions. The spec names only
 * `cgn.pool.high` ("Alarm catalog ids other than the CGN pool-high alarm:
 * not shown"), so the rest of the catalogue is defined here (its data in
 * vocabulary.ts, which the API's alarm list documents). Threshold alarms
 * use hysteresis (raise above one level, clear below a lower one) so a value
 * hovering at the threshold does not flap. An alarm whose condition clears
 * sooner than MIN_ACTIVE_MS after it was raised stays active until then (a
 * BGP reset that is Established again within seconds): a poller reading
 * `GET /alarms` once a minute sees every alarm at least once, as a push sink
 * and the log stream hear every one.
 */
import { isoTime } from "./clock.ts";
import { ALARM_CATALOGUE, ALARM_SEVERITIES, type AlarmSeverity, type Severity } from "./vocabulary.ts";
import type { LogRing } from "./logs.ts";
import type { Alarm, AlarmClearResult, AlarmsResponse } from "../src/schemas/alarms.ts";

export type AlarmId = keyof typeof ALARM_CATALOGUE;

/** The shortest time an alarm stays active once raised (unless an operator clears it): one poll of a minute. */
export const MIN_ACTIVE_MS = 60_000;

interface Active {
  id: AlarmId;
  instance: string | null;
  firstRaisedMs: number;
  text: string;
  context: Record<string, string>;
}

/** Serialisable alarm state. */
export interface AlarmState {
  active: Active[];
  latched: string[];
  stats: AlarmsResponse["stats"];
  /** Alarms whose condition cleared before MIN_ACTIVE_MS, by key; absent in older snapshots: none. */
  clearing?: string[];
}

const key = (id: string, instance: string | null): string => `${id}\u0000${instance ?? ""}`;

/** Keeps the active set, the condition latches and the statistics. */
export class AlarmBook {
  #active = new Map<string, Active>();
  /**
   * Conditions currently above their raise level; a manually cleared alarm stays latched until its condition clears.
   */
  #latched = new Set<string>();
  #stats = { raised: 0, cleared: 0, events: 0, eventsDropped: 0 };
  /** Active alarms whose condition has cleared, held until MIN_ACTIVE_MS after their raise (`settle`). */
  #clearing = new Set<string>();
  readonly #logs: LogRing;

  constructor(logs: LogRing) {
    this.#logs = logs;
  }

  /**
   * Feeds one evaluation of a condition: `high` raises (once per excursion),
   * `low` clears; between the two nothing changes. `describe` is only called
   * when the alarm is raised or already active.
   */
  observe(
    nowMs: number,
    id: AlarmId,
    instance: string | null,
    high: boolean,
    low: boolean,
    describe: () => { text: string; context: Record<string, string> },
  ): void {
    const k = key(id, instance);
    const active = this.#active.get(k);
    if (high && !this.#latched.has(k) && this.#clearing.delete(k) && active) {
      // Back before its hold ended: still the same alarm.
      this.#latched.add(k);
      return;
    }
    if (high && !this.#latched.has(k)) {
      this.#latched.add(k);
      const { text, context } = describe();
      this.#active.set(k, { id, instance, firstRaisedMs: nowMs, text, context });
      this.#stats.raised++;
      this.#stats.events++;
      const severity = ALARM_CATALOGUE[id].severity;
      this.#logs.emit(nowMs, "alarm.raise", { id, instance, severity, text }, logSeverity(severity));
      return;
    }
    if (low && this.#latched.has(k)) {
      this.#latched.delete(k);
      if (active && nowMs - active.firstRaisedMs < MIN_ACTIVE_MS) this.#clearing.add(k);
      else if (active) this.#end(nowMs, k, active);
      return;
    }
    if (active && this.#latched.has(k)) {
      const { text, context } = describe();
      active.text = text;
      active.context = context;
    }
  }

  /** Clears an alarm at once, hold or not: the object it was raised for left the configuration. */
  retire(nowMs: number, id: AlarmId, instance: string | null): void {
    const k = key(id, instance);
    this.#latched.delete(k);
    this.#clearing.delete(k);
    const active = this.#active.get(k);
    if (active) this.#end(nowMs, k, active);
  }

  /** Ends the held alarms whose MIN_ACTIVE_MS has passed (every sub-step). */
  settle(nowMs: number): void {
    for (const k of this.#clearing) {
      const active = this.#active.get(k);
      if (active && nowMs - active.firstRaisedMs < MIN_ACTIVE_MS) continue;
      this.#clearing.delete(k);
      if (active) this.#end(nowMs, k, active);
    }
  }

  /** Clears an active alarm whose condition cleared. */
  #end(nowMs: number, k: string, active: Active): void {
    this.#active.delete(k);
    this.#stats.cleared++;
    this.#stats.events++;
    this.#logs.emit(nowMs, "alarm.clear", { id: active.id, instance: active.instance, manual: false });
  }

  /** Operator clear (spec POST /alarms/clear): removes a matching active alarm. */
  clear(nowMs: number, id: string, instance: string | null): AlarmClearResult {
    const k = key(id, instance);
    const active = this.#active.get(k);
    if (!active) return { cleared: false, id, instance };
    this.#clearing.delete(k);
    this.#active.delete(k);
    this.#stats.cleared++;
    this.#stats.events++;
    this.#logs.emit(nowMs, "alarm.clear", { id, instance, manual: true });
    return { cleared: true, id, instance };
  }

  /**
   * Clears every active alarm with its event, as the data plane goes down (a
   * reboot or reseed): sinks and syslog hear each one end; the new data plane
   * raises again whatever still holds.
   */
  clearAll(nowMs: number): void {
    this.#clearing.clear();
    for (const [k, active] of this.#active) {
      this.#active.delete(k);
      this.#latched.delete(k);
      this.#stats.cleared++;
      this.#stats.events++;
      this.#logs.emit(nowMs, "alarm.clear", { id: active.id, instance: active.instance, manual: false });
    }
  }

  /** Drops every active alarm and latch without events (a reseed restarts the data plane). */
  reset(): void {
    this.#active.clear();
    this.#latched.clear();
    this.#clearing.clear();
  }

  /** The spec's AlarmsResponse: most severe first, then oldest first. */
  view(nowMs: number): AlarmsResponse {
    const countBySeverity: Record<AlarmSeverity, number> = { critical: 0, major: 0, minor: 0, warning: 0 };
    const active = [...this.#active.values()]
      .map((a): Alarm => {
        const severity = ALARM_CATALOGUE[a.id].severity;
        countBySeverity[severity]++;
        return {
          id: a.id,
          instance: a.instance,
          severity,
          firstRaisedUtc: isoTime(a.firstRaisedMs),
          ageSeconds: Math.max(0, Math.floor((nowMs - a.firstRaisedMs) / 1000)),
          text: a.text,
          context: { ...a.context },
        };
      })
      .sort(
        (x, y) =>
          ALARM_SEVERITIES.indexOf(x.severity) - ALARM_SEVERITIES.indexOf(y.severity) ||
          x.firstRaisedUtc.localeCompare(y.firstRaisedUtc) ||
          x.id.localeCompare(y.id) ||
          (x.instance ?? "").localeCompare(y.instance ?? ""),
      );
    return { active, count: active.length, countBySeverity, stats: { ...this.#stats } };
  }

  /** Whether an alarm is currently active. */
  isActive(id: AlarmId, instance: string | null): boolean {
    return this.#active.has(key(id, instance));
  }

  /** State for a snapshot. */
  exportState(): AlarmState {
    return {
      active: [...this.#active.values()].map((a) => ({ ...a, context: { ...a.context } })),
      latched: [...this.#latched],
      stats: { ...this.#stats },
      clearing: [...this.#clearing],
    };
  }

  /** Restores snapshot state. */
  importState(state: AlarmState): void {
    this.#active = new Map(state.active.map((a) => [key(a.id, a.instance), { ...a, context: { ...a.context } }]));
    this.#latched = new Set(state.latched);
    this.#stats = { ...state.stats };
    this.#clearing = new Set(state.clearing ?? []);
  }
}

/** Log severity of an alarm-raise entry. */
function logSeverity(severity: AlarmSeverity): Severity {
  if (severity === "critical") return "critical";
  return severity === "major" ? "error" : "warning";
}
