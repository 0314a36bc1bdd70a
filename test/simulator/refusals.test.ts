/** Refusals are domain values; the HTTP layer alone gives each its status (the spec's status table). */
import { describe, expect, it } from "vitest";
import { refusalError, unwrap } from "../../src/http/refusal.ts";
import { refuse, type Refusal } from "../../src/schemas/outcome.ts";

const CASES: [Refusal, number][] = [
  [refuse("not-found", "no such thing"), 404],
  [refuse("conflict", "already there"), 409],
  [refuse("bad-credentials", "wrong password"), 401],
  [refuse("locked", "locked out", { retryAfterSeconds: 900 }), 423],
  [refuse("throttled", "slow down", { retryAfterSeconds: 7 }), 429],
  [refuse("forbidden", "not yours"), 403],
  [refuse("invalid", "bad value", { pointer: "#/name" }), 400],
  [
    refuse("rejected", "the configuration change was rejected", {
      errors: [{ in: "config", pointer: "#/lists/vrfs/a/tableId", detail: "reserved" }],
    }),
    422,
  ],
  [refuse("upstream", "the identity provider failed"), 502],
];

describe("refusal statuses", () => {
  it.each(CASES)("%o answers %i with its detail", (refusal, status) => {
    const error = refusalError(refusal);
    expect([error.status, error.message]).toEqual([status, refusal.detail]);
  });

  it("sends Retry-After with a lockout and a throttle", () => {
    expect(refusalError(refuse("locked", "locked out", { retryAfterSeconds: 900 })).headers).toEqual({
      "retry-after": "900",
    });
    expect(refusalError(refuse("throttled", "slow down", { retryAfterSeconds: 7 })).headers).toEqual({
      "retry-after": "7",
    });
  });

  it("lists every rejected value of a 422, and names the field of a 400", () => {
    const errors = [{ in: "config" as const, pointer: "#/lists/vrfs/a/tableId", detail: "reserved" }];
    expect(refusalError(refuse("rejected", "rejected", { errors })).errors).toEqual(errors);
    expect(refusalError(refuse("invalid", "bad value", { pointer: "#/name" })).errors).toEqual([
      { in: "body", pointer: "#/name", detail: "bad value" },
    ]);
  });

  it("unwraps a success to itself and throws a refusal's error", () => {
    expect(unwrap({ ok: true, version: 3 })).toEqual({ ok: true, version: 3 });
    expect(() => unwrap(refuse("not-found", "no such thing"))).toThrow(
      expect.objectContaining({ status: 404, message: "no such thing" }),
    );
  });
});
