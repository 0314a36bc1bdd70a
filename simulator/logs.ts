/**
 * The log ring buffer (spec Events §1: "an in-memory ring buffer … so old
 * entries age out"). Capacity 10,000 entries, chosen because the spec leaves
 * it open and 10,000 covers hours of a steady appliance while staying small
 * enough to snapshot with the rest of the model.
 */
import type { LogEntry, LogTail } from "../src/schemas/logs.ts";
import { isoTime } from "./clock.ts";
import { clamp } from "./paging.ts";
import type { FieldValue, FieldsOf, ModelMsgId } from "./log-catalogue.ts";
import { LOG_CAPACITY, LOG_CATALOGUE, type Severity } from "./vocabulary.ts";

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
  #listeners: LogListener[] = [];

  /** Appends a catalogued model event (severity from the catalogue unless overridden). */
  emit<M extends ModelMsgId>(timeMs: number, msgId: M, fields: FieldsOf<M>, severity?: Severity): void {
    this.#push(timeMs, severity ?? LOG_CATALOGUE[msgId].severity, msgId, fields);
  }

  /** Appends an event from outside the model (login, token events). */
  append(timeMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): LogEntry {
    return present(this.#push(timeMs, severity, msgId, { ...fields }));
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
    }
    ring.#count = Math.min(state.entries.length, LOG_CAPACITY);
    ring.#lastSeq = state.lastSeq;
    return ring;
  }

  #push(timeMs: number, severity: Severity, msgId: string, fields: Record<string, FieldValue>): Stored {
    const seq = ++this.#lastSeq;
    const stored: Stored = { seq, timeMs, severity, msgId, fields };
    this.#slots[seq % LOG_CAPACITY] = stored;
    if (this.#count < LOG_CAPACITY) this.#count++;
    if (this.#listeners.length === 0) return stored;
    const entry = present(stored);
    for (const listener of this.#listeners) {
      // A failing listener (a closed SSE stream) must not break the model's step.
      try {
        listener(entry);
      } catch {
        this.#listeners = this.#listeners.filter((l) => l !== listener);
      }
    }
    return stored;
  }
}

function present(s: Stored): LogEntry {
  return { seq: s.seq, timestamp: isoTime(s.timeMs), severity: s.severity, msgId: s.msgId, fields: { ...s.fields } };
}
