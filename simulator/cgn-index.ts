/**
 * The CGN bindings list's indexes, kept by the model as bindings come and go
 * (issue #11: a filter reads indexes, never every binding per request).
 * Bitmaps over bindingIndex, the list's order: the live bindings, each
 * group's and each inside VRF's; and the bindings of each inside /24. The
 * public side needs no index of its own: a group's port blocks are laid out
 * by public address (cgn.ts), and each block's owner is its binding.
 */
import { clearBit, setBit } from "./bits.ts";

/** Bindings per inside /24: an `ip` filter visits the /24s its ranges cover. */
const BUCKET_BITS = 8;

export class BindingIndex {
  live: Uint32Array = new Uint32Array(0);
  readonly #groups: Uint32Array[];
  readonly #vrfs: Uint32Array[];
  readonly #inside = new Map<number, Set<number>>();

  constructor(groups: number, vrfs: number) {
    this.#groups = Array.from({ length: groups }, () => new Uint32Array(0));
    this.#vrfs = Array.from({ length: vrfs }, () => new Uint32Array(0));
  }

  /** Room for bindings 0 … capacity − 1. */
  grow(capacity: number): void {
    const words = Math.ceil(capacity / 32);
    if (words <= this.live.length) return;
    const grown = (bits: Uint32Array): Uint32Array => {
      const next = new Uint32Array(words);
      next.set(bits);
      return next;
    };
    this.live = grown(this.live);
    this.#groups.forEach((bits, i) => (this.#groups[i] = grown(bits)));
    this.#vrfs.forEach((bits, i) => (this.#vrfs[i] = grown(bits)));
  }

  add(b: number, group: number, vrf: number, insideIp: number): void {
    this.#mark(b, group, vrf, true);
    const bucket = insideIp >>> BUCKET_BITS;
    let held = this.#inside.get(bucket);
    if (!held) this.#inside.set(bucket, (held = new Set()));
    held.add(b);
  }

  remove(b: number, group: number, vrf: number, insideIp: number): void {
    this.#mark(b, group, vrf, false);
    const bucket = insideIp >>> BUCKET_BITS;
    const held = this.#inside.get(bucket);
    held?.delete(b);
    if (held?.size === 0) this.#inside.delete(bucket);
  }

  /** A group's bindings; an empty bitmap for an unknown group. */
  group(gi: number): Uint32Array {
    return this.#groups[gi] ?? new Uint32Array(this.live.length);
  }

  /** An inside VRF's bindings. */
  vrf(vi: number): Uint32Array {
    return this.#vrfs[vi] ?? new Uint32Array(this.live.length);
  }

  /** Sets in `bits` the bindings whose inside address lies in one of `ranges`; `insideIp` reads a binding's. */
  markInside(ranges: readonly { first: number; last: number }[], insideIp: Uint32Array, bits: Uint32Array): void {
    for (const r of ranges) {
      const lo = r.first >>> BUCKET_BITS;
      const hi = r.last >>> BUCKET_BITS;
      // A wide range (`ip=100.`) covers more /24s than hold bindings: then the buckets held are visited instead.
      const buckets =
        hi - lo + 1 > this.#inside.size ? [...this.#inside.keys()].filter((k) => k >= lo && k <= hi) : range(lo, hi);
      for (const bucket of buckets) {
        for (const b of this.#inside.get(bucket) ?? []) {
          const ip = insideIp[b] ?? 0;
          if (ip >= r.first && ip <= r.last) setBit(bits, b);
        }
      }
    }
  }

  #mark(b: number, group: number, vrf: number, on: boolean): void {
    const write = on ? setBit : clearBit;
    write(this.live, b);
    const g = this.#groups[group];
    if (g) write(g, b);
    const v = this.#vrfs[vrf];
    if (v) write(v, b);
  }
}

const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
