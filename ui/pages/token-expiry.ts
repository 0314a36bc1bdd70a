/**
 * When a new token stops working, as a person says it: empty or "never", a
 * span from now (`30d`, `12h`, `2w`, `1y`, `90 days`), a date (the end of
 * that day, UTC) or a full instant. Pure: `now` is given.
 */

const UNITS: Record<string, number> = {
  h: 3600e3,
  hour: 3600e3,
  hours: 3600e3,
  d: 86_400e3,
  day: 86_400e3,
  days: 86_400e3,
  w: 7 * 86_400e3,
  week: 7 * 86_400e3,
  weeks: 7 * 86_400e3,
};

/** The instant (ISO 8601, UTC) a typed expiry means, null for never, or a problem in words. */
export function expiryOf(text: string, now: Date): { ok: true; utc: string | null } | { ok: false; problem: string } {
  const t = text.trim().toLowerCase();
  if (t === "" || t === "never") return { ok: true, utc: null };
  const span = /^(\d{1,4})\s*(h|hours?|d|days?|w|weeks?|m|months?|y|years?)$/.exec(t);
  if (span) {
    const n = Number(span[1]);
    const unit = span[2]!;
    const at = new Date(now.getTime());
    // Months and years by the calendar (30d is thirty days; 1m is the same day next month).
    if (/^(m|months?)$/.test(unit)) at.setUTCMonth(at.getUTCMonth() + n);
    else if (/^(y|years?)$/.test(unit)) at.setUTCFullYear(at.getUTCFullYear() + n);
    else at.setTime(at.getTime() + n * UNITS[unit]!);
    if (n === 0)
      return { ok: false, problem: "A token must live for some time: type 30d, a date, or leave it empty for never." };
    return { ok: true, utc: at.toISOString() };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const end = Date.parse(`${t}T23:59:59.000Z`);
    if (!Number.isFinite(end)) return { ok: false, problem: "That is not a date: type it as 2027-01-31." };
    return end <= now.getTime()
      ? { ok: false, problem: "That day is over: choose one to come." }
      : { ok: true, utc: new Date(end).toISOString() };
  }
  const instant = Date.parse(
    t
      .replace(" ", "T")
      .replace(/ ?utc$/, "Z")
      .toUpperCase(),
  );
  if (Number.isFinite(instant) && /^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}/.test(t)) {
    return instant <= now.getTime()
      ? { ok: false, problem: "That time has passed: choose one to come." }
      : { ok: true, utc: new Date(instant).toISOString() };
  }
  return {
    ok: false,
    problem: "Type a span such as 30d, 12h or 1y, a date such as 2027-01-31, or leave it empty for never.",
  };
}
