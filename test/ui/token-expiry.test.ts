/** A token's expiry as a person types it, against instants worked by hand. */
import { describe, expect, it } from "vitest";
import { expiryOf } from "../../ui/pages/token-expiry.ts";

const now = new Date("2026-12-01T12:00:00.000Z");

describe("a token's expiry", () => {
  it("is never when left empty or said so", () => {
    expect(expiryOf("", now)).toEqual({ ok: true, utc: null });
    expect(expiryOf(" Never ", now)).toEqual({ ok: true, utc: null });
  });

  it("is a span from now: 30d is thirty days, 12h twelve hours, 2w fourteen days", () => {
    expect(expiryOf("30d", now)).toEqual({ ok: true, utc: "2026-12-31T12:00:00.000Z" });
    expect(expiryOf("90 days", now)).toEqual({ ok: true, utc: "2027-03-01T12:00:00.000Z" });
    expect(expiryOf("12h", now)).toEqual({ ok: true, utc: "2026-12-02T00:00:00.000Z" });
    expect(expiryOf("2w", now)).toEqual({ ok: true, utc: "2026-12-15T12:00:00.000Z" });
  });

  it("counts months and years by the calendar", () => {
    expect(expiryOf("1m", now)).toEqual({ ok: true, utc: "2027-01-01T12:00:00.000Z" });
    expect(expiryOf("1y", now)).toEqual({ ok: true, utc: "2027-12-01T12:00:00.000Z" });
  });

  it("takes a date as the end of that day in UTC, or a full instant", () => {
    expect(expiryOf("2027-01-31", now)).toEqual({ ok: true, utc: "2027-01-31T23:59:59.000Z" });
    expect(expiryOf("2027-01-31 08:30", now)).toEqual({ ok: true, utc: "2027-01-31T08:30:00.000Z" });
    expect(expiryOf("2027-01-31T08:30:00Z", now)).toEqual({ ok: true, utc: "2027-01-31T08:30:00.000Z" });
  });

  it("says what is wrong with what cannot be an expiry", () => {
    expect(expiryOf("2026-11-30", now)).toEqual({ ok: false, problem: "That day is over: choose one to come." });
    expect(expiryOf("0d", now)).toMatchObject({ ok: false });
    expect(expiryOf("soon", now)).toEqual({
      ok: false,
      problem: "Type a span such as 30d, 12h or 1y, a date such as 2027-01-31, or leave it empty for never.",
    });
  });
});
