/**
 * `node --expose-gc scripts/bench-model.ts [--sessions N] [--only step|queries|none] [--repeat K]`:
 * the simulator alone, in this process, at the `large` profile's 128,000
 * sessions (or its population scaled to N: 256000 stands in for an xlarge
 * appliance, though the large profile's pools and CGN limits cap it below
 * that): the JS heap one appliance's model holds, the snapshot's size, the
 * CPU of one 10 s step, and the single-client latency of every documented
 * sessions filter, the CGN bindings and pool allocation pages and the
 * subscriber routes' sort, and pages of the VRF route table and of a BGP
 * neighbor's received routes (a route reflector sending every address family
 * for the profile's VRFs, as the DO's world holds it). Figures, not pass/fail tests (issue #11's goals
 * are printed beside them); min beside p50 because the machine is shared.
 * The HTTP figures are `npm run bench`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Gateway, parseProfile, type Profile } from "../simulator/index.ts";
import { SortedSubscriberRoutes, vrfRoutes } from "../simulator/rib.ts";
import { stepCpuMs } from "./bench/model.ts";
import { neighborRoutes, type BgpNeighborConfig, type RoutingWorld } from "../simulator/routing.ts";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SESSIONS = Number(flag("sessions") ?? 128_000);
const REPEAT = Number(flag("repeat") ?? 21);
const only = flag("only");

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const fmt = (n: number, digits = 1) =>
  n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const gc = (globalThis as { gc?: () => void }).gc;

/** The large profile, scaled so its steady state is `sessions` (xlarge = 256,000). */
function scaledProfile(sessions: number): Profile {
  const raw = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../fleet-config/profiles/large.json"), "utf8"),
  ) as Record<string, any>;
  const k = sessions / raw.population.steadyStateSessions;
  if (k !== 1) {
    raw.population.subscribers = Math.round(raw.population.subscribers * k);
    raw.population.steadyStateSessions = sessions;
    raw.population.licensedSessions = Math.round(raw.population.licensedSessions * k);
    raw.name = `large-x${k}`;
  }
  const parsed = parseProfile(raw);
  if (!parsed.ok) throw new Error(parsed.issues.join("; "));
  return parsed.profile;
}

/** Heap plus array buffers after a full collection, in bytes. */
function held(): number {
  gc?.();
  gc?.();
  const u = process.memoryUsage();
  return u.heapUsed + u.arrayBuffers;
}

/**
 * Min, p50 and max of `fn` in milliseconds over REPEAT runs (after one warm-up); min shows the cost on a machine others
 * are loading.
 */
function time(fn: () => unknown): { min: number; p50: number; max: number } {
  fn();
  const t: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { min: t[0] ?? NaN, p50: quantile(t, 0.5), max: t[t.length - 1] ?? NaN };
}

const profile = scaledProfile(SESSIONS);
const before = held();
const gateway = Gateway.create(profile, { seed: 1, startTimeMs: Date.UTC(2026, 0, 1, 20) });
const bring0 = performance.now();
let simulated = 0;
while (gateway.sessions.summary().total < SESSIONS && simulated < 3600) {
  gateway.step(10);
  simulated += 10;
}
const bringUpMs = performance.now() - bring0;
gateway.step(600); // settle into churn
const heldBytes = held() - before;
console.log(
  `profile ${profile.name}: ${gateway.sessions.summary().total.toLocaleString("en-GB")} ` +
    `sessions after ${simulated + 600} simulated s ` +
    `(bring-up ${fmt(bringUpMs / 1000, 1)} s wall)`,
);
console.log(`model heap held: ${fmt(heldBytes / 2 ** 20)} MiB${gc ? "" : " (run with --expose-gc for a true figure)"}`);

const chunks = gateway.snapshot().blobs.reduce((n, b) => n + b.byteLength, 0);
console.log(`snapshot blobs: ${fmt(chunks / 2 ** 20)} MiB`);

if (only === undefined || only === "step") {
  const steps = stepCpuMs(gateway, 60);
  console.log(
    `10 s step CPU: min ${fmt(steps[0] ?? NaN, 2)} ms, ` +
      `p50 ${fmt(steps.length ? quantile(steps, 0.5) : NaN, 2)} ms, ` +
      `max ${fmt(steps[steps.length - 1] ?? NaN, 2)} ms (goal p50 ≤ 5 ms)`,
  );
}

/** A route reflector sending every address family, as the DO's world holds a configured neighbor. */
const RR: BgpNeighborConfig = {
  address: "10.0.255.1",
  remoteAs: 64500,
  description: "rr1",
  bfd: true,
  addressFamilies: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn", "ipv6Vpn"],
  holdTime: 90,
  keepAlive: 30,
  shutdown: false,
  provisionedMs: Date.UTC(2026, 0, 1, 19),
};
const world: RoutingWorld = {
  seed: 1,
  nowMs: Date.UTC(2026, 0, 1, 21),
  daemonUp: true,
  localAs: 64500,
  routerId: "10.0.0.2",
  neighbors: [RR],
  vrfs: profile.vrfs
    .filter((v) => v.name !== "default")
    .map((v, i) => ({
      name: v.name,
      rd: `64500:${100 + i}`,
      importRt: [`64500:${100 + i}`, "64500:999"],
      exportRt: [`64500:${100 + i}`],
      originateDefaultRoute: true,
    })),
  pools: gateway.pools.list().map((p) => ({
    family: p.family,
    vrf: p.vrf ?? "default",
    cgnTranslated: p.cgnTranslated,
    subnets: p.subnets.map((s) => ({ prefix: s.prefix, announce: s.announce })),
  })),
  cgnPublic: [],
  statics: [],
  framed: [],
  circuits: [],
  igp: { reachable: true, protocol: "none", routerId: "10.0.0.2", interfaces: [], adjacencies: [] },
};
// The appliance keeps one table per sessions version (durable-objects/routing.ts); here the sessions do not change
// between runs.
const tables = new Map<string, ReturnType<Gateway["subscriberRoutes"]["table"]>>();
const table = (vrf: string) => tables.get(vrf) ?? tables.set(vrf, gateway.subscriberRoutes.table(vrf)).get(vrf)!;

if (only === undefined || only === "queries") {
  const newest = gateway.sessions.list({ limit: 1 }).items[0];
  const v6 = gateway.sessions.list({ limit: 500 }).items.find((s) => s.ipv6 !== null)?.ipv6 ?? "2001:db8::/32";
  const queries: [string, () => unknown][] = [
    ["sessions unfiltered", () => gateway.sessions.list({})],
    ["sessions last page", () => gateway.sessions.list({ offset: SESSIONS - 50 })],
    ["sessions username substring", () => gateway.sessions.list({ username: "12345" })],
    ["sessions username realm (wide)", () => gateway.sessions.list({ username: "cgn.isp" })],
    [
      "sessions ip v4 /24",
      () => gateway.sessions.list({ ip: `${newest?.ipv4.split(".").slice(0, 3).join(".")}.0/24` }),
    ],
    [
      "sessions ip v4 text prefix",
      () => gateway.sessions.list({ ip: `${newest?.ipv4.split(".").slice(0, 2).join(".")}.1` }),
    ],
    ["sessions ip v4 exact", () => gateway.sessions.list({ ip: newest?.ipv4 ?? "" })],
    ["sessions ip v6 /56", () => gateway.sessions.list({ ip: v6.replace(/\/\d+$/, "/56") })],
    ["sessions ip v6 text prefix", () => gateway.sessions.list({ ip: v6.slice(0, 12) })],
    ["sessions vrf", () => gateway.sessions.list({ vrf: "wholesale" })],
    ["sessions port", () => gateway.sessions.list({ port: 3 })],
    ["sessions encap", () => gateway.sessions.list({ encap: "l2tp" })],
    ["sessions type", () => gateway.sessions.list({ type: "ppp" })],
    ["sessions walledGarden", () => gateway.sessions.list({ walledGarden: true })],
    ["sessions port+encap+vrf", () => gateway.sessions.list({ port: 2, encap: "ipoe", vrf: "cgn-inside" })],
    ["sessions rare combination", () => gateway.sessions.list({ port: 2, walledGarden: true, username: "99" })],
    ["sessions summary", () => gateway.sessions.summary()],
    ["cgn bindings", () => gateway.cgn.bindings({})],
    ["cgn bindings vrf", () => gateway.cgn.bindings({ vrf: "cgn-inside" })],
    [
      "cgn bindings ip",
      () => gateway.cgn.bindings({ ip: gateway.cgn.bindings({ limit: 1 }).items[0]?.publicIp ?? "" }),
    ],
    ["cgn bindings last page", () => gateway.cgn.bindings({ offset: 60_000 })],
    ["pool allocations last page", () => gateway.pools.allocations(profile.pools[0]?.name ?? "", { offset: 40_000 })],
    ["subscriber routes sorted (fallback)", () => new SortedSubscriberRoutes(gateway.subscriberRoutes.list("default"))],
    // The route table as the appliance answers it: the index is read again once per sessions change (each step), then
    // pages use it.
    ["vrf routes table read (per step)", () => gateway.subscriberRoutes.table("default")],
    ["vrf routes first page", () => vrfRoutes(world, "default", table("default"), {})],
    [
      "vrf routes middle page (500)",
      () => vrfRoutes(world, "default", table("default"), { offset: 90_000, limit: 500 }),
    ],
    [
      "vrf routes last page ipv6",
      () => vrfRoutes(world, "default", table("default"), { family: "ipv6", offset: 120_000 }),
    ],
    ["vrf routes cgn-inside page", () => vrfRoutes(world, "cgn-inside", table("cgn-inside"), { offset: 40_000 })],
    // A text filter renders the table's prefixes once per sessions change; the filters after it search that text.
    ["vrf routes text filter v6", () => vrfRoutes(world, "default", table("default"), { filter: "::/56" })],
    ["vrf routes text filter v4", () => vrfRoutes(world, "default", table("default"), { filter: "198.19.1" })],
    [
      "vrf routes text filter v6, first",
      () => vrfRoutes(world, "default", gateway.subscriberRoutes.table("default"), { filter: "::/56" }),
    ],
    [
      "vrf routes text filter v4, first",
      () => vrfRoutes(world, "default", gateway.subscriberRoutes.table("default"), { filter: "198.19.1" }),
    ],
    ["vrf routes read + first page", () => vrfRoutes(world, "default", gateway.subscriberRoutes.table("default"), {})],
    [
      "bgp received routes vpn (largest)",
      () => neighborRoutes(world, RR.address, { type: "received", af: "ipv4Vpn", limit: 500 }),
    ],
    [
      "bgp received routes unicast",
      () => neighborRoutes(world, RR.address, { type: "received", af: "ipv4Unicast", limit: 500 }),
    ],
  ];
  for (const [name, fn] of queries) {
    const { min, p50, max } = time(fn);
    console.log(
      `${name.padEnd(38)} min ${fmt(min, 2).padStart(8)}  ` +
        `p50 ${fmt(p50, 2).padStart(8)}  max ${fmt(max, 2).padStart(8)} ms (goal p50 ≤ ` +
        `10 ms)`,
    );
  }
}
