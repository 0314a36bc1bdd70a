/**
 * Optimistic concurrency on the configuration: its one version, the history's
 * active version, as a strong entity tag (RFC 9110 §8.8.3), and the If-Match
 * precondition a write is judged by (RFC 9110 §13.1.1).
 */

/** The entity tag of configuration version `version`: `"v7"`. */
export const configETag = (version: number): string => `"v${version}"`;

/**
 * Whether `If-Match` holds for the current tag: `*` matches any current
 * version; otherwise any entity tag of the list must equal it by strong
 * comparison, so a weak `W/"…"` never matches.
 */
export function ifMatchHolds(ifMatch: string, current: string): boolean {
  if (ifMatch.trim() === "*") return true;
  return [...ifMatch.matchAll(/(W\/)?"[^"]*"/g)].some((tag) => tag[1] === undefined && tag[0] === current);
}
