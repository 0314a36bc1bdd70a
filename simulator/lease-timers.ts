/**
 * Timers filed by the sub-step they fall due in: IPoE lease renewals, the
 * sessions' lifetime events and the subscribers' returns (lifetimes.ts), so a
 * step visits the few hundred entries that are due rather than testing every
 * session or subscriber. Sub-steps fall on 10 s boundaries of the epoch
 * (model.ts), so a renewal due at `leaseMs` is handled by the sub-step at
 * ceil(leaseMs / 10 s). Entries are not removed when a session ends or
 * renews: the session table keeps an entry only while its slot is live with
 * a renewal still due (sessions.ts `dueLeases`).
 */
import { SUB_STEP_MS } from "./clock.ts";

/** Sub-steps in an hour: entries further ahead wait in hourly buckets. */
const HOUR_STEPS = 360;

export class LeaseTimers {
  /** Slots by the sub-step (in 10 s units of the epoch) they fall due in: those of the next hour or so. */
  #buckets = new Map<number, number[]>();
  /**
   * Entries further ahead by the hour they fall due in, as slot and sub-step pairs: a session's next lifetime
   * event is days ahead, and a bucket per sub-step for each would be a hundred thousand small arrays.
   */
  #coarse = new Map<number, number[]>();
  /** Every sub-step before this one has been taken. */
  #taken = Number.NEGATIVE_INFINITY;
  /** Sub-steps up to this one are filed in `#buckets`; the hours beyond, in `#coarse`. */
  #fineUntil = Number.NEGATIVE_INFINITY;

  /** Files a slot whose renewal falls due at `leaseMs`. */
  add(slot: number, leaseMs: number): void {
    const key = Math.ceil(leaseMs / SUB_STEP_MS);
    if (key > this.#fineUntil) {
      const hour = Math.floor(key / HOUR_STEPS);
      const pairs = this.#coarse.get(hour);
      if (pairs) pairs.push(slot, key);
      else this.#coarse.set(hour, [slot, key]);
      return;
    }
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.push(slot);
    else this.#buckets.set(key, [slot]);
  }

  /** Removes and returns the slots filed for sub-steps up to `nowMs`'s, ascending, each once. */
  take(nowMs: number): number[] {
    const last = Math.floor(nowMs / SUB_STEP_MS);
    this.#refine(Math.floor((last + HOUR_STEPS) / HOUR_STEPS));
    const out: number[] = [];
    if (last - this.#taken < this.#buckets.size) {
      for (let key = this.#taken; key <= last; key++) {
        const bucket = this.#buckets.get(key);
        if (bucket === undefined) continue;
        for (const slot of bucket) out.push(slot);
        this.#buckets.delete(key);
      }
    } else {
      // After a long skipped gap (or the first time): fewer buckets than sub-steps to look at.
      for (const [key, bucket] of this.#buckets) {
        if (key > last) continue;
        for (const slot of bucket) out.push(slot);
        this.#buckets.delete(key);
      }
    }
    this.#taken = last + 1;
    out.sort((a, b) => a - b);
    let n = 0;
    for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[n++] = out[i] ?? 0;
    out.length = n;
    return out;
  }

  /** Files the hourly buckets up to `lastHour` by sub-step (an hour ahead of the step taken). */
  #refine(lastHour: number): void {
    const fineUntil = (lastHour + 1) * HOUR_STEPS - 1;
    if (fineUntil <= this.#fineUntil) return;
    const firstHour = Math.floor((this.#fineUntil + 1) / HOUR_STEPS);
    this.#fineUntil = fineUntil;
    const move = (hour: number, pairs: number[]) => {
      for (let i = 0; i < pairs.length; i += 2) this.add(pairs[i] ?? 0, (pairs[i + 1] ?? 0) * SUB_STEP_MS);
      this.#coarse.delete(hour);
    };
    if (lastHour - firstHour < this.#coarse.size) {
      for (let hour = firstHour; hour <= lastHour; hour++) {
        const pairs = this.#coarse.get(hour);
        if (pairs) move(hour, pairs);
      }
    } else {
      for (const [hour, pairs] of this.#coarse) if (hour <= lastHour) move(hour, pairs);
    }
  }

  /** Forgets every entry (the table is filed again after a restore). */
  clear(): void {
    this.#buckets.clear();
    this.#coarse.clear();
    this.#taken = Number.NEGATIVE_INFINITY;
    this.#fineUntil = Number.NEGATIVE_INFINITY;
  }
}
