/**
 * Simulated time. The model never reads a wall clock: the caller passes the
 * start instant and then advances time explicitly, in fixed 10-second
 * sub-steps (the spec's native metrics resolution, "10-second resolution").
 */

/** Length of one simulation sub-step in seconds. */
export const SUB_STEP_SECONDS = 10;
/** Length of one simulation sub-step in milliseconds. */
export const SUB_STEP_MS = SUB_STEP_SECONDS * 1000;

/** Formats epoch milliseconds as an ISO 8601 UTC string (the spec's date-time). */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/**
 * The value of a 24-point hourly curve at a local time, linearly interpolated
 * between hours so that rates do not jump on the hour.
 */
export function dailyFactor(curve: readonly number[], epochMs: number, utcOffsetMinutes: number): number {
  const minuteOfDay = (((epochMs / 60_000 + utcOffsetMinutes) % 1440) + 1440) % 1440;
  const hour = Math.floor(minuteOfDay / 60);
  const frac = (minuteOfDay - hour * 60) / 60;
  const a = curve[hour % 24] ?? 1;
  const b = curve[(hour + 1) % 24] ?? 1;
  return a + (b - a) * frac;
}
