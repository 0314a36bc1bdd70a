/**
 * The fleet's two fan-outs as the web UI does them, from one appliance's
 * origin through the fleet proxy: the fleet overview (every appliance's
 * `system/status`, ui/pages/fleet.tsx) and the subscriber search (every
 * appliance's sessions list filtered by username, the first page of 50,
 * ui/pages/search.tsx). A browser opens at most six HTTP/1.1 connections to
 * one origin, so however many requests the page starts, at most six are in
 * flight: the bench sends them over six connections, one after another on
 * each, which is what the page gets.
 */
import { auth } from "./fleet.ts";

/** Chromium's connections per origin over HTTP/1.1 (the launcher's listener): what bounds a page's fan-out. */
export const BROWSER_CONNECTIONS = 6;

export interface FanOutFigures {
  /** Milliseconds from the start to the first answer with a match (the search) or the first answer (the overview). */
  firstMs: number;
  /** Milliseconds until every appliance has answered. */
  allMs: number;
  /** Answers that were not 2xx. */
  failed: number;
  /** Matches over every appliance (the search), or answers (the overview). */
  found: number;
}

/** GETs `paths` (relative to `base`) over `connections` at once, in order; `matches` reads what an answer found. */
async function fanOut(base: string, paths: string[], connections: number, matches: (body: unknown) => number): Promise<FanOutFigures> {
  const t0 = performance.now();
  let firstMs = NaN;
  let failed = 0;
  let found = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, paths.length) }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const response = await fetch(`${base}${path}`, { headers: auth });
        const body = (await response.json()) as unknown;
        if (!response.ok) {
          failed++;
          continue;
        }
        const n = matches(body);
        found += n;
        if (n > 0 && Number.isNaN(firstMs)) firstMs = performance.now() - t0;
      }
    }),
  );
  return { firstMs, allMs: performance.now() - t0, failed, found };
}

/** An appliance's path as the pages ask it: the first (the appliance the page is on) directly, every peer through its proxy. */
const proxied = (name: string, path: string, i: number) => (i === 0 ? `/api/v1/${path}` : `/api/v1/fleet/${encodeURIComponent(name)}/${path}`);

/** The fleet overview: every appliance's status, `names[0]` being `base`'s own. */
export function fleetOverview(base: string, names: string[]): Promise<FanOutFigures> {
  return fanOut(base, names.map((n, i) => proxied(n, "system/status", i)), BROWSER_CONNECTIONS, () => 1);
}

/** A fleet-wide username search: every appliance's first 50 matches, `names[0]` being `base`'s own. */
export function fleetSearch(base: string, names: string[], username: string): Promise<FanOutFigures> {
  const query = `sessions?username=${encodeURIComponent(username)}&limit=50`;
  return fanOut(base, names.map((n, i) => proxied(n, query, i)), BROWSER_CONNECTIONS, (body) => (body as { total: number }).total);
}
