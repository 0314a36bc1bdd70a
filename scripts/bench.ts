/**
 * `npm run bench`: the speed and memory figures of one appliance running the
 * `large` profile (≈128,000 sessions), printed with their targets and, for
 * each endpoint, its throughput as a ratio to a trivial Worker measured on
 * the same run and machine. Figures, not pass/fail tests: the machine varies.
 *
 * 1. The model alone (in this process): bring-up rate and CPU per 10 s step.
 * 2. Through the Worker (the real launcher, plain HTTP): latency p50/p95 of
 *    the sessions list (unfiltered and with each filter) and the summary,
 *    throughput at concurrency 10, the API's latency while the appliance is
 *    bringing up 128,000 sessions, and workerd's peak memory.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Log, LogLevel, Miniflare } from "miniflare";
import { Gateway, parseProfile } from "../simulator/index.ts";
import { launchFleet } from "../test/e2e/launcher.ts";

const PORT = 21443;
const TOKEN = "bngtok_" + "Bench".repeat(6) + "3QqMB3"; // well-formed: the checksum is CRC-32 in base62
const base = `http://127.0.0.1:${PORT}`;
const auth = { authorization: `Bearer ${TOKEN}` };
const CONCURRENCY = 10;
const THROUGHPUT_SECONDS = 3;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function latency(url: string, headers: Record<string, string>, n = 200): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

async function throughput(url: string, headers: Record<string, string>): Promise<number> {
  let count = 0;
  const deadline = performance.now() + THROUGHPUT_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        count++;
      }
    }),
  );
  return count / THROUGHPUT_SECONDS;
}

function peakMemoryKiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  } catch {
    return null;
  }
}

/** The launcher's workerd: its child process. */
function childPids(parent: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(parent)], { encoding: "utf8" }).trim().split("\n").map(Number).filter(Boolean);
  } catch {
    return [];
  }
}

/** Setups per simulated second while ramping: the mean over the 10 s steps that added at least half the busiest step's sessions. */
function rampRate(totals: number[]): number {
  const deltas = totals.slice(1).map((t, i) => t - totals[i]!);
  const busy = deltas.filter((d) => d >= Math.max(...deltas) / 2);
  return busy.reduce((a, b) => a + b, 0) / busy.length / 10;
}

/** The model alone: bring-up of the large profile and the CPU cost of one 10 s step at full size. */
function modelFigures() {
  const raw = JSON.parse(readFileSync(path.join(import.meta.dirname, "../fleet-config/profiles/large.json"), "utf8")) as unknown;
  const parsed = parseProfile(raw);
  if (!parsed.ok) throw new Error(parsed.issues.join("; "));
  const gateway = Gateway.create(parsed.profile, { seed: 1, startTimeMs: Date.UTC(2026, 0, 1, 20) });
  let simulated = 0;
  const totals = [0];
  const cpu0 = process.cpuUsage();
  while (gateway.sessionSummary().total < 128_000 && simulated < 600) {
    gateway.step(10);
    simulated += 10;
    totals.push(gateway.sessionSummary().total);
  }
  const bringUpCpu = process.cpuUsage(cpu0);
  const sessions = gateway.sessionSummary().total;
  gateway.step(600); // settle into churn
  const steps: number[] = [];
  for (let i = 0; i < 30; i++) {
    const c = process.cpuUsage();
    gateway.step(10);
    const used = process.cpuUsage(c);
    steps.push((used.user + used.system) / 1000);
  }
  steps.sort((a, b) => a - b);
  return {
    sessions,
    simulatedSeconds: simulated,
    setupsPerSimulatedSecond: rampRate(totals),
    bringUpCpuMs: (bringUpCpu.user + bringUpCpu.system) / 1000,
    stepCpuP50: quantile(steps, 0.5),
    stepCpuMax: steps[steps.length - 1]!,
  };
}

/** A trivial Worker on its own Miniflare direct socket: the same-run baseline for the ratios. */
async function helloBaseline(): Promise<number> {
  const mf = new Miniflare({
    modules: true,
    script: `export default { fetch() { return Response.json({ hello: "world" }); } };`,
    compatibilityDate: "2026-07-01",
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    log: new Log(LogLevel.WARN),
    cf: false,
  });
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  const rate = await throughput(url.href, {});
  await mf.dispose();
  return rate;
}

async function main() {
  console.log("bngfleet benchmark: one appliance, profile `large` (≈128,000 sessions)\n");

  const model = modelFigures();
  console.log("Model (in-process, pure TypeScript)");
  console.log(`  bring-up            ${model.sessions.toLocaleString("en-GB")} sessions in ${model.simulatedSeconds} simulated s, ${fmt(model.setupsPerSimulatedSecond, 0)} setups per simulated second while ramping (target ≥ 2,000), ${fmt(model.bringUpCpuMs, 0)} ms CPU`);
  console.log(`  one 10 s step       p50 ${fmt(model.stepCpuP50)} ms CPU, max ${fmt(model.stepCpuMax)} ms (target < 100 ms) at ${model.sessions.toLocaleString("en-GB")} sessions\n`);

  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-bench-"));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({ portBase: PORT, appliances: [{ name: "bench-1", seed: 7, profile: "large", webUi: { listener: { address: "127.0.0.1", port: PORT } } }] }),
  );
  const fleet = await launchFleet({ BNG_FLEET: fleetFile, BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: TOKEN, BNG_FRESH: "1" }, [PORT], path.join(dir, "data"));
  try {
    // Bring-up through the API, with the API's latency measured meanwhile.
    const scenario = (body: unknown) => fetch(`${base}/twin/v1/scenario`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ state: { sessions: number } }>);
    const during: number[] = [];
    let bringing = true;
    const probe = (async () => {
      while (bringing) {
        const t0 = performance.now();
        await (await fetch(`${base}/api/v1/sessions/summary`, { headers: auth })).arrayBuffer();
        during.push(performance.now() - t0);
      }
    })();
    const t0 = performance.now();
    let sessions = 0;
    let simulated = 0;
    const totals = [0];
    while (sessions < 128_000 && simulated < 600) {
      sessions = (await scenario({ action: "advance-clock", seconds: 10 })).state.sessions;
      simulated += 10;
      totals.push(sessions);
    }
    const bringUpWall = performance.now() - t0;
    bringing = false;
    await probe;
    during.sort((a, b) => a - b);
    console.log("Through the Worker (launcher, plain HTTP, one client connection per request stream)");
    console.log(`  bring-up            ${sessions.toLocaleString("en-GB")} sessions in ${simulated} simulated s, ${fmt(rampRate(totals), 0)} setups per simulated second while ramping, ${fmt(bringUpWall / 1000)} s wall`);
    console.log(`  API during bring-up summary p50 ${fmt(quantile(during, 0.5))} ms, p95 ${fmt(quantile(during, 0.95))} ms over ${during.length} requests\n`);
    await scenario({ action: "advance-clock", seconds: 300 });

    const hello = await helloBaseline();
    const sample = (await (await fetch(`${base}/api/v1/sessions?limit=1`, { headers: auth })).json()) as { items: { username: string; vrf: string; portId: number; ipv4: string }[] };
    const one = sample.items[0]!;
    const endpoints: [string, string][] = [
      ["sessions (no filter)", "/api/v1/sessions?limit=100"],
      ["sessions ?encap", "/api/v1/sessions?limit=100&encap=pppoe-local"],
      ["sessions ?vrf", `/api/v1/sessions?limit=100&vrf=${one.vrf}`],
      ["sessions ?port", `/api/v1/sessions?limit=100&port=${one.portId ?? 1}`],
      ["sessions ?type", "/api/v1/sessions?limit=100&type=ppp"],
      ["sessions ?ip", `/api/v1/sessions?limit=100&ip=${one.ipv4.split(".").slice(0, 2).join(".")}.`],
      ["sessions ?username", `/api/v1/sessions?limit=100&username=${one.username.slice(0, 4)}`],
      ["sessions ?walledGarden", "/api/v1/sessions?limit=100&walledGarden=true"],
      ["sessions/summary", "/api/v1/sessions/summary"],
      ["system/status", "/api/v1/system/status"],
      ["system/interfaces", "/api/v1/system/interfaces"],
      ["l2tp/tunnels", "/api/v1/l2tp/tunnels"],
      ["licensing", "/api/v1/licensing"],
      ["routing/bgp/summary", "/api/v1/routing/bgp/summary"],
      ["routing vrfs/default/routes", "/api/v1/routing/vrfs/default/routes?limit=50"],
      ["system/health (no DO read)", "/api/v1/system/health"],
    ];
    console.log(`Latency and throughput at ${sessions.toLocaleString("en-GB")} sessions (target p50 < 20 ms); trivial Worker: ${fmt(hello, 0)} req/s at concurrency ${CONCURRENCY}`);
    console.log(`  ${"endpoint".padEnd(28)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"req/s".padStart(8)} ${"ratio".padStart(7)}`);
    for (const [label, url] of endpoints) {
      const { p50, p95 } = await latency(base + url, auth);
      const rate = await throughput(base + url, auth);
      console.log(`  ${label.padEnd(28)} ${fmt(p50, 2).padStart(8)} ${fmt(p95, 2).padStart(8)} ${fmt(rate, 0).padStart(8)} ${fmt(rate / hello, 2).padStart(7)}`);
    }
    const peaks = childPids(fleet.pid).map((pid) => peakMemoryKiB(pid)).filter((n): n is number => n !== null && !Number.isNaN(n));
    console.log(`\nPeak memory: workerd (the whole appliance) ${peaks.length ? fmt(Math.max(...peaks) / 1024, 0) : "?"} MiB (VmHWM); launcher ${fmt((peakMemoryKiB(fleet.pid) ?? NaN) / 1024, 0)} MiB; this process with the in-process model ${fmt(process.resourceUsage().maxRSS / 1024, 0)} MiB`);
  } finally {
    await fleet.stop();
  }
}

await main();
