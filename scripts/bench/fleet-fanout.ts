/**
 * The fleet's two fan-outs as the web UI does them, from one appliance's
 * origin: the fleet overview (every peer's `system/status`,
 * ui/pages/fleet.tsx) and the subscriber search (every appliance's sessions
 * list filtered by username, the newest few its card shows,
 * ui/pages/search.tsx), each as fan-out reads of up to FAN_OUT_MAX
 * appliances (GET /twin/v1/fleet/read, ui/fan-out.ts). A browser opens at
 * most six HTTP/1.1 connections to one origin, so at most six requests are
 * in flight: the bench sends them over six connections, one after another on
 * each, which is what the page gets.
 */
import { auth } from "./fleet.ts";
import { FAN_OUT_MAX } from "../../src/schemas/fan-out.ts";
import { FIRST_ROWS } from "../../ui/pages/search-terms.ts";
import type { FanOutAnswer } from "../../src/schemas/fleet.ts";

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

/**
 * Reads `path` of every appliance of `names` from `base`, FAN_OUT_MAX a request, over `connections` at once; `matches`
 * reads what an answer found.
 */
async function fanOut(
  base: string,
  path: string,
  names: string[],
  connections: number,
  matches: (body: unknown) => number,
): Promise<FanOutFigures> {
  const slices: string[][] = [];
  for (let i = 0; i < names.length; i += FAN_OUT_MAX) slices.push(names.slice(i, i + FAN_OUT_MAX));
  const t0 = performance.now();
  let firstMs = NaN;
  let failed = 0;
  let found = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, slices.length) }, async () => {
      while (next < slices.length) {
        const slice = slices[next++]!;
        const response = await fetch(
          `${base}/twin/v1/fleet/read?${new URLSearchParams({ path, appliances: slice.join(",") })}`,
          { headers: auth },
        );
        if (!response.ok) {
          failed += slice.length;
          await response.body?.cancel();
          continue;
        }
        for (const row of (await response.json()) as FanOutAnswer[]) {
          if (row.status < 200 || row.status > 299) {
            failed++;
            continue;
          }
          const n = matches(row.body);
          found += n;
          if (n > 0 && Number.isNaN(firstMs)) firstMs = performance.now() - t0;
        }
      }
    }),
  );
  return { firstMs, allMs: performance.now() - t0, failed, found };
}

/**
 * The fleet overview: every appliance's status, `names[0]` (`base`'s own) included, though the page's own row follows
 * its live channel.
 */
export function fleetOverview(base: string, names: string[]): Promise<FanOutFigures> {
  return fanOut(base, "system/status", names, BROWSER_CONNECTIONS, () => 1);
}

/**
 * A fleet-wide username search: every appliance's newest matches, as many as the page's cards show, `names[0]`'s
 * (`base`'s own) included.
 */
export function fleetSearch(base: string, names: string[], username: string): Promise<FanOutFigures> {
  return fanOut(
    base,
    `sessions?username=${encodeURIComponent(username)}&limit=${FIRST_ROWS}`,
    names,
    BROWSER_CONNECTIONS,
    (body) => (body as { total: number }).total,
  );
}
