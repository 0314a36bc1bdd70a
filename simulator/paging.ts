/**
 * Paging and clamping rules shared by the list queries (spec Limits: each
 * list has a default page size and a clamp range; `offset` defaults to 0).
 */

/** Clamps a number into [min, max]; NaN becomes min. */
export function clamp(value: number, min: number, max: number): number {
  if (!(value >= min)) return min;
  return value > max ? max : value;
}

/** Effective offset and limit of a page request: limit defaulted then clamped to [1, max], offset at least 0. */
export function pageWindow(
  offset: number | null | undefined,
  limit: number | null | undefined,
  defaultLimit: number,
  maxLimit: number,
): { offset: number; limit: number } {
  return {
    offset: Math.max(0, Math.trunc(offset ?? 0) || 0),
    limit: clamp(Math.trunc(limit ?? defaultLimit), 1, maxLimit),
  };
}
