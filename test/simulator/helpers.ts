/**
 * Shared test helpers: loading the shipped profiles, deriving variants, and
 * the cross-endpoint consistency check every long run ends with. Everything
 * here reads the model through the public façade, as the API will.
 */
import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { Gateway, parseProfile, type Profile, type SessionSummary } from "../../simulator/index.ts";
import { decodeSnapshot, encodeSnapshot } from "../../simulator/snapshot.ts";
import type { PROFILE_NAMES } from "../../fleet-config/schema.ts";

/** 2026-01-01 12:00 UTC: a fixed start so tests never read the wall clock. */
export const START = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Raw JSON of a shipped profile. */
export function rawProfile(name: (typeof PROFILE_NAMES)[number]): Record<string, unknown> {
  const path = `${import.meta.dirname}/../../fleet-config/profiles/${name}.json`;
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

/** A shipped profile, optionally with top-level sections patched, validated by the schema. */
export function profile(
  name: (typeof PROFILE_NAMES)[number] = "small",
  patch: (raw: Record<string, any>) => void = () => {},
): Profile {
  const raw = structuredClone(rawProfile(name)) as Record<string, any>;
  patch(raw);
  const parsed = parseProfile(raw);
  if (!parsed.ok) throw new Error(parsed.issues.join("\n"));
  return parsed.profile;
}

/** A gateway on a profile, already stepped `seconds` of simulated time. */
export function gateway(p: Profile = profile(), seed = 1, seconds = 0): Gateway {
  const g = Gateway.create(p, { seed, startTimeMs: START });
  if (seconds > 0) g.step(seconds);
  return g;
}

/** Every live session, newest first, by paging the list at its maximum page size. */
export function allSessions(g: Gateway, query: Parameters<Gateway["sessions"]["list"]>[0] = {}): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = g.sessions.list({ ...query, offset, limit: 500 });
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}

/** Every CGN binding row. */
export function allBindings(g: Gateway): ReturnType<Gateway["cgn"]["bindings"]>["items"] {
  const out: ReturnType<Gateway["cgn"]["bindings"]>["items"] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = g.cgn.bindings({ offset, limit: 1000 });
    out.push(...page.items);
    if (page.items.length < 1000) return out;
  }
}

/** Every allocation of a pool. */
export function allAllocations(
  g: Gateway,
  pool: string,
): Extract<ReturnType<Gateway["pools"]["allocations"]>, { ok: true }>["page"]["items"] {
  const out: Extract<ReturnType<Gateway["pools"]["allocations"]>, { ok: true }>["page"]["items"] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = g.pools.allocations(pool, { offset, limit: 1000 });
    if (!r.ok) throw new Error(r.reason);
    out.push(...r.page.items);
    if (r.page.items.length < 1000) return out;
  }
}

/**
 * Asserts that every endpoint agrees with every other at this instant.
 * `justStepped`: the newest metrics sample was taken at this instant, so it
 * must equal the live count. `noReservations`: no scenario fill is active,
 * so CGN port blocks listed equal the used chunks exactly.
 */
export function expectConsistent(g: Gateway, opts: { justStepped?: boolean; noReservations?: boolean } = {}): void {
  const summary = g.sessions.summary();
  const sessions = allSessions(g);
  const sum = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0);

  // Sessions: list total = summary total = Σ byEncap = Σ byType = Σ byVrf; Σ byPort = total − LNS-terminated.
  expect(g.sessions.list({ limit: 1 }).total).toBe(summary.total);
  expect(sessions.length).toBe(summary.total);
  // The list as the API answers it, from the rows the model keeps encoded, is the list built afresh: no row is stale.
  for (let offset = 0; offset < Math.max(1, sessions.length); offset += 500) {
    const served: unknown = JSON.parse(g.sessions.listText({ offset, limit: 500 }));
    const built = g.sessions.list({ offset, limit: 500 });
    // node's deep equality first (vitest's is slower by seconds at 128,000 sessions); vitest's only to show a
    // difference.
    if (!isDeepStrictEqual(served, built)) expect(served).toEqual(built);
  }
  expect(sum(summary.byEncap)).toBe(summary.total);
  expect(sum(summary.byType)).toBe(summary.total);
  expect(sum(summary.byVrf)).toBe(summary.total);
  const lns = sessions.filter((s) => s.portId === null).length;
  expect(lns).toBe(summary.byEncap.l2tp);
  expect(summary.byPort.reduce((a, p) => a + p.count, 0)).toBe(summary.total - lns);
  for (const p of summary.byPort) expect(sessions.filter((s) => s.portId === p.portId).length).toBe(p.count);
  for (const [encap, n] of Object.entries(summary.byEncap))
    expect(sessions.filter((s) => s.encap === encap).length).toBe(n);
  for (const [vrf, n] of Object.entries(summary.byVrf)) expect(sessions.filter((s) => s.vrf === vrf).length).toBe(n);
  expect(sessions.filter((s) => s.walledGarden).length).toBe(summary.walledGarden);
  // Loops over every session collect what is wrong and assert once: an expect a session cost seconds at 128,000.
  expect(
    sessions.findIndex((s, i) => i > 0 && sessions[i - 1]!.id <= s.id),
    "newest first",
  ).toBe(-1);
  expect(g.licence.meter().currentCount).toBe(summary.total);
  expect(g.licence.status().currentCount).toBe(summary.total);

  // L2TP: every pppoe-lac session rides exactly one upstream tunnel, every l2tp session one downstream tunnel.
  const riding = new Map<number, string>();
  const tunnels = g.l2tp.tunnels().tunnels;
  for (const t of tunnels) {
    const d = g.l2tp.tunnel(t.localTunnelId);
    if (!d.ok) throw new Error(`listed tunnel ${t.localTunnelId} has no detail`);
    expect(d.tunnel.sessionList.length).toBe(t.sessions);
    expect(t.state === "established").toBe(t.sessions > 0);
    for (const s of d.tunnel.sessionList) {
      expect(riding.has(s.id)).toBe(false);
      riding.set(s.id, t.direction);
    }
  }
  const carried = (direction: string) =>
    tunnels.filter((t) => t.direction === direction).reduce((a, t) => a + t.sessions, 0);
  expect(carried("upstream")).toBe(summary.byEncap["pppoe-lac"]);
  expect(carried("downstream")).toBe(summary.byEncap.l2tp);
  const misplaced = sessions.filter(
    (s) => riding.get(s.id) !== (s.encap === "pppoe-lac" ? "upstream" : s.encap === "l2tp" ? "downstream" : undefined),
  );
  expect(misplaced.map((s) => `${s.id} ${s.encap} rides ${riding.get(s.id)}`)).toEqual([]);

  // Pools: used + free = size (per pool and per subnet); allocations total = used; every live
  // session's blocks allocated exactly once to it, and no dynamic allocation without a live session.
  const expected = new Set<string>();
  const cgnSessions = new Set<number>();
  for (const s of sessions) {
    const d = g.sessions.detail(s.id);
    if (!d.ok) throw new Error(`listed session ${s.id} has no detail`);
    const a = d.session.addresses;
    // A local subscriber's address configured outside every pool (pool null) is in no allocation list.
    if (a.ipv4.pool !== null) expected.add(`${a.ipv4.pool}|${a.ipv4.address}|${s.id}`);
    if (a.ipv6Wan?.pool) expected.add(`${a.ipv6Wan.pool}|${a.ipv6Wan.prefix}|${s.id}`);
    if (a.ipv6Pd?.pool) expected.add(`${a.ipv6Pd.pool}|${a.ipv6Pd.prefix}|${s.id}`);
    if (d.session.cgn) cgnSessions.add(s.id);
  }
  const actual = new Set<string>();
  for (const pool of g.pools.list()) {
    expect(pool.used + pool.free).toBe(pool.size);
    expect(pool.subnets.reduce((a, s) => a + s.size, 0)).toBe(pool.size);
    expect(pool.subnets.reduce((a, s) => a + s.used, 0)).toBe(pool.used);
    for (const s of pool.subnets) expect(s.used + s.free).toBe(s.size);
    const items = allAllocations(g, pool.name);
    expect(items.length).toBe(pool.used);
    const prefixes = items.map((i) => i.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(items.filter((i) => i.kind === "offered").length).toBe(pool.offered);
    expect(items.filter((i) => i.kind === "quarantined").length).toBe(pool.quarantined);
    // A static block held by a live session (a local subscriber's configured address) counts as that session's.
    for (const i of items)
      if (i.kind === "dynamic" || (i.static && i.sessionId !== 0))
        actual.add(`${pool.name}|${i.prefix}|${i.sessionId}`);
  }
  expect(actual.size).toBe(expected.size);
  expect([...expected].filter((e) => !actual.has(e))).toEqual([]);

  // CGN: activeBindings = bindings listed; groups add up; session bindings ↔ sessions with a binding.
  const cgn = g.cgn.status();
  const bindings = allBindings(g);
  expect(g.cgn.bindings({ limit: 1 }).total).toBe(cgn.activeBindings);
  expect(bindings.length).toBe(cgn.activeBindings);
  expect(bindings.filter((b) => b.autoLearned).length).toBe(cgn.autoLearnedBindings);
  expect(cgn.groups.reduce((a, gr) => a + gr.activeBindings, 0)).toBe(cgn.activeBindings);
  for (const gr of cgn.groups) {
    const u = gr.utilisation;
    expect(u.freeChunks + u.usedChunks + u.quarantinedChunks).toBe(u.totalChunks);
    const blocks = bindings.filter((b) => b.group === gr.name).reduce((a, b) => a + b.portBlocks.length, 0);
    if (opts.noReservations) expect(blocks).toBe(u.usedChunks);
    else expect(blocks).toBeLessThanOrEqual(u.usedChunks);
  }
  const bound = bindings.filter((b) => b.sessionId !== 0).map((b) => b.sessionId);
  expect(new Set(bound).size).toBe(bound.length);
  expect(new Set(bound)).toEqual(cgnSessions);

  // Metrics: arrays aligned with times; the newest sample is the live count when just stepped.
  for (const range of ["1h", "6h", "24h"]) {
    const h = g.metrics.history(range);
    const n = h.times.length;
    for (const arr of [
      h.totalSessions,
      h.sessionsUp,
      h.sessionsDown,
      h.byEncap.ipoe,
      h.byEncap.pppoeLocal,
      h.byEncap.pppoeLac,
      h.byEncap.l2tp,
    ]) {
      expect(arr.length).toBe(n);
    }
    for (const p of h.ports) {
      expect(p.rxBps.length).toBe(n);
      expect(p.txBps.length).toBe(n);
    }
    h.totalSessions.forEach((t, i) =>
      expect(
        (h.byEncap.ipoe[i] ?? 0) +
          (h.byEncap.pppoeLocal[i] ?? 0) +
          (h.byEncap.pppoeLac[i] ?? 0) +
          (h.byEncap.l2tp[i] ?? 0),
      ).toBe(t),
    );
    if (opts.justStepped && n > 0) expect(h.totalSessions[n - 1]).toBe(summary.total);
  }

  // Alarms and RADIUS: counts agree with their lists.
  const alarms = g.alarms.list();
  expect(alarms.count).toBe(alarms.active.length);
  expect(sum(alarms.countBySeverity)).toBe(alarms.count);
  expect(alarms.stats.events).toBe(alarms.stats.raised + alarms.stats.cleared);
  expect(alarms.stats.raised - alarms.stats.cleared).toBe(alarms.count);
  const radius = g.radius.status();
  expect(radius.liveServers + radius.deadServers).toBe(radius.totalServers);
  expect(radius.servers.filter((s) => s.isDead).length).toBe(radius.deadServers);
}

/** A compact, order-sensitive digest of everything observable, for determinism checks. */
export function observe(g: Gateway): string {
  return JSON.stringify({
    now: g.nowMs,
    summary: g.sessions.summary(),
    sessions: allSessions(g).map((s) => [s.id, s.username, s.ipv4, s.ipv6, s.mac, s.uptimeSeconds]),
    pools: g.pools.list(),
    cgn: g.cgn.status(),
    bindings: g.cgn.bindings({ limit: 1000 }).items,
    radius: g.radius.status(),
    alarms: g.alarms.list(),
    logs: g.logs.tail({ count: 1000 }),
    captures: g.captures.list(),
    licence: g.licence.status(),
    l2tp: g.l2tp.tunnels().tunnels.map((t) => {
      const d = g.l2tp.tunnel(t.localTunnelId);
      return d.ok ? d.tunnel : null;
    }),
  });
}

/** A copy of a gateway through its chunked snapshot, as the Durable Object stores and reloads it. */
export function restore(g: Gateway): Gateway {
  const decoded = decodeSnapshot(encodeSnapshot(g.snapshot(), 64 * 1024));
  if (!decoded.ok) throw new Error(decoded.reason);
  const r = Gateway.restore(g.profile, decoded.snapshot);
  if (!r.ok) throw new Error(r.reason);
  return r.gateway;
}
