/**
 * IPoE lease renewals filed by the sub-step they fall due in, so a step
 * visits the few hundred sessions whose renewal is due rather than testing
 * every session's lease. Sub-steps fall on 10 s boundaries of the epoch
 * (model.ts), so a renewal due at `leaseMs` is handled by the sub-step at
 * ceil(leaseMs / 10 s). Entries are not removed when a session ends or
 * renews: the session table keeps an entry only while its slot is live with
 * a renewal still due (sessions.ts `dueLeases`).
 */
import { SUB_STEP_MS } from "./clock.ts";

export class LeaseTimers {
  /** Slots by the sub-step (in 10 s units of the epoch) their renewal falls due in. */
  #buckets = new Map<number, number[]>();
  /** Every sub-step before this one has been taken. */
  #taken = Number.NEGATIVE_INFINITY;

  /** Files a slot whose renewal falls due at `leaseMs`. */
  add(slot: number, leaseMs: number): void {
    const key = Math.ceil(leaseMs / SUB_STEP_MS);
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.push(slot);
    else this.#buckets.set(key, [slot]);
  }

  /** Removes and returns the slots filed for sub-steps up to `nowMs`'s, ascending, each once. */
  take(nowMs: number): number[] {
    const last = Math.floor(nowMs / SUB_STEP_MS);
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

  /** Forgets every entry (the table is filed again after a restore). */
  clear(): void {
    this.#buckets.clear();
    this.#taken = Number.NEGATIVE_INFINITY;
  }
}
