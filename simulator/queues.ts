/**
 * Growable FIFO rings over typed arrays: free-block queues and expiry queues
 * (offer holds, DHCP-decline quarantine, CGN chunk quarantine). Expiries are
 * pushed in time order because each queue has one fixed hold duration, so a
 * FIFO is also a priority queue and both ends are O(1).
 */

/** A FIFO of int32 values. */
export class IntQueue {
  #buf: Int32Array;
  #head = 0;
  #size = 0;

  constructor(capacity = 16) {
    this.#buf = new Int32Array(Math.max(4, capacity));
  }

  /** Number of queued values. */
  get size(): number {
    return this.#size;
  }

  /** Appends a value. */
  push(value: number): void {
    if (this.#size === this.#buf.length) this.#grow();
    this.#buf[(this.#head + this.#size) % this.#buf.length] = value;
    this.#size++;
  }

  /** Removes and returns the oldest value (-1 when empty). */
  shift(): number {
    if (this.#size === 0) return -1;
    const v = this.#buf[this.#head] ?? -1;
    this.#head = (this.#head + 1) % this.#buf.length;
    this.#size--;
    return v;
  }

  /** The queued values, oldest first. */
  toArray(): Int32Array {
    const out = new Int32Array(this.#size);
    for (let i = 0; i < this.#size; i++) out[i] = this.#buf[(this.#head + i) % this.#buf.length] ?? 0;
    return out;
  }

  /** Rebuilds a queue from values, oldest first. */
  static from(values: ArrayLike<number>): IntQueue {
    const q = new IntQueue(values.length + 16);
    for (let i = 0; i < values.length; i++) q.push(values[i] ?? 0);
    return q;
  }

  #grow(): void {
    const next = new Int32Array(this.#buf.length * 2);
    for (let i = 0; i < this.#size; i++) next[i] = this.#buf[(this.#head + i) % this.#buf.length] ?? 0;
    this.#buf = next;
    this.#head = 0;
  }
}

/** A FIFO of (expiry time, a, b) triples. */
export class TimedQueue {
  #times = new Float64Array(16);
  #a = new Int32Array(16);
  #b = new Int32Array(16);
  #head = 0;
  #size = 0;

  /** Number of queued entries. */
  get size(): number {
    return this.#size;
  }

  /** Appends an entry expiring at `timeMs` (must not precede the previous entry's time). */
  push(timeMs: number, a: number, b: number): void {
    if (this.#size === this.#times.length) this.#grow();
    const i = (this.#head + this.#size) % this.#times.length;
    this.#times[i] = timeMs;
    this.#a[i] = a;
    this.#b[i] = b;
    this.#size++;
  }

  /** Pops every entry due at or before `nowMs`, calling `visit` for each in order. */
  drain(nowMs: number, visit: (a: number, b: number) => void): void {
    while (this.#size > 0 && (this.#times[this.#head] ?? Infinity) <= nowMs) {
      const a = this.#a[this.#head] ?? 0;
      const b = this.#b[this.#head] ?? 0;
      this.#head = (this.#head + 1) % this.#times.length;
      this.#size--;
      visit(a, b);
    }
  }

  /** Entries as a flat array [timeMs, a, b, …] for a snapshot. */
  toArray(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.#size; k++) {
      const i = (this.#head + k) % this.#times.length;
      out.push(this.#times[i] ?? 0, this.#a[i] ?? 0, this.#b[i] ?? 0);
    }
    return out;
  }

  /** Rebuilds a queue from `toArray` output. */
  static from(flat: readonly number[]): TimedQueue {
    const q = new TimedQueue();
    for (let i = 0; i + 2 < flat.length; i += 3) q.push(flat[i] ?? 0, flat[i + 1] ?? 0, flat[i + 2] ?? 0);
    return q;
  }

  #grow(): void {
    const n = this.#times.length * 2;
    const times = new Float64Array(n);
    const a = new Int32Array(n);
    const b = new Int32Array(n);
    for (let k = 0; k < this.#size; k++) {
      const i = (this.#head + k) % this.#times.length;
      times[k] = this.#times[i] ?? 0;
      a[k] = this.#a[i] ?? 0;
      b[k] = this.#b[i] ?? 0;
    }
    this.#times = times;
    this.#a = a;
    this.#b = b;
    this.#head = 0;
  }
}
