/**
 * Metrics history (spec "Metrics history" and Limits: "in memory only, up
 * to 24 hours at 10-second resolution; longer ranges are downsampled;
 * history restarts with the control plane"). A ring of up to 8,640 samples
 * in typed arrays, grown as the samples come; not snapshotted, on purpose.
 *
 * Downsampling: 6h → 60 s and 24h → 240 s buckets (360 points each, like
 * 1h at 10 s). Gauges (totalSessions, byEncap) take the bucket's last
 * sample, so every point stays a real instant where Σ byEncap = total and the
 * newest point equals the newest sample; rates are bucket averages;
 * sessionsUp / sessionsDown are bucket sums ("per interval").
 */
import type { MetricsHistory } from "../src/schemas/metrics.ts";
import { SUB_STEP_SECONDS, isoTime } from "./clock.ts";
import type { PortLoad } from "./hardware.ts";

/** Samples retained: 24 h at 10 s. */
export const METRICS_CAPACITY = 8640;

/**
 * Samples the ring holds before its first growth. It doubles as samples come
 * (at most METRICS_CAPACITY): a full ring is 100 bytes a sample for four
 * ports, 0.85 MB, and a fleet of 1,000 appliances held 850 MB of zeros for
 * the first day of their uptime (issue #28).
 */
const FIRST_CAPACITY = 64;

/** Accepted history ranges and their point spacing in seconds. */
export const RANGES = {
  "1h": { seconds: 3600, interval: 10 },
  "6h": { seconds: 21_600, interval: 60 },
  "24h": { seconds: 86_400, interval: 240 },
} as const;
export type MetricsRange = keyof typeof RANGES;

/**
 * The point of an `intervalSeconds` range a sample at `timeMs` falls in: it covers (t - 10 s, t], so it goes by its
 * start (60 s points hold six samples).
 */
function bucketOf(timeMs: number, intervalSeconds: number): number {
  return Math.floor((timeMs - SUB_STEP_SECONDS * 1000) / (intervalSeconds * 1000));
}

/** Ring of 10 s samples. */
export class MetricsRing {
  readonly #ports: number;
  /** Samples the arrays hold now; until it reaches METRICS_CAPACITY the ring has never wrapped (head 0). */
  #allocated = FIRST_CAPACITY;
  #times = new Float64Array(FIRST_CAPACITY);
  #total = new Int32Array(FIRST_CAPACITY);
  #encap = new Int32Array(FIRST_CAPACITY * 4);
  #up = new Int32Array(FIRST_CAPACITY);
  #down = new Int32Array(FIRST_CAPACITY);
  #rx: Float64Array;
  #tx: Float64Array;
  #head = 0;
  #count = 0;

  constructor(ports: number) {
    this.#ports = ports;
    this.#rx = new Float64Array(FIRST_CAPACITY * ports);
    this.#tx = new Float64Array(FIRST_CAPACITY * ports);
  }

  /** Samples retained. */
  get size(): number {
    return this.#count;
  }

  /** Appends one sample, overwriting the oldest when full. */
  record(
    timeMs: number,
    total: number,
    byEncap: Int32Array,
    up: number,
    down: number,
    rx: Float64Array,
    tx: Float64Array,
  ): void {
    if (this.#count === this.#allocated && this.#allocated < METRICS_CAPACITY) this.#grow();
    const i = (this.#head + this.#count) % METRICS_CAPACITY;
    if (this.#count < METRICS_CAPACITY) this.#count++;
    else this.#head = (this.#head + 1) % METRICS_CAPACITY;
    this.#times[i] = timeMs;
    this.#total[i] = total;
    for (let e = 0; e < 4; e++) this.#encap[i * 4 + e] = byEncap[e] ?? 0;
    this.#up[i] = up;
    this.#down[i] = down;
    for (let p = 0; p < this.#ports; p++) {
      this.#rx[i * this.#ports + p] = rx[p] ?? 0;
      this.#tx[i * this.#ports + p] = tx[p] ?? 0;
    }
  }

  /**
   * Doubles the arrays (at most to METRICS_CAPACITY), keeping the samples where they are: the ring has not wrapped yet.
   */
  #grow(): void {
    const n = Math.min(METRICS_CAPACITY, this.#allocated * 2);
    const f64 = (old: Float64Array, width: number) => {
      const next = new Float64Array(n * width);
      next.set(old);
      return next;
    };
    const i32 = (old: Int32Array, width: number) => {
      const next = new Int32Array(n * width);
      next.set(old);
      return next;
    };
    this.#times = f64(this.#times, 1);
    this.#total = i32(this.#total, 1);
    this.#encap = i32(this.#encap, 4);
    this.#up = i32(this.#up, 1);
    this.#down = i32(this.#down, 1);
    this.#rx = f64(this.#rx, this.#ports);
    this.#tx = f64(this.#tx, this.#ports);
    this.#allocated = n;
  }

  /** Drops every sample (a reseed restarts the data plane). */
  clear(): void {
    this.#head = 0;
    this.#count = 0;
  }

  /**
   * Each port's rates at the newest point of `history("1h")`, without building the hour: the same bucket, summed in
   * the same order and rounded the same way. Status, the inventory and the scrape read them on every request, and
   * building the whole hour for its last point was 5-7 % of a fleet overview's CPU (issue #28).
   */
  newestPortRates(ports: readonly { portId: number; label: string }[]): PortLoad[] {
    const count = this.#count;
    const timeAt = (k: number): number => this.#times[(this.#head + k) % METRICS_CAPACITY] ?? 0;
    const { seconds, interval } = RANGES["1h"];
    const newest = count > 0 ? timeAt(count - 1) : 0;
    const from = newest - seconds * 1000;
    let first = count - 1;
    while (
      first > 0 &&
      timeAt(first - 1) > from &&
      bucketOf(timeAt(first - 1), interval) === bucketOf(newest, interval)
    )
      first--;
    return ports.map((p, port) => {
      let rx = 0;
      let tx = 0;
      if (port < this.#ports) {
        for (let k = first; k < count; k++) {
          const i = (this.#head + k) % METRICS_CAPACITY;
          rx += this.#rx[i * this.#ports + port] ?? 0;
          tx += this.#tx[i * this.#ports + port] ?? 0;
        }
      }
      const n = count - first;
      return {
        portId: p.portId,
        label: p.label,
        rxBps: count > 0 ? Math.round(rx / n) : 0,
        txBps: count > 0 ? Math.round(tx / n) : 0,
      };
    });
  }

  /** History for a range; unknown ranges fall back to 1h (spec Limits). */
  history(range: string | null | undefined, ports: readonly { portId: number; label: string }[]): MetricsHistory {
    const r =
      range !== null && range !== undefined && Object.hasOwn(RANGES, range)
        ? RANGES[range as MetricsRange]
        : RANGES["1h"];
    const out: MetricsHistory = {
      intervalSeconds: r.interval,
      times: [],
      totalSessions: [],
      byEncap: { ipoe: [], pppoeLocal: [], pppoeLac: [], l2tp: [] },
      sessionsUp: [],
      sessionsDown: [],
      ports: ports.map((p) => ({ portId: p.portId, label: p.label, rxBps: [], txBps: [] })),
    };
    if (this.#count === 0) return out;
    const newest = this.#times[(this.#head + this.#count - 1) % METRICS_CAPACITY] ?? 0;
    const from = newest - r.seconds * 1000;
    let bucket = Number.NaN;
    let n = 0;
    let last = -1;
    let up = 0;
    let down = 0;
    const rx = new Float64Array(this.#ports);
    const tx = new Float64Array(this.#ports);
    const flush = (): void => {
      if (last < 0) return;
      out.times.push(isoTime(this.#times[last] ?? 0));
      out.totalSessions.push(this.#total[last] ?? 0);
      out.byEncap.ipoe.push(this.#encap[last * 4] ?? 0);
      out.byEncap.pppoeLocal.push(this.#encap[last * 4 + 1] ?? 0);
      out.byEncap.pppoeLac.push(this.#encap[last * 4 + 2] ?? 0);
      out.byEncap.l2tp.push(this.#encap[last * 4 + 3] ?? 0);
      out.sessionsUp.push(up);
      out.sessionsDown.push(down);
      out.ports.forEach((p, k) => {
        p.rxBps.push(Math.round((rx[k] ?? 0) / n));
        p.txBps.push(Math.round((tx[k] ?? 0) / n));
      });
    };
    for (let k = 0; k < this.#count; k++) {
      const i = (this.#head + k) % METRICS_CAPACITY;
      const t = this.#times[i] ?? 0;
      if (t <= from) continue;
      const b = bucketOf(t, r.interval);
      if (b !== bucket) {
        flush();
        bucket = b;
        n = 0;
        up = 0;
        down = 0;
        rx.fill(0);
        tx.fill(0);
      }
      n++;
      last = i;
      up += this.#up[i] ?? 0;
      down += this.#down[i] ?? 0;
      for (let p = 0; p < this.#ports; p++) {
        rx[p] = (rx[p] ?? 0) + (this.#rx[i * this.#ports + p] ?? 0);
        tx[p] = (tx[p] ?? 0) + (this.#tx[i * this.#ports + p] ?? 0);
      }
    }
    flush();
    return out;
  }
}
