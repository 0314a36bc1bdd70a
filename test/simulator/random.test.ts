import { describe, expect, it } from "vitest";
import { Random, hashUnit } from "../../simulator/random.ts";

describe("the seeded random stream", () => {
  it("repeats exactly for one seed and differs between seeds", () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const xs = Array.from({ length: 100 }, () => a.uint32());
    expect(Array.from({ length: 100 }, () => b.uint32())).toEqual(xs);
    expect(Array.from({ length: 100 }, () => c.uint32())).not.toEqual(xs);
  });

  it("resumes from a saved state", () => {
    const a = new Random(7);
    for (let i = 0; i < 10; i++) a.uint32();
    const b = Random.fromState(a.state());
    expect(Array.from({ length: 20 }, () => b.float())).toEqual(Array.from({ length: 20 }, () => a.float()));
  });

  it("draws uniform floats and Poisson counts with the right means", () => {
    const r = new Random(1);
    const n = 20_000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += r.float();
    expect(sum / n).toBeCloseTo(0.5, 1);
    for (const lambda of [0.5, 4, 250]) {
      let total = 0;
      for (let i = 0; i < 4000; i++) total += r.poisson(lambda);
      expect(total / 4000).toBeGreaterThan(lambda * 0.93);
      expect(total / 4000).toBeLessThan(lambda * 1.07);
    }
  });

  it("hashes subscriber keys to stable uniforms", () => {
    expect(hashUnit(1, 2, 3)).toBe(hashUnit(1, 2, 3));
    expect(hashUnit(1, 2, 3)).not.toBe(hashUnit(1, 3, 3));
    expect(hashUnit(1, 2, 3)).not.toBe(hashUnit(2, 2, 3));
  });
});
