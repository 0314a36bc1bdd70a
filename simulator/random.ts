/**
 * The simulator's only source of randomness: sfc32 (Chris Doty-Humphrey's
 * Small Fast Counting generator, PractRand-clean to 2^64 bytes). Chosen over
 * Math.random because the state is four 32-bit words we can snapshot, and
 * over xoshiro because it needs no 64-bit arithmetic in JavaScript.
 */

/** The four state words of a generator, in a form JSON can hold. */
export type RandomState = readonly [number, number, number, number];

/** A seeded, snapshot-able pseudo-random stream. */
export class Random {
  #a = 0;
  #b = 0;
  #c = 0;
  #d = 0;

  /** Seeds the stream from a 32-bit integer via splitmix32, then discards 15 outputs to decorrelate close seeds. */
  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      return mix32(s);
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = 1;
    for (let i = 0; i < 15; i++) this.uint32();
  }

  /** Rebuilds a stream from a saved state. */
  static fromState(state: RandomState): Random {
    const r = new Random(0);
    r.#a = state[0] >>> 0;
    r.#b = state[1] >>> 0;
    r.#c = state[2] >>> 0;
    r.#d = state[3] >>> 0;
    return r;
  }

  /** The current state, enough to resume the stream exactly. */
  state(): RandomState {
    return [this.#a, this.#b, this.#c, this.#d];
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /**
   * A standard normal deviate (Box-Muller; V8 is the only engine we target, so Math.log/cos agree everywhere we run).
   */
  gaussian(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A Poisson-distributed count with mean lambda: Knuth's product method below 30, a rounded normal above. */
  poisson(lambda: number): number {
    if (!(lambda > 0)) return 0;
    if (lambda < 30) {
      const limit = Math.exp(-lambda);
      let k = 0;
      let p = this.float();
      while (p > limit) {
        k++;
        p *= this.float();
      }
      return k;
    }
    return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.gaussian()));
  }

  /** Picks an index from a cumulative weight table (last entry = total). */
  pickCumulative(cumulative: Float64Array | readonly number[]): number {
    const total = cumulative[cumulative.length - 1] ?? 0;
    return pickFromCumulative(cumulative, this.float() * total);
  }
}

/** A 32-bit avalanche mixer (the splitmix32 / murmur3 finaliser). */
export function mix32(x: number): number {
  let z = x >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A stable uniform in [0, 1) for (seed, key, salt). Subscriber attributes
 * come from this rather than from the stream so that a subscriber keeps its
 * MAC, plan and realm across reconnects without consuming random draws.
 */
export function hashUnit(seed: number, key: number, salt: number): number {
  const h = mix32(mix32(seed ^ Math.imul(salt, 0x27d4eb2d)) ^ Math.imul(key + 1, 0x9e3779b1));
  return h / 4294967296;
}

/** A stable 32-bit integer for (seed, key, salt). */
export function hash32(seed: number, key: number, salt: number): number {
  return mix32(mix32(seed ^ Math.imul(salt, 0x165667b1)) ^ Math.imul(key + 1, 0x85ebca77));
}

/** Builds a cumulative table from weights. */
export function cumulativeWeights(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    out[i] = sum;
  });
  return out;
}

/** Index of the first cumulative entry above x (binary search). */
export function pickFromCumulative(cumulative: Float64Array | readonly number[], x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] ?? 0) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
