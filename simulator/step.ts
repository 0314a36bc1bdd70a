/**
 * One 10-second sub-step of the data plane, in a fixed order so that the
 * random stream is consumed identically on every run: expiries, departures,
 * setups (generated subscribers, then configured local ones), traffic (with
 * lease renewals and CGN flows), CGN housekeeping, captures, the metrics
 * sample, alarms, and the aggregate activity log.
 *
 * Population: departures are Poisson(disconnectsPerSecond × curve ×
 * multiplier) over live sessions; setups are Poisson(connectsPerSecond ×
 * curve × multiplier) arrivals, raised to the deficit below the steady state
 * (bring-up after a start, CPEs reconnecting after an outage), all capped by
 * population.setupsPerSecond.
 */
import { SUB_STEP_MS, SUB_STEP_SECONDS, dailyFactor } from "./clock.ts";
import { applyDelivered } from "./aaa-answers.ts";
import { evaluateAlarms } from "./conditions.ts";
import { setupSession, teardownSession } from "./lifecycle.ts";
import { connectLocalSubscribers } from "./local-sessions.ts";
import type { Model } from "./model.ts";
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

  const churn = dailyFactor(p.churn.dailyCurve, now, p.utcOffsetMinutes) * m.churnMultiplier;
  const departures = Math.min(m.store.liveCount, m.rng.poisson(p.churn.disconnectsPerSecond * churn * SUB_STEP_SECONDS));
  for (let k = 0; k < departures; k++) {
    const slot = m.store.live[m.rng.int(m.store.liveCount)] ?? 0;
    teardownSession(m, slot, "churn");
  }

  const arrivals = m.rng.poisson(p.churn.connectsPerSecond * churn * SUB_STEP_SECONDS);
  const deficit = p.population.steadyStateSessions - m.store.liveCount;
  const attempts = Math.min(Math.floor(p.population.setupsPerSecond * SUB_STEP_SECONDS), Math.max(arrivals, deficit));
  if (gate === "closed") {
    drainStep(m, Math.min(attempts, m.offlineCount));
  } else {
    for (let k = 0; k < attempts && m.offlineCount > 0; k++) {
      const sub = m.offline[m.rng.int(m.offlineCount)] ?? 0;
      setupSession(m, sub);
    }
    // Configured local subscribers are not drawn by arrivals: each offline one tries by itself.
    connectLocalSubscribers(m);
  }

  const lapsed = runTraffic(m);
  for (const slot of lapsed) teardownSession(m, slot, "lease-expired");
  m.portCounters.add(m.store.portRx, m.store.portTx);

  m.cgn.tick(now, m.rng);
  m.cgn.endStep();
  m.captures.tick(now, (slot) => packetsPerSecond(m, slot));
  m.l2tp.tick(m);
  m.metrics.record(now, m.store.liveCount, m.store.byEncap, m.upSinceSample, m.downSinceSample, m.store.portRx, m.store.portTx);
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
