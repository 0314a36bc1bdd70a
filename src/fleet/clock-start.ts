/**
 * BNG_CLOCK_START: the instant a fresh appliance's simulated clock starts at.
 * Traffic, churn and outages follow the simulated time of day, so the tests
 * pin it (vitest.config.ts) and no result depends on the hour the suite runs;
 * an operator may set it to rehearse a given hour. A leaf module.
 */

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The pinned start in epoch milliseconds, or null for the wall clock (unset, or not an ISO 8601 instant with its zone).
 */
export function clockStartOf(env: { BNG_CLOCK_START?: string | undefined }): number | null {
  const text = env.BNG_CLOCK_START?.trim();
  if (!text) return null;
  const ms = Date.parse(text);
  if (!ISO_INSTANT.test(text) || Number.isNaN(ms)) {
    console.warn(
      `BNG_CLOCK_START '${text}' is not an ISO 8601 instant with its zone (such as ` +
        `2026-03-02T09:00:00Z): the wall clock is used`,
    );
    return null;
  }
  return ms;
}
