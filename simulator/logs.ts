/**
 * The log ring buffer (spec Events §1: "an in-memory ring buffer … so old
 * entries age out"). Capacity 10,000 entries, chosen because the spec leaves
 * it open and 10,000 covers hours of a steady appliance while staying small
 * enough to snapshot with the rest of the model.
 *
 * Every entry carries the instant of its event, to the millisecond, and
 * instants never go back as seq goes up (docs/observability.md, Event
 * instants). An entry from outside a step (an operator's act) is stamped
 * with the caller's clock (`setClock`). A 10 s step's entries are held until
 * it ends (`openStep`/`closeStep`): what happened during the step is spread
 * over it as that many events of a Poisson process fall (sorted uniform
 * instants, drawn from the seed and the step, never from the model's own
 * random stream), and what its end judges (alarm conditions, the licence,
 * the step's summary, the watchers sampling after it) carries its end.
 */
import type { LogEntry, LogTail } from "../src/schemas/logs.ts";
import { isoTime } from "./clock.ts";
import { clamp } from "./paging.ts";
import { Random } from "./random.ts";
import type { FieldValue, FieldsOf, ModelMsgId } from "./log-catalogue.ts";
import { LOG_CAPACITY, LOG_CATALOGUE, type Severity } from "./vocabulary.ts";

/** What a step's end judges: from the first of these on, a step's entries carry its end instant. */
const JUDGED_AT_STEP_END = new Set(["alarm.raise", "alarm.clear", "licence.state", "session.activity"]);

/** A step under way: its interval, its seed, the entries it logged so far and where its judgement began. */
interface OpenStep {
  fromMs: number;
  toMs: number;
  seed: number;
  held: { severity: Severity; msgId: string; fields: Record<string, FieldValue> }[];
  judgedFrom: number | null;
}

/** A live-entry listener (the Durable Object's SSE fan-out). */
export type LogListener = (entry: LogEntry) => void;

interface Stored {
  seq: number;
  timeMs: number;
  severity: Severity;
  msgId: string;
  fields: Record<string, FieldValue>;
}

/** The serialisable content of the ring. */
export interface LogState {
  lastSeq: number;
  entries: [number, number, Severity, string, Record<string, FieldValue>][];
}

/** A fixed-capacity ring of log entries with monotonic sequence numbers. */
export class LogRing {
  #slots: (Stored | undefined)[] = new Array<Stored | undefined>(LOG_CAPACITY);
  #count = 0;
  #lastSeq = 0;
  /** The newest entry's instant: no later entry is stamped before it. */
  #lastMs = Number.NEGATIVE_INFINITY;
  #listeners: LogListener[] = [];
  /** The instant of an event outside a step; null = the instant its caller gives. */
  #clock: (() => number) | null = null;
  #step: OpenStep | null = null;

  /** Appends a catalogued model event (severity from the catalogue unless overridden). */
  emit<M extends ModelMsgId>(timeMs: number, msgId: M, fields: FieldsOf<M>, severity?: Severity): void {
    this.#offer(timeMs, severity ?? LOG_CATALOGUE[msgId].severity, msgId, fields);
  }

  /** Appends an event from outside the model (login, token events). */
  append(timeMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): void {
    this.#offer(timeMs, severity, msgId, { ...fields });
  }

  /** Appends an event of a known instant (one `instant()` gave, and its act reported): no clock is read again. */
  appendAt(instantMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): void {
    if (this.#step) return this.#offer(instantMs, severity, msgId, { ...fields });
    this.#push(Math.max(instantMs, this.#lastMs), severity, msgId, { ...fields });
  }

  /** Sets the clock that stamps events outside a step (the appliance's: an operator's act happens when it is made). */
  setClock(clock: (() => number) | null): void {
    this.#clock = clock;
  }

  /**
   * The instant an event outside a step would carry now: `timeMs`, the clock or the newest entry's, whichever is
   * latest.
   */
  instant(timeMs: number): number {
    return Math.max(timeMs, this.#clock?.() ?? Number.NEGATIVE_INFINITY, this.#lastMs);
  }

  /** Starts holding entries: they belong to the step from `fromMs` to `toMs` of the model seeded `seed`. */
  openStep(fromMs: number, toMs: number, seed: number): void {
    this.#step = { fromMs, toMs, seed, held: [], judgedFrom: null };
  }

  /** From here on the step's entries are its end's judgement (the watchers sampling after it). */
  judgeStep(): void {
    if (this.#step) this.#step.judgedFrom ??= this.#step.held.length;
  }

  /**
   * Ends the step: its entries get their instants and seq numbers, and go to the listeners, in the order they were
   * logged.
   */
  closeStep(): void {
    const step = this.#step;
    if (!step) return;
    this.#step = null;
    const judged = step.judgedFrom ?? step.held.length;
    const lo = Math.max(step.fromMs, this.#lastMs);
    const end = Math.max(step.toMs, lo);
    const instants = spread(judged, lo, end, new Random((step.seed ^ Math.floor(step.toMs / 10_000)) >>> 0));
    step.held.forEach((e, i) => this.#push(i < judged ? instants[i]! : end, e.severity, e.msgId, e.fields));
  }

  /** Newest sequence number the buffer has seen (0 before the first entry). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Entries currently retained. */
  get size(): number {
    return this.#count;
  }

  /** The spec's tail: the most recent `count`, or up to `count` entries newer than `sinceSeq`; oldest first. */
  tail(query: { count?: number | null | undefined; sinceSeq?: number | null | undefined } = {}): LogTail {
    const count = clamp(Math.trunc(query.count ?? 100), 1, 1000);
    const oldest = this.#lastSeq - this.#count + 1;
    let from: number;
    if (query.sinceSeq === undefined || query.sinceSeq === null) from = Math.max(oldest, this.#lastSeq - count + 1);
    else from = Math.max(oldest, Math.trunc(query.sinceSeq) + 1);
    const to = Math.min(this.#lastSeq, from + count - 1);
    const entries: LogEntry[] = [];
    for (let seq = from; seq <= to; seq++) {
      const stored = this.#slots[seq % LOG_CAPACITY];
      if (stored !== undefined && stored.seq === seq) entries.push(present(stored));
    }
    return { entries, lastSeq: this.#lastSeq };
  }

  /** Registers a listener for every new entry; returns its unsubscribe function. */
  subscribe(listener: LogListener): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** The ring's content for a snapshot. */
  exportState(): LogState {
    const entries: LogState["entries"] = [];
    for (let seq = this.#lastSeq - this.#count + 1; seq <= this.#lastSeq; seq++) {
      const s = this.#slots[seq % LOG_CAPACITY];
      if (s) entries.push([s.seq, s.timeMs, s.severity, s.msgId, s.fields]);
    }
    return { lastSeq: this.#lastSeq, entries };
  }

  /** Rebuilds a ring from a snapshot; sequence numbers continue where they stopped. */
  static fromState(state: LogState): LogRing {
    const ring = new LogRing();
    for (const [seq, timeMs, severity, msgId, fields] of state.entries) {
      ring.#slots[seq % LOG_CAPACITY] = { seq, timeMs, severity, msgId, fields };
      ring.#lastMs = Math.max(ring.#lastMs, timeMs);
    }
    ring.#count = Math.min(state.entries.length, LOG_CAPACITY);
    ring.#lastSeq = state.lastSeq;
    return ring;
  }

  /** An entry held by the step under way, or stamped and pushed now. */
  #offer(timeMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): void {
    const step = this.#step;
    if (!step) return this.#push(this.instant(timeMs), severity, msgId, fields);
    if (step.judgedFrom === null && JUDGED_AT_STEP_END.has(msgId)) step.judgedFrom = step.held.length;
    step.held.push({ severity, msgId, fields });
  }

  #push(timeMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): void {
    this.#lastMs = timeMs;
    const seq = ++this.#lastSeq;
    const stored: Stored = { seq, timeMs, severity, msgId, fields };
    this.#slots[seq % LOG_CAPACITY] = stored;
    if (this.#count < LOG_CAPACITY) this.#count++;
    if (this.#listeners.length === 0) return;
    const entry = present(stored);
    for (const listener of this.#listeners) {
      // A failing listener (a closed SSE stream) must not break the model's step.
      try {
        listener(entry);
      } catch {
        this.#listeners = this.#listeners.filter((l) => l !== listener);
      }
    }
  }
}

/**
 * `n` instants after `lo` and before `hi` (ms), increasing, where n events of a Poisson process over the
 * interval would fall: sorted uniforms, made from n + 1 exponential spacings. Whole milliseconds, each
 * after the one before while the interval has room for them all; past that, each at or after it.
 */
function spread(n: number, lo: number, hi: number, random: Random): number[] {
  if (n === 0) return [];
  const gaps = Array.from({ length: n + 1 }, () => -Math.log(1 - random.float()));
  const total = gaps.reduce((a, b) => a + b, 0);
  const room = hi - lo - 1;
  const instants: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += gaps[i]!;
    const u = sum / total;
    // With room: n distinct instants in [lo + 1, hi - 1] (a non-decreasing pick in room - n + 1 slots, plus i).
    const t = room >= n ? lo + 1 + Math.floor(u * (room - n + 1)) + i : lo + Math.floor(u * (hi - lo));
    instants.push(Math.max(t, instants[i - 1] ?? t));
  }
  return instants;
}

function present(s: Stored): LogEntry {
  return { seq: s.seq, timestamp: isoTime(s.timeMs), severity: s.severity, msgId: s.msgId, fields: { ...s.fields } };
}
