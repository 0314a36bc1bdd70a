/**
 * On a manual clock (BNG_CLOCK=manual, as here) interface counters read at the instant the clock was advanced
 * to, as a live clock's read between two 10 s steps (issue #26): advancing 15 s between scrapes must read as
 * a live 15 s scrape does, not as one step or two. Hand-worked: 5 s past a step is half of the step's bytes.
 */
import { describe, expect, it } from "vitest";
import { advance, get } from "./helpers.ts";
import type { InterfaceTable } from "../../src/schemas/system.ts";

const rxBytes = async () =>
  (await get<InterfaceTable>("/api/v1/system/interfaces")).interfaces
    .filter((r) => r.portId !== null)
    .map((r) => r.counters.rxBytes);
const asOf = async () => Date.parse((await get<InterfaceTable>("/api/v1/system/interfaces")).asOfUtc);

describe("interface counters on a manual clock", () => {
  it("read half a step's bytes 5 s past a step, and the whole step 10 s past it", async () => {
    await advance(1800);
    const atStep = await rxBytes();
    await advance(5);
    const half = await rxBytes();
    await advance(5);
    const whole = await rxBytes();
    for (const [i, start] of atStep.entries()) {
      const step = whole[i]! - start;
      expect(step, `port ${i}`).toBeGreaterThan(0);
      // Each read is whole bytes (floored), so half a step is within a byte of the exact half.
      expect(Math.abs(half[i]! - start - step / 2), `port ${i}: ${start} ${half[i]} ${whole[i]}`).toBeLessThanOrEqual(
        1,
      );
    }
  });

  it("say when they were read: asOfUtc moves with them, 5 s for 5 s advanced between steps", async () => {
    await advance(1800);
    const atStep = await asOf();
    await advance(5);
    expect((await asOf()) - atStep).toBe(5000);
    await advance(7);
    expect((await asOf()) - atStep).toBe(12_000);
  });
});
