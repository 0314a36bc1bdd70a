/**
 * One 10-second sub-step of the data plane, in a fixed order so that the
 * random stream is consumed identically on every run: expiries, lifetime
 * events (sessions ending: lifetimes.ts), subscribers whose CPE is back,
 * setups (generated subscribers, then configured local ones), lease renewals
 * and expiries (leases.ts), traffic (with CGN flows), CGN housekeeping,
 * captures, the metrics sample, alarms, and the aggregate activity log.
 *
 * Population: nothing tops the online count up. Every subscriber whose CPE
 * is up and not online dials (the ready ones: all of them after a start, a
 * CPE back from a reboot or an absence, a session ended by the operator),
 * up to population.setupsPerSecond; a failed attempt is tried again at the
 * next step. So the count dips as sessions end and recovers as CPEs return.
 */
import { SUB_STEP_MS, SUB_STEP_SECONDS } from "./clock.ts";
import { applyDelivered } from "./aaa-answers.ts";
import { runAccounting } from "./accounting.ts";
import { evaluateAlarms } from "./conditions.ts";
import { grantLease, runLeases } from "./leases.ts";
import { setupSession, teardownSession } from "./lifecycle.ts";
import { connectLocalSubscribers } from "./local-sessions.ts";
import type { Model } from "./model.ts";
import { ENCAP_PPPOE_LAC } from "./subscribers.ts";
import { packetsPerSecond, runTraffic } from "./traffic.ts";
import { drainStep, maintenanceGate } from "./upgrade.ts";

/** Runs one sub-step. */
export function subStep(m: Model): void {
  m.nowMs += SUB_STEP_MS;
  m.tick++;
  m.resetTally();
  const now = m.nowMs;
  // A software upgrade may close admission (drain) or stop the data plane altogether (reboot).
  const gate = maintenanceGate(m);
  if (gate === "down") return;
  const p = m.profile;
  m.cgn.beginStep();
  for (const pool of m.pools) pool.expire(now);
  m.radius.tick(now);
  // Real RADIUS servers' answers since the last step (their setups complete before new ones are asked for).
  applyDelivered(m);

  m.lifetimes.run(m, (slot, cause, backMs) => teardownSession(m, slot, cause, false, backMs));
  m.lifetimes.wake(m, (slot) => grantLease(m, slot));

  const attempts = Math.min(Math.floor(p.population.setupsPerSecond * SUB_STEP_SECONDS), m.readyCount);
  if (gate === "closed") {
    drainStep(m, attempts);
  } else {
    for (let k = 0; k < attempts && m.readyCount > 0; k++) {
      const sub = m.offline[m.rng.int(m.readyCount)] ?? 0;
      setupSession(m, sub);
    }
    // Configured local subscribers are not drawn by arrivals: each offline one tries by itself.
    connectLocalSubscribers(m);
  }

  // A lease nobody renewed ends its session; the subscriber is back when its CPE is.
  for (const slot of runLeases(m)) {
    teardownSession(m, slot, "lease-expired", false, (m.backAt[m.store.sub[slot] ?? 0] ?? 0) * 1000);
  }
  runTraffic(m);
  runAccounting(m);
  // Ports and uplinks count frames on the wire: the sessions' packets, their encapsulation and control plane (wire.ts).
  m.wire.update(m);
  m.portCounters.add(m.wire.rx, m.wire.tx, m.wire.rxPps, m.wire.txPps);

  m.cgn.tick(now, m.rng);
  m.cgn.endStep();
  m.captures.tick(now, (slot) => packetsPerSecond(m, slot));
  // Sessions of a tunnel whose Hello went unanswered: a LAC's CPEs dial again at once (and fail over), a failed
  // LAC's subscribers are back with it.
  for (const slot of m.l2tp.tick(m)) {
    const lac = m.store.encap[slot] === ENCAP_PPPOE_LAC;
    teardownSession(m, slot, "l2tp-peer-unreachable", false, lac ? m.nowMs : Number.POSITIVE_INFINITY);
  }
  m.metrics.record(now, m.store.liveCount, m.store.byEncap, m.upSinceSample, m.downSinceSample, m.wire.rx, m.wire.tx);
  m.lossAt = (m.lossAt + 1) % m.lossRing.length;
  m.lossRing[m.lossAt] = m.downSinceSample;
  m.upSinceSample = 0;
  m.downSinceSample = 0;
  evaluateAlarms(m);
  logActivity(m);
}

/** One aggregate entry when a sub-step produced more session events than the sampling budget logged individually. */
function logActivity(m: Model): void {
  const t = m.tally;
  const unloggedFailed = t.failed - t.loggedFailed;
  if (t.up === t.loggedUp && t.down === t.loggedDown && unloggedFailed === 0) return;
  m.logs.emit(m.nowMs, "session.activity", {
    intervalSeconds: SUB_STEP_SECONDS,
    up: t.up,
    down: t.down,
    failed: t.failed,
    unloggedUp: t.up - t.loggedUp,
    unloggedDown: t.down - t.loggedDown,
    unloggedFailed,
  });
}
