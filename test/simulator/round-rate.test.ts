import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundRate } from "../../simulator/traffic.ts";

// The traffic loop's rounding must give Math.round's result exactly, or counters would drift from what they were.
describe("roundRate", () => {
  it("equals Math.round at halves, just below halves and at the edges of its integer range", () => {
    for (const x of [
      0,
      0.5,
      1.5,
      2.5,
      0.49999999999999994,
      1e-300,
      1073741822.5,
      1073741823.5,
      1073741824.5,
      3e9 + 0.5,
      -0.5,
      -2.5,
      Infinity,
    ]) {
      expect(roundRate(x)).toBe(Math.round(x));
    }
    expect(roundRate(Number.NaN)).toBeNaN();
  });

  it("equals Math.round on any non-negative double", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2 ** 32, noNaN: true }), (x) => {
        expect(roundRate(x)).toBe(Math.round(x));
      }),
    );
  });
});
