/**
 * `npm run soak [-- --minutes N] [--rate R] [--streams S] [--profile P] [--listener relay]`:
 * issue #28's soak. A three-appliance fleet (bench-1 peering with the other
 * two) under the real launcher, for an hour of wall clock unless told, with
 * 24 simulated hours passing in it (the clock advanced a simulated minute
 * every 2.5 s, whatever N), while
 * - a NOC's mix of requests arrives at R a second (50): lists, filters,
 *   summaries, reads of the peers through bench-1's fleet proxy, and every
 *   few seconds a configuration edit or the rollback of the last one;
 * - S log-stream subscribers (100, npm `eventsource`, spread over the three
 *   appliances, four per token as the API allows) read every entry, checking
 *   that each entry's seq follows the last one's (a gap is an entry lost);
 * - scenarios/soak-hour.json, an hour of faults, plays once per simulated
 *   hour on every appliance.
 * Before the clock starts, each appliance is brought up and a simulated day
 * passes on it, so what a day fills (the 24 h metrics history, the log ring)
 * is full before memory is watched. It prints per minute the requests, their
 * p50 and p99, the 5xx and the stream events; at the end workerd's and the
 * launcher's RSS slope after the warm-up (a least-squares fit of samples
 * every 10 s), workerd's JS heap after a full collection (read twelve times
 * a run, at most once a minute) with its slope the same way, the launcher's
 * heap and the memory it holds outside it (Buffers) read at the same times
 * (launcher/launcher-memory.ts), the 5xx count
 * and the stream gaps. Plain HTTP on workerd's own sockets unless `--listener relay`
 * puts the launcher's Node relay in front (docs/running.md). Loopback only; every
 * loop ends at the deadline, and requests in flight are capped.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePortBase } from "./harness/fleet-process.ts";
import { auth, fmt, launchBenchFleet, memoryKiB, workerdPids } from "./bench/fleet.ts";
import { quantile } from "./bench/load.ts";
import { readLogStream, readOnlyToken, STREAMS_PER_TOKEN, type LogStreamReader } from "./bench/log-streams.ts";
import { ScenarioFile } from "../src/schemas/scenario.ts";
import { timeline, type TimelineStep } from "../simulator/scenario-file.ts";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    rate: { type: "string", default: "50" },
    streams: { type: "string", default: "100" },
    profile: { type: "string", default: "default" },
    listener: { type: "string", default: "workerd" },
  },
});
if (values.listener !== "workerd" && values.listener !== "relay")
  throw new Error(`--listener must be workerd or relay, not '${values.listener}'`);
const listener = values.listener;
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const streamCount = Number(values.streams);
for (const [name, n] of [
  ["minutes", minutes],
  ["rate", rate],
  ["streams", streamCount],
] as const) {
  if (!(Number.isFinite(n) && n > 0 && n <= 24 * 60 * (name === "rate" ? 10 : 1)))
    throw new Error(`--${name} must be a positive number, not '${values[name]}'`);
}

/** 24 simulated hours per wall hour: a simulated minute every 2.5 s. */
const CLOCK_EVERY_MS = 2_500;
const CLOCK_STEP_S = 60;
/** The first tenth of the run (at least a minute) is warm-up: memory grows to its working size there. */
const WARM_UP_MS = Math.max(60_000, minutes * 6_000);
/**
 * The JS heap is read after a full collection twelve times a run (at most once a minute): RSS alone cannot tell a leak
 * from a heap V8 has not yet collected, and two readings cannot tell a level the caches reach from a growth.
 */
const HEAP_EVERY_MS = Math.max(60_000, minutes * 5_000);
/**
 * Requests in flight at most: past it the load generator is behind, and says so, rather than queueing without bound.
 */
const MAX_IN_FLIGHT = 500;
const SCENARIO = path.join(import.meta.dirname, "../scenarios/soak-hour.json");

const durationMs = minutes * 60_000;
const portBase = await freePortBase(3);
console.log(
  `bngfleet soak: 3 appliances of \`${values.profile}\`, ${minutes} min ` +
    `wall, ${fmt(((durationMs / CLOCK_EVERY_MS) * CLOCK_STEP_S) / 3600, 1)} ` +
    `simulated hours, ${rate} req/s, ${streamCount} log ` +
    `streams, ${path.relative(process.cwd(), SCENARIO)} every simulated hour, ` +
    `through ${listener === "relay" ? "the launcher's Node relay" : "workerd's own sockets"}\n`,
);
const { fleet, bases, names, heap } = await launchBenchFleet("soak", {
  count: 3,
  profile: values.profile,
  portBase,
  peers: "all",
  listener,
});

const file = ScenarioFile.parse(JSON.parse(await readFile(SCENARIO, "utf8")));
const hour: TimelineStep[] = timeline(file);
const cycle = file.until ?? 3600;

async function post(base: string, route: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${route}`, {
    method: route === "/api/v1/config" ? "PUT" : "POST",
    headers: { ...auth, ...extra, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function scenario(base: string, action: unknown): Promise<void> {
  const response = await post(base, "/twin/v1/scenario", action);
  if (!response.ok)
    throw new Error(`${base} scenario ${JSON.stringify(action)} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

// ── per-minute figures ────────────────────────────────────────────────────
interface Minute {
  latencies: number[];
  status5xx: number;
  other: Map<number, number>;
  events: number;
  clockMs: number[];
}
const minuteFigures: Minute[] = [];
/** When the measured run starts (after the warm-up and the streams' opening): minutes count from it. */
let t0 = performance.now();
const minuteOf = () => {
  const i = Math.floor((performance.now() - t0) / 60_000);
  while (minuteFigures.length <= i)
    minuteFigures.push({ latencies: [], status5xx: 0, other: new Map(), events: 0, clockMs: [] });
  return minuteFigures[i]!;
};
let total5xx = 0;
let sent = 0;
let skipped = 0;
let inFlight = 0;
const failures: string[] = [];

function record(status: number, ms: number, what: string): void {
  const m = minuteOf();
  m.latencies.push(ms);
  if (status >= 500) {
    m.status5xx++;
    total5xx++;
    if (failures.length < 20) failures.push(`${status} ${what}`);
  } else if (status >= 400 || status === 0) {
    m.other.set(status, (m.other.get(status) ?? 0) + 1);
    if (failures.length < 20) failures.push(`${status} ${what}`);
  }
}

try {
  // ── warm the fleet: every appliance opened and brought up (10 simulated minutes in 10 s steps), then a simulated
  // day in hours, so that what the model keeps for a day (the 24 h metrics history, the log ring) is at its full size
  // before memory is watched: growth after that is what the run itself leaves behind.
  for (const base of bases) for (let i = 0; i < 60; i++) await scenario(base, { action: "advance-clock", seconds: 10 });
  for (const base of bases)
    for (let i = 0; i < 24; i++) await scenario(base, { action: "advance-clock", seconds: 3600 });

  // ── log streams: read-only tokens, four streams each, the streams spread over the appliances ──
  const tokens: string[][] = bases.map(() => []);
  const streams: LogStreamReader[] = [];
  for (let i = 0; i < streamCount; i++) {
    const a = i % bases.length;
    const mine = Math.floor(i / bases.length);
    if (mine % STREAMS_PER_TOKEN === 0)
      tokens[a]!.push(await readOnlyToken(bases[a]!, `soak-${mine / STREAMS_PER_TOKEN}`));
    streams.push(readLogStream(bases[a]!, tokens[a]!.at(-1)!, () => void minuteOf().events++));
  }

  // ── the NOC's mix: [weight, what]; proxied and fan-out reads go through bench-1 to its peers ──
  let nth = 0;
  const peer = () => names[1 + (nth % (names.length - 1))]!;
  const ip = () => `100.64.${nth % 64}.0/24`;
  const mix: [number, () => [number, string]][] = [
    [10, () => [nth % 3, "/api/v1/sessions?limit=100"]],
    [6, () => [nth % 3, `/api/v1/sessions?username=sub00${10 + (nth % 90)}&limit=50`]],
    [4, () => [nth % 3, `/api/v1/sessions?ip=${encodeURIComponent(ip())}&limit=50`]],
    [4, () => [nth % 3, "/api/v1/sessions?encap=pppoe-local&vrf=default&limit=50"]],
    [8, () => [nth % 3, "/api/v1/sessions/summary"]],
    [6, () => [nth % 3, "/api/v1/system/status"]],
    [4, () => [nth % 3, "/api/v1/alarms"]],
    [3, () => [nth % 3, "/api/v1/cgn/status"]],
    [3, () => [nth % 3, "/api/v1/cgn/bindings?limit=100"]],
    [3, () => [nth % 3, "/api/v1/address-pools"]],
    [3, () => [nth % 3, "/api/v1/radius/servers"]],
    [3, () => [nth % 3, "/api/v1/logs/tail?count=100"]],
    [2, () => [nth % 3, "/api/v1/system/interfaces"]],
    [2, () => [nth % 3, "/api/v1/metrics/history?range=1h"]],
    [8, () => [0, `/api/v1/fleet/${peer()}/sessions/summary`]],
    [6, () => [0, `/api/v1/fleet/${peer()}/sessions?limit=50`]],
    [4, () => [0, `/api/v1/fleet/${peer()}/system/status`]],
    // The web UI's fleet overview and subscriber search: every appliance in one fan-out read.
    [2, () => [0, `/twin/v1/fleet/read?path=system/status&appliances=${names.join(",")}`]],
    [
      2,
      () => [
        0,
        `/twin/v1/fleet/read?path=${encodeURIComponent(`sessions?username=sub00${10 + (nth % 90)}&limit=50`)}` +
          `&appliances=${names.join(",")}`,
      ],
    ],
  ];
  const deck = mix.flatMap(([w, f]) => Array.from({ length: w }, () => f));

  const get = async (a: number, route: string) => {
    const start = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${bases[a]}${route}`, { headers: auth, signal: AbortSignal.timeout(30_000) });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    record(status, performance.now() - start, `GET ${names[a]} ${route}`);
  };

  // Configuration: an edit, then its rollback, alternately on each appliance; one at a time (a commit is exclusive).
  const versions = bases.map(() => 0);
  let edits = 0;
  const configChange = async () => {
    const a = edits % bases.length;
    const editing = Math.floor(edits / bases.length) % 2 === 0;
    edits++;
    const start = performance.now();
    let status = 0;
    try {
      const response = editing
        ? await post(bases[a]!, "/api/v1/config", {
            fields: { "captures.mirrorAllowlist": `192.0.2.${edits % 250}/32` },
            comment: "soak: an edit",
          })
        : await post(bases[a]!, "/api/v1/config/rollback", {
            version: versions[a]! - 1,
            comment: "soak: the rollback",
          });
      status = response.status;
      const body = (await response.json()) as { version?: number };
      if (response.ok && body.version !== undefined) versions[a] = body.version;
    } catch {
      status = 0;
    }
    record(
      status,
      performance.now() - start,
      editing ? `PUT ${names[a]} /config` : `POST ${names[a]} /config/rollback`,
    );
  };

  // The clock: a simulated minute every 2.5 s on every appliance, the hour's faults applied at their times.
  let simulated = 0;
  const tickClock = async () => {
    const from = simulated % cycle;
    const to = from + CLOCK_STEP_S;
    let at = from;
    for (const step of hour) {
      // Each step once per play of the hour, in the tick whose minute holds it.
      if (step.action === null || step.at < from || step.at >= to) continue;
      if (step.at > at)
        await Promise.all(bases.map((b) => scenario(b, { action: "advance-clock", seconds: step.at - at })));
      at = step.at;
      await Promise.all(bases.map((b) => scenario(b, step.action)));
    }
    if (to > at) await Promise.all(bases.map((b) => scenario(b, { action: "advance-clock", seconds: to - at })));
    simulated += CLOCK_STEP_S;
  };

  // Memory: every 10 s.
  const workerd = workerdPids(fleet.pid);
  const rss: { t: number; workerd: number; launcher: number }[] = [];
  const sample = () => {
    const w = workerd.reduce((n, pid) => n + (memoryKiB(pid)?.rss ?? 0), 0);
    rss.push({ t: performance.now() - t0, workerd: w / 1024, launcher: (memoryKiB(fleet.pid)?.rss ?? 0) / 1024 });
  };

  // The JS heap after a full collection (MiB, typed arrays included), read through workerd's inspector; the
  // launcher's at the same times, with what it holds outside the heap (Buffers), over its IPC channel.
  const heaps: { t: number; mib: number }[] = [];
  const launcherHeaps: { t: number; heap: number; external: number }[] = [];
  const sampleHeap = async () => {
    const [h, l] = await Promise.all([heap(), fleet.launcherMemory()]);
    const t = performance.now() - t0;
    heaps.push({ t, mib: (h.usedBytes + h.backingStoreBytes) / 2 ** 20 });
    launcherHeaps.push({ t, heap: l.heapUsed / 2 ** 20, external: l.external / 2 ** 20 });
  };

  // ── run: open loop at `rate`, bounded by the deadline ──
  minuteFigures.length = 0;
  t0 = performance.now();
  await sampleHeap();
  const deadline = t0 + durationMs;
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  let clockBusy = false;
  let configBusy = false;
  let heapBusy = false;
  let nextRequest = performance.now();
  let nextClock = performance.now();
  let nextConfig = performance.now() + 5_000;
  let nextSample = performance.now();
  let nextHeap = performance.now() + HEAP_EVERY_MS;
  let nextReport = t0 + 60_000;
  let reported = 0;
  const report = (upTo: number) => {
    for (; reported < upTo && reported < minuteFigures.length; reported++) {
      const m = minuteFigures[reported]!;
      // The stragglers answered after the last whole minute are counted in the totals, not as a minute of their own.
      if (reported * 60_000 >= durationMs) continue;
      const sorted = [...m.latencies].sort((x, y) => x - y);
      const others = [...m.other].map(([s, n]) => `${n}×${s || "no answer"}`).join(", ");
      const clock = [...m.clockMs].sort((x, y) => x - y);
      console.log(
        `  minute ${String(reported + 1).padStart(3)} ` +
          ` ${String(m.latencies.length).padStart(5)} requests  ` +
          `p50 ${fmt(quantile(sorted, 0.5) ?? NaN, 1).padStart(7)} ms  ` +
          `p99 ${fmt(quantile(sorted, 0.99) ?? NaN, 1).padStart(7)} ms  ` +
          `5xx ${m.status5xx}${others ? `  other ${others}` : ""}  stream ` +
          `events ${m.events}  clock step p50 ${fmt(quantile(clock, 0.5) ?? NaN, 0)} ms`,
      );
    }
  };
  while (performance.now() < deadline) {
    const now = performance.now();
    while (nextRequest <= now) {
      nextRequest += 1000 / rate;
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      const [a, route] = deck[nth % deck.length]!();
      nth++;
      sent++;
      inFlight++;
      track(get(a, route).finally(() => inFlight--));
    }
    if (now >= nextClock && !clockBusy) {
      nextClock += CLOCK_EVERY_MS;
      clockBusy = true;
      const start = performance.now();
      track(
        tickClock()
          .then(() => void minuteOf().clockMs.push(performance.now() - start))
          .catch((error: Error) => void (failures.length < 20 && failures.push(`clock: ${error.message}`)))
          .finally(() => (clockBusy = false)),
      );
    }
    if (now >= nextConfig && !configBusy) {
      nextConfig += 5_000;
      configBusy = true;
      track(configChange().finally(() => (configBusy = false)));
    }
    if (now >= nextSample) {
      nextSample += 10_000;
      sample();
    }
    if (now >= nextHeap && !heapBusy) {
      nextHeap += HEAP_EVERY_MS;
      heapBusy = true;
      track(sampleHeap().finally(() => (heapBusy = false)));
    }
    if (now >= nextReport) {
      nextReport += 60_000;
      report(Math.floor((now - t0) / 60_000));
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(1, Math.min(nextRequest, nextClock, nextSample) - performance.now())),
    );
  }
  await Promise.race([Promise.allSettled([...pending]), new Promise((resolve) => setTimeout(resolve, 30_000))]);
  sample();
  // The last heap reading while the streams are still open: read during a hundred closes, it measured the closes.
  await sampleHeap();
  report(minuteFigures.length);
  for (const s of streams) s.es.close();

  // ── summary ──
  /** A least-squares fit of `value` over the samples after the warm-up, in MiB an hour. */
  const slopeOf = <S extends { t: number }>(samples: S[], value: (sample: S) => number) => {
    const pts = samples.filter((p) => p.t >= WARM_UP_MS);
    if (pts.length < 3) return NaN;
    const mx = pts.reduce((n, p) => n + p.t, 0) / pts.length;
    const my = pts.reduce((n, p) => n + value(p), 0) / pts.length;
    const sxy = pts.reduce((n, p) => n + (p.t - mx) * (value(p) - my), 0);
    const sxx = pts.reduce((n, p) => n + (p.t - mx) ** 2, 0);
    return (sxy / sxx) * 3_600_000;
  };
  const slope = (key: "workerd" | "launcher") => slopeOf(rss, (p) => p[key]);
  const range = (key: "workerd" | "launcher") => {
    const pts = rss.filter((p) => p.t >= WARM_UP_MS).map((p) => p[key]);
    return `${fmt(Math.min(...pts), 0)}-${fmt(Math.max(...pts), 0)} MiB`;
  };
  const events = streams.reduce((n, s) => n + s.events, 0);
  const gaps = streams.reduce((n, s) => n + s.gaps, 0);
  const lost = streams.reduce((n, s) => n + s.lost, 0);
  const all = minuteFigures.flatMap((m) => m.latencies).sort((x, y) => x - y);
  console.log(
    `\n  requests            ${sent.toLocaleString("en-GB")} sent ` +
      `(${fmt(sent / (durationMs / 1000), 1)}/s), ${skipped} not sent ` +
      `(over ${MAX_IN_FLIGHT} in flight), p50 ${fmt(quantile(all, 0.5) ?? NaN, 1)} ms, ` +
      `p99 ${fmt(quantile(all, 0.99) ?? NaN, 1)} ms; ${edits} configuration edits and rollbacks`,
  );
  console.log(
    `  5xx                 ${total5xx} (goal ` +
      `0)${failures.length ? `; first failures: ${failures.slice(0, 10).join("; ")}` : ""}`,
  );
  console.log(
    `  log streams         ${streams.length} open at the end ` +
      `of ${streamCount}; ${events.toLocaleString("en-GB")} entries read, ${gaps} gaps ` +
      `(${lost} entries missing) (goal ` +
      `0), ${streams.reduce((n, s) => n + s.overflows, 0)} ` +
      `overflows, ${streams.reduce((n, s) => n + s.closed, 0)} ` +
      `closed, ${streams.reduce((n, s) => n + s.errors, 0)} reconnects`,
  );
  console.log(
    `  simulated time      ${fmt(simulated / 3600, 2)} h on each ` +
      `appliance, ${Math.floor(simulated / cycle)} full plays of the fault hour`,
  );
  console.log(
    `  workerd RSS         ${range("workerd")} after the warm-up ` +
      `(${fmt(WARM_UP_MS / 60_000, 0)} min); slope ${fmt(slope("workerd"), 1)} MiB/h ` +
      `(goal flat)`,
  );
  console.log(`  launcher RSS        ${range("launcher")}; slope ${fmt(slope("launcher"), 1)} MiB/h (goal flat)`);
  const heapSlope = slopeOf(heaps, (p) => p.mib);
  console.log(
    `  workerd JS heap     after a full collection ` +
      `every ${fmt(HEAP_EVERY_MS / 60_000, 0)} ` +
      `min: ${heaps.map((p) => fmt(p.mib, 1)).join(", ")} MiB; ` +
      `slope ${fmt(heapSlope, 1)} MiB/h after the warm-up (goal flat)`,
  );
  console.log(
    `  launcher JS heap    at the same times: ${launcherHeaps.map((p) => fmt(p.heap, 1)).join(", ")} MiB; slope ${fmt(
      slopeOf(launcherHeaps, (p) => p.heap),
      1,
    )} MiB/h (goal flat)`,
  );
  const externalSlope = slopeOf(launcherHeaps, (p) => p.external);
  console.log(
    `  launcher external   (Buffers and other memory outside the heap): ` +
      `${launcherHeaps.map((p) => fmt(p.external, 1)).join(", ")} MiB; ` +
      `slope ${fmt(externalSlope, 1)} MiB/h (goal flat)`,
  );
} catch (error) {
  console.error(`\nThe launcher's last output:\n${fleet.output().split("\n").slice(-30).join("\n")}`);
  throw error;
} finally {
  await fleet.stop();
}
