/**
 * The bench's two ways of loading an endpoint: throughput under wrk (one
 * thread, 10 connections, as the figures were taken) and single-client
 * latency from this process (one request at a time on a kept-alive connection).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** wrk's settings: the figures were taken with `wrk -t1 -c10`. */
export const CONCURRENCY = 10;
const THREADS = 1;

/** The q-quantile of ascending values (nearest rank). */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

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

/** Requests per second wrk sustains against one URL for `seconds`; a non-2xx answer fails the bench (it would measure an error page). */
export async function throughput(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const args = [`-t${THREADS}`, `-c${CONCURRENCY}`, `-d${seconds}s`];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const { stdout } = await run("wrk", [...args, url], { maxBuffer: 1 << 20 });
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (errors) throw new Error(`${url}: ${errors[1]} answers were not 2xx under load\n${stdout}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!rate) throw new Error(`wrk printed no rate for ${url}:\n${stdout}`);
  return Number(rate[1]);
}

/** p50 and p95 in ms of `n` requests sent one after another (a single client), after a few unmeasured ones. */
export async function latency(url: string, headers: Record<string, string>, n = 100): Promise<{ p50: number; p95: number }> {
  const once = async () => {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}
