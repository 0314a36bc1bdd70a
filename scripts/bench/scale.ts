/**
 * `npm run bench -- --scale [--count N] [--profile <name>]`: the fleet
 * figures of issues #11 and #28. N appliances (100 unless told) of one
 * profile (large unless told) under one launcher, bench-1 peering with every
 * other: how long until every appliance answers, the wall and CPU time of 300
 * simulated seconds of bring-up on all of them at once, workerd's memory, a
 * 100-row page's single-client latency, and from bench-1 the fleet overview
 * and a fleet-wide subscriber search as the web UI does them
 * (scripts/bench/fleet-fanout.ts), first cold, then warm.
 */
import { availableParallelism } from "node:os";
import { freePortBase } from "../harness/fleet-process.ts";
import { latency } from "./load.ts";
import {
  advance,
  auth,
  cpuSeconds,
  fmt,
  getJson,
  launchBenchFleet,
  memoryKiB,
  shippedProfile,
  workerdPids,
} from "./fleet.ts";
import { BROWSER_CONNECTIONS, fleetOverview, fleetSearch, type FanOutFigures } from "./fleet-fanout.ts";
import { FAN_OUT_MAX } from "../../src/schemas/fan-out.ts";
import { UNCHANGED_NOTE } from "../bundle-digest.ts";

/** Requests in flight at once while bringing the fleet up: enough to keep workerd busy, few enough not to time out. */
const PARALLEL = 10;

/** Runs `task` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

/** Runs the fleet bench and prints its report. */
export async function scaleBench(options: { profile: string; count: number; shards: number }): Promise<void> {
  const profile = await shippedProfile(options.profile);
  const { count } = options;
  console.log(
    `bngfleet fleet benchmark: ${count} appliances of profile \`${options.profile}\` ` +
      `(≈${(count * profile.population.steadyStateSessions).toLocaleString("en-GB")} ` +
      `sessions), one ` +
      `launcher, ` +
      `${options.shards === 1 ? "one workerd process" : `${options.shards} workerd processes (BNG_SHARDS)`}, ` +
      `plain HTTP\n`,
  );
  const portBase = await freePortBase(count);
  const t0 = performance.now();
  // Readiness waits on every listener in turn; a fleet of a hundred needs longer than the e2e tests' minute.
  const { fleet, bases, names, heap } = await launchBenchFleet("bench-scale", {
    count,
    profile: options.profile,
    portBase,
    peers: count > 1 ? "all" : undefined,
    readyTimeoutMs: 600_000 + count * 1_000,
    shards: options.shards,
  });
  try {
    const listening = performance.now() - t0;
    // An object opens (configuration seeded, accounts, the empty data plane) at its first authenticated request.
    const opened = await pooled(bases, PARALLEL, (b) => getJson<{ total: number }>(`${b}/api/v1/sessions/summary`));
    // The clock runs from each object's open (the readiness probe's health check), so a fleet slow to answer is not
    // empty here.
    const sessionsEmpty = opened.reduce((n, s) => n + s.total, 0);
    const ready = performance.now() - t0;
    // Every workerd process together (one per shard).
    const workerd = workerdPids(fleet.pid);
    const memoryNow = () => {
      const each = workerd.map((pid) => memoryKiB(pid));
      return {
        rss: each.reduce((n, m) => n + (m?.rss ?? NaN), 0),
        peak: each.reduce((n, m) => n + (m?.peak ?? NaN), 0),
      };
    };
    const cpuNow = () => {
      const each = workerd.map((pid) => cpuSeconds(pid));
      return {
        user: each.reduce((n, c) => n + (c?.user ?? NaN), 0),
        system: each.reduce((n, c) => n + (c?.system ?? NaN), 0),
      };
    };
    const rssEmpty = memoryNow().rss;
    const heapEmpty = await heap();
    const bundle = fleet.output().includes(UNCHANGED_NOTE)
      ? "the Worker bundle unchanged since its last build, not built"
      : "the Worker bundle built in this launch";
    console.log(
      `  ready               every listener answering health ` +
        `in ${fmt(listening / 1000)} s, every appliance answering an authenticated read ` +
        `in ${fmt(ready / 1000)} s (goal ≤ 10 s at 100 × ` +
        `large); ${bundle}`,
    );
    const rssEmptyCollected = memoryNow().rss;
    console.log(
      `  workerd RSS empty   ${fmt(rssEmpty / 1024, 0)} MiB ` +
        `(${fmt(rssEmpty / 1024 / count)} MiB per ` +
        `appliance), ${fmt(rssEmptyCollected / 1024, 0)} MiB after a full collection; JS ` +
        `heap ${fmt((heapEmpty.usedBytes + heapEmpty.backingStoreBytes) / 2 ** 20 / count)} ` +
        `MiB per appliance; ${sessionsEmpty.toLocaleString("en-GB")} sessions already up ` +
        `(each clock runs from its object's open)`,
    );

    // 300 simulated seconds on every appliance, one scenario action each (the model runs them as 30 steps of 10 s),
    // at most PARALLEL at once. Each action is a request, audited, and moves the stored clock lead: a commit workerd
    // syncs to disk while the process's isolate waits. In 30 actions of 10 s, 100 × large spent 4-5 s of a 33 s
    // bring-up waiting on those syncs, and 1,000 × default's 30,000 actions cost three times the CPU of one each
    // (docs/benchmark.md, "V8's defaults for every fleet").
    const t1 = performance.now();
    const cpu1 = cpuNow();
    const sessions = await pooled(bases, PARALLEL, (b) => advance(b, 300));
    const bringUp = performance.now() - t1;
    const cpu2 = cpuNow();
    const total = sessions.reduce((a, b) => a + b, 0);
    const cpuUsed = cpu2.user - cpu1.user + cpu2.system - cpu1.system;
    console.log(
      `  bring-up            300 simulated s on all ${count} in ${fmt(bringUp / 1000)} ` +
        `s wall, ${total.toLocaleString("en-GB")} sessions in all (goal ≤ 30 s at 100 × ` +
        `large, ≤ 60 s at 1,000 × default)`,
    );
    // The machine is shared: CPU time is steadier than wall time, and CPU over the cores is the wall time an idle
    // machine would allow.
    console.log(
      `                      workerd CPU meanwhile: ${fmt(cpu2.user - cpu1.user)} s ` +
        `user, ${fmt(cpu2.system - cpu1.system)} s ` +
        `system${workerd.length > 1 ? ` over ${workerd.length} processes` : ""}; ` +
        `${fmt(cpuUsed / Math.min(availableParallelism(), workerd.length))} ` +
        `s if every core were the fleet's alone`,
    );

    const memory = memoryNow();
    const rss = memory.rss;
    console.log(
      `  workerd RSS         ${fmt(rss / 1024, 0)} MiB at full size, ` +
        `peak ${fmt(memory.peak / 1024, 0)} ` +
        `MiB${workerd.length > 1 ? " (sums over the processes)" : ""} (goal ≤ 4 GB at ` +
        `100 × large, ≤ 6 GB at 1,000 × ` +
        `default); ${fmt((rss - rssEmpty) / 1024 / count)} MiB growth per appliance`,
    );
    const heapFull = await heap();
    // Garbage the isolate had not yet collected is in the RSS above; what the process keeps after a collection is the
    // floor.
    console.log(`                      ${fmt(memoryNow().rss / 1024, 0)} MiB RSS after a full collection`);
    const held = heapFull.usedBytes + heapFull.backingStoreBytes - heapEmpty.usedBytes - heapEmpty.backingStoreBytes;
    console.log(
      `  JS heap            ` +
        ` ${fmt((heapFull.usedBytes + heapFull.backingStoreBytes) / 2 ** 20, 0)} MiB in ` +
        `the Worker's isolate${options.shards > 1 ? "s" : ""} after a full collection ` +
        `(typed arrays included); ${fmt(held / 2 ** 20 / count)} MiB held per appliance`,
    );
    const page = await latency(`${bases[0]}/api/v1/sessions?limit=100`, auth, "fresh");
    console.log(
      `  100-row page        p50 ${fmt(page.p50, 2)} ms, p95 ${fmt(page.p95, 2)} ms, ` +
        `single client, on bench-1 (goal: p50 as with two appliances)`,
    );
    if (count > 1) {
      // A username that matches on every appliance: the subscriber numbers 0001200-0001299 of each one's base.
      const needle = "sub00012";
      const show = (what: string, run: string, f: FanOutFigures, cpu: number) =>
        console.log(
          `  ${what.padEnd(19)} ${run}: first ${fmt(f.firstMs / 1000, 2)} s, all ${count} ` +
            `in ${fmt(f.allMs / 1000, 2)} ` +
            `s, ${f.found.toLocaleString("en-GB")} ${what === "fleet overview" ? "answers" : "matches"}, ${f.failed} ` +
            `failed; workerd CPU ${fmt(cpu, 2)} s (goal all ≤ 1 s)`,
        );
      const cpuTotal = () => {
        const c = cpuNow();
        return c.user + c.system;
      };
      console.log(
        `  (from bench-1 as its web UI asks: every appliance through fan-out reads ` +
          `of ${FAN_OUT_MAX}, ${BROWSER_CONNECTIONS} requests at once as a browser opens ` +
          `to one origin over HTTP/1.1)`,
      );
      for (const [what, run] of [
        ["fleet overview", () => fleetOverview(bases[0]!, names)],
        ["fleet search", () => fleetSearch(bases[0]!, names, needle)],
      ] as const) {
        for (const label of ["cold", "warm", "warm"]) {
          const c0 = cpuTotal();
          const figures = await run();
          show(what, label, figures, cpuTotal() - c0);
        }
      }
    }

    // A live fleet writes each appliance's snapshot once its stored one lags nine simulated minutes, and the write
    // leaves that object's SQLite page cache full (2 MB by default; workerd allows no PRAGMA cache_size): memory
    // once every appliance has written one, which the figures at 300 s do not yet hold.
    await pooled(bases, PARALLEL, (b) => advance(b, 300));
    await heap();
    const settled = memoryNow();
    console.log(
      `  workerd RSS         ${fmt(settled.rss / 1024, 0)} MiB after 600 simulated s ` +
        `(every appliance has written its first snapshot), after a full ` +
        `collection; ${fmt((settled.rss - rss) / 1024 / count)} MiB more per appliance ` +
        `than at 300 s`,
    );
  } catch (error) {
    // What the launcher and workerd said last is usually why (a crashed or reset object).
    console.error(`\nThe launcher's last output:\n${fleet.output().split("\n").slice(-40).join("\n")}`);
    throw error;
  } finally {
    await fleet.stop();
  }
}
