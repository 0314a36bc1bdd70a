/**
 * The login buckets (src/trust/login-limits.ts) from docs/decisions.md's numbers: a
 * burst of 10 per source address then one every 6 s, and a burst of 20 for
 * the whole appliance then 2 a second; beyond that, 429 with Retry-After.
 */
import { describe, expect, it } from "vitest";
import { takeLoginToken, type Bucket, type ThrottleDecision } from "../../src/trust/login-limits.ts";

const NOW = Date.UTC(2026, 10, 24, 9, 0, 0);

/**
 * Sends `count` logins at `atMs`, all from one source or each from its own; the last decision and the buckets after.
 */
function burst(
  count: number,
  atMs: number,
  oneSource: boolean,
): { last: ThrottleDecision; source: Bucket | undefined; total: Bucket | undefined } {
  let source: Bucket | undefined;
  let total: Bucket | undefined;
  const decisions: ThrottleDecision[] = [];
  for (let i = 0; i < count; i++) {
    const decision = takeLoginToken(oneSource ? source : undefined, total, atMs);
    decisions.push(decision);
    if (decision.ok) ({ source, total } = decision);
  }
  return { last: decisions.at(-1)!, source, total };
}

describe("login throttling per source address", () => {
  it("admits a burst of 10 at once", () => {
    expect(burst(10, NOW, true).last.ok).toBe(true);
  });

  it("refuses the 11th with a retry after 6 s", () => {
    expect(burst(11, NOW, true).last).toMatchObject({
      ok: false,
      reason: "throttled",
      scope: "source",
      retryAfterSeconds: 6,
    });
  });

  it("admits one more 6 s later, and not two", () => {
    const { source, total } = burst(10, NOW, true);
    const one = takeLoginToken(source, total, NOW + 6_000);
    expect(one.ok).toBe(true);
    if (!one.ok) throw new Error("expected a token");
    expect(takeLoginToken(one.source, one.total, NOW + 6_000)).toMatchObject({ ok: false, scope: "source" });
  });

  it("counts the wait from the refill so far: 2 s into the next token, 4 s are left", () => {
    const { source, total } = burst(10, NOW, true);
    expect(takeLoginToken(source, total, NOW + 2_000)).toMatchObject({ ok: false, retryAfterSeconds: 4 });
  });
});

describe("login throttling of the whole appliance", () => {
  it("admits 20 logins from 20 sources at once and refuses the 21st, retry after 1 s", () => {
    expect(burst(20, NOW, false).last.ok).toBe(true);
    expect(burst(21, NOW, false).last).toMatchObject({ ok: false, scope: "appliance", retryAfterSeconds: 1 });
  });

  it("admits two a second after the burst", () => {
    const { total } = burst(20, NOW, false);
    const first = takeLoginToken(undefined, total, NOW + 1_000);
    expect(first.ok).toBe(true);
    if (!first.ok) throw new Error("expected a token");
    const second = takeLoginToken(undefined, first.total, NOW + 1_000);
    expect(second.ok).toBe(true);
    if (!second.ok) throw new Error("expected a token");
    expect(takeLoginToken(undefined, second.total, NOW + 1_000)).toMatchObject({ ok: false, scope: "appliance" });
  });
});
