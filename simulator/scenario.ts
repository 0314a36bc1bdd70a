/**
 * Scenario actions: fault injection for CI pipelines (advance the clock,
 * churn multiplier, fail or revive a RADIUS server or an L2TP peer, fill or drain a pool or
 * a CGN group, disconnect a share of sessions, reseed). Their schema is the
 * wire contract's (src/schemas/scenario.ts), the single source of their
 * validation and types. Every action is logged.
 */
import type { ScenarioAction } from "../src/schemas/scenario.ts";
import { evaluateAlarms } from "./conditions.ts";
import { teardownSession } from "./lifecycle.ts";
import type { Model } from "./model.ts";
import { matchingSlots } from "./session-queries.ts";

/** Outcome of an action. */
export type ScenarioResult =
  | { ok: true; action: ScenarioAction["action"]; detail: Record<string, number | string> }
  | { ok: false; reason: "unknown-pool" | "unknown-group" | "unknown-server" | "unknown-peer" | "fill-too-large" };

/**
 * Applies an action that only touches the model's state. `advance-clock`
 * and `reseed` replace or drive the whole model and are handled by the
 * Gateway before reaching here.
 */
export function applyAction(
  m: Model,
  a: Exclude<ScenarioAction, { action: "advance-clock" | "reseed" }>,
): ScenarioResult {
  const result = run(m, a);
  if (result.ok) {
    m.logs.emit(m.nowMs, "scenario.action", { action: a.action, detail: describe(result.detail) });
    evaluateAlarms(m);
  }
  return result;
}

function run(m: Model, a: Exclude<ScenarioAction, { action: "advance-clock" | "reseed" }>): ScenarioResult {
  switch (a.action) {
    case "set-churn-multiplier":
      m.churnMultiplier = a.multiplier;
      m.lifetimes.redraw(m);
      return { ok: true, action: a.action, detail: { multiplier: a.multiplier } };
    case "fail-radius-server":
    case "revive-radius-server": {
      const server = m.radius.find(a.server);
      if (server < 0) return { ok: false, reason: "unknown-server" };
      if (a.action === "fail-radius-server") m.radius.forceDown(server);
      else m.radius.restore(server, m.nowMs);
      return { ok: true, action: a.action, detail: { server: m.radius.label(server) } };
    }
    case "fill-pool":
    case "drain-pool": {
      const pool = m.pools.find((p) => p.name.toLowerCase() === a.pool.toLowerCase());
      if (!pool) return { ok: false, reason: "unknown-pool" };
      if (a.action === "drain-pool")
        return { ok: true, action: a.action, detail: { pool: pool.name, released: pool.drain() } };
      const filled = pool.fill(a.percent);
      if (!filled.ok) return filled;
      return { ok: true, action: a.action, detail: { pool: pool.name, reserved: filled.reserved } };
    }
    case "fill-cgn-group":
    case "drain-cgn-group": {
      const g = m.cgn.findGroup(a.group);
      if (g < 0) return { ok: false, reason: "unknown-group" };
      const name = m.cgn.groups[g]?.config.name ?? a.group;
      if (a.action === "drain-cgn-group")
        return { ok: true, action: a.action, detail: { group: name, released: m.cgn.drain(g) } };
      return { ok: true, action: a.action, detail: { group: name, reserved: m.cgn.fill(g, a.percent) } };
    }
    case "fail-daemon":
    case "revive-daemon":
      if (a.action === "fail-daemon") m.daemonsDown.add(a.daemon);
      else m.daemonsDown.delete(a.daemon);
      return { ok: true, action: a.action, detail: { daemon: a.daemon } };
    case "fail-l2tp-peer":
    case "revive-l2tp-peer": {
      const peer = m.l2tp.findPeer(a.peer);
      if (peer < 0) return { ok: false, reason: "unknown-peer" };
      if (a.action === "revive-l2tp-peer") {
        m.l2tp.revive(peer);
        // A LAC back brings its subscribers back; an LNS back is used again once its lockout ends.
        const back = m.l2tp.subscribersOf(m, peer, m.parked());
        for (const sub of back) m.makeReady(sub);
        return { ok: true, action: a.action, detail: { peer: m.l2tp.peerLabel(peer), returning: back.length } };
      }
      // Found out at each tunnel's next Hello (l2tp.ts): its sessions drop then.
      const riding = m.l2tp.fail(m, peer);
      return { ok: true, action: a.action, detail: { peer: m.l2tp.peerLabel(peer), sessions: riding } };
    }
    case "disconnect-sessions": {
      const slots = matchingSlots(m, a.filter);
      const count = Math.round(slots.length * a.share);
      // Partial Fisher-Yates: a uniform sample of `count` sessions from the matching ones.
      for (let i = 0; i < count; i++) {
        const j = i + m.rng.int(slots.length - i);
        const t = slots[i] ?? 0;
        slots[i] = slots[j] ?? 0;
        slots[j] = t;
      }
      for (let i = 0; i < count; i++) teardownSession(m, slots[i] ?? 0, "scenario");
      return { ok: true, action: a.action, detail: { matched: slots.length, disconnected: count } };
    }
  }
}

function describe(detail: Record<string, number | string>): string {
  return Object.entries(detail)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}
