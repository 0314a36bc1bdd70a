/** Bitmaps over a table's indices, as the model's indexes keep them (sessions, CGN bindings). */

/** A bitmap: bit i of word i >>> 5. */
export type Bits = Int32Array | Uint32Array;

export function setBit(bits: Bits, i: number): void {
  bits[i >>> 5] = (bits[i >>> 5] ?? 0) | (1 << (i & 31));
}

export function clearBit(bits: Bits, i: number): void {
  bits[i >>> 5] = (bits[i >>> 5] ?? 0) & ~(1 << (i & 31));
}

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Set bits in a bitmap's first `words` words. */
export function countBits(bits: Bits, words = bits.length): number {
  let total = 0;
  for (let w = 0; w < words; w++) total += popcount(bits[w] ?? 0);
  return total;
}

/** One page of a bitmap's set bits in ascending order, after skipping `offset` of them, and how many are set in all. */
export function pageOfBits(bits: Bits, offset: number, limit: number): { total: number; indices: number[] } {
  const indices: number[] = [];
  let total = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w] ?? 0;
    if (x === 0) continue;
    const n = popcount(x);
    if (total + n <= offset || indices.length >= limit) {
      total += n;
      continue;
    }
    while (x !== 0) {
      const bit = 31 - Math.clz32(x & -x);
      if (total >= offset && indices.length < limit) indices.push(w * 32 + bit);
      total++;
      x &= x - 1;
    }
  }
  return { total, indices };
}
