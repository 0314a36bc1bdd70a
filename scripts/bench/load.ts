/**
 * The bench's two ways of loading an endpoint: throughput under wrk (one
 * thread, 10 connections, as the figures were taken) and single-client
 * latency from this process (one request at a time on a kept-alive connection).
 */
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** wrk's settings: the figures were taken with `wrk -t1 -c10`. */
export const CONCURRENCY = 10;
const THREADS = 1;

/** The q-quantile of ascending values (nearest rank). */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Fails early with a hint when wrk is not installed (it is not an npm package). */
export async function requireWrk(): Promise<void> {
  try {
    await run("wrk", ["--version"]).catch((error: { stdout?: string }) => {
      // wrk --version prints its banner and exits 1.
      if (!String(error.stdout ?? "").includes("wrk")) throw error;
    });
  } catch {
    throw new Error("the bench loads endpoints with wrk: install it first (apt-get install wrk)");
  }
}

/**
 * How a sessions page is asked for again and again: `polled`, the same page each time (as a dashboard or a web UI
 * asks it; the appliance serves it from its page memo until its model next steps or a session comes or goes,
 * simulator/page-texts.ts), or `fresh`, a page not yet served each time (the offset moves on: 0 to 999), so every
 * request filters and renders: a page's own cost. A fresh URL has a query already (`?limit=100`); the offset is added
 * to it.
 */
export type Asking = "polled" | "fresh";

/** Fresh pages' offsets run from 0 to one less than this, far more pages than the memo keeps. */
const FRESH_PAGES = 1000;

/** wrk's request hook for fresh pages, written once. */
let freshScript: string | undefined;
function freshPagesScript(): string {
  if (freshScript === undefined) {
    freshScript = path.join(tmpdir(), `bngfleet-bench-fresh-${process.pid}.lua`);
    const script = freshScript;
    writeFileSync(
      script,
      `local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, ` +
        `wrk.path .. "&offset=" .. (n % ${FRESH_PAGES}))\nend\n`,
    );
    process.once("exit", () => rmSync(script, { force: true }));
  }
  return freshScript;
}

/**
 * Requests per second wrk sustains against one URL for `seconds`; a non-2xx answer fails the bench (it would measure an
 * error page).
 */
export async function throughput(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  asking: Asking = "polled",
): Promise<number> {
  const args = [`-t${THREADS}`, `-c${CONCURRENCY}`, `-d${seconds}s`];
  if (asking === "fresh") args.push("-s", freshPagesScript());
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const { stdout } = await run("wrk", [...args, url], { maxBuffer: 1 << 20 });
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (errors) throw new Error(`${url}: ${errors[1]} answers were not 2xx under load\n${stdout}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!rate) throw new Error(`wrk printed no rate for ${url}:\n${stdout}`);
  return Number(rate[1]);
}

/** Requests a latency figure is taken from, and the time they may take in all. */
const LATENCY_REQUESTS = 100;
const LATENCY_BUDGET_MS = 10_000;

/**
 * p50 and p95 in ms of LATENCY_REQUESTS requests sent one after another (a single client), after a few unmeasured ones;
 * fewer (at least 10) when they take longer than LATENCY_BUDGET_MS in all, so one slow filter does not hold the bench
 * for minutes.
 */
export async function latency(
  url: string,
  headers: Record<string, string>,
  asking: Asking = "polled",
): Promise<{ p50: number; p95: number }> {
  let sent = 0;
  const once = async () => {
    const t0 = performance.now();
    const response = await fetch(asking === "fresh" ? `${url}&offset=${++sent % FRESH_PAGES}` : url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  const deadline = performance.now() + LATENCY_BUDGET_MS;
  for (let i = 0; i < LATENCY_REQUESTS && (i < 10 || performance.now() < deadline); i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}
