/**
 * Evaluates every alarm condition against the current state. Run after each
 * sub-step and after each action, so alarms agree with the numbers the other
 * endpoints show at every instant.
 */
import { isoTime } from "./clock.ts";
import { bandMaxOf, graceEndMs, licenceState } from "./licence.ts";
import type { Daemon, Model } from "./model.ts";
import { percent } from "./pools.ts";

/** The daemons a scenario can fail (the contract's list: the type makes this one complete). */
const DAEMONS = Object.keys({ routing: true, ipsec: true } satisfies Record<Daemon, true>) as Daemon[];

/** Feeds the alarm book one observation of every condition. */
export function evaluateAlarms(m: Model): void {
  const t = m.profile.alarms;
  const now = m.nowMs;
  m.alarms.settle(now);
  for (const pool of m.pools) {
    const size = pool.size;
    const used = pool.used;
    const pct = size > 0 ? (used / size) * 100 : 0;
    m.alarms.observe(
      now,
      "pool.utilisation.high",
      pool.name,
      size > 0 && pct >= t.poolHighPercent,
      pct < t.poolClearPercent,
      () => ({
        text: `Address pool ${pool.name} is ${percent(used, size)}% used`,
        context: {
          pool: pool.name,
          used: String(used),
          size: String(size),
          utilisationPercent: String(percent(used, size)),
        },
      }),
    );
  }
  for (const g of m.cgn.groups) {
    const used = g.used;
    const total = g.totalChunks;
    const pct = total > 0 ? (used / total) * 100 : 0;
    m.alarms.observe(
      now,
      "cgn.pool.high",
      g.config.name,
      total > 0 && pct >= t.cgnHighPercent,
      pct < t.cgnClearPercent,
      () => ({
        text: `CGN group ${g.config.name} port blocks ${percent(used, total)}% used`,
        context: { group: g.config.name, usedChunks: String(used), totalChunks: String(total) },
      }),
    );
  }
  let dead = 0;
  m.radius.ids().forEach((id, i) => {
    // The outage, not the dead flag: a server revived by its dead time and failing again is still the same outage.
    const isDead = m.radius.isDown(id);
    if (isDead) dead++;
    const label = m.radius.label(id);
    m.alarms.observe(now, "radius.server.dead", label, isDead, !isDead, () => ({
      text: `RADIUS server ${label} is dead`,
      context: { server: label, consecutiveFailures: String(m.radius.status().servers[i]?.consecutiveFailures ?? 0) },
    }));
  });
  const allDead = m.radius.count > 0 && dead === m.radius.count;
  const queued = m.radius.accountingWaiting;
  m.alarms.observe(now, "radius.accounting.failed", null, queued > 0, queued === 0, () => ({
    text: `${queued} accounting records wait for a RADIUS server to answer`,
    context: { queued: String(queued), dropped: String(m.radius.status().accounting.dropped) },
  }));
  for (const daemon of DAEMONS) {
    const down = m.daemonsDown.has(daemon);
    m.alarms.observe(now, "daemon.down", daemon, down, !down, () => ({
      text: `The ${daemon} daemon does not answer: its state cannot be read and its sessions are not managed`,
      context: { daemon },
    }));
  }
  m.alarms.observe(now, "radius.all-dead", null, allDead, !allDead, () => ({
    text: "Every RADIUS server is dead: RADIUS-authenticated subscribers cannot connect",
    context: { servers: String(m.radius.count) },
  }));
  // A mass drop (an access node or a mass disconnect): sessions lost over five minutes, with this sub-step's so far.
  let lost = m.downSinceSample;
  for (const n of m.lossRing) lost += n;
  const before = m.store.liveCount + lost;
  const loss = Math.max(t.sessionLossMin, (before * t.sessionLossPercent) / 100);
  // Not while an upgrade drains the sessions on purpose.
  const draining = m.maintenance !== null && !m.maintenance.completed;
  m.alarms.observe(now, "sessions.loss.high", null, !draining && lost >= loss, draining || lost < loss / 2, () => ({
    text: `${lost} sessions went down in the last 5 minutes (${percent(lost, before)}% of those up)`,
    context: { lost: String(lost), sessions: String(m.store.liveCount), windowSeconds: "300" },
  }));
  const licensed = m.profile.population.licensedSessions;
  const live = m.store.liveCount;
  const pct = (live / licensed) * 100;
  m.alarms.observe(
    now,
    "sessions.capacity.high",
    null,
    pct >= t.capacityHighPercent,
    pct < t.capacityClearPercent,
    () => ({
      text: `Sessions at ${percent(live, licensed)}% of the licensed ${licensed}`,
      context: { sessions: String(live), licensed: String(licensed) },
    }),
  );
  observeLicence(m);
}

/**
 * Follows the licence at the model's instant: logs each state change, and
 * raises or clears the licence alarms (band exceeded, grace, lapsed).
 */
function observeLicence(m: Model): void {
  const now = m.nowMs;
  const terms = m.licence;
  const state = licenceState(terms, now);
  if (state !== m.licenceState) {
    const from = m.licenceState;
    m.licenceState = state;
    m.logs.emit(
      now,
      "licence.state",
      {
        from,
        to: state,
        mode: terms.mode,
        licenceId: terms.licenceId,
        expiresAtUtc: terms.expiresAtMs === null ? null : isoTime(terms.expiresAtMs),
      },
      state === "Grace" || state === "Lapsed" ? "warning" : "notice",
    );
  }
  const band = bandMaxOf(terms, m.profile.population.licensedSessions);
  const live = m.store.liveCount;
  m.alarms.observe(now, "licence.band.exceeded", null, live > band, live <= band, () => ({
    text: `Sessions ${live} exceed the licensed band ${terms.bandName} (${band})`,
    context: { currentCount: String(live), bandMax: String(band), bandName: terms.bandName },
  }));
  const expires = terms.expiresAtMs === null ? "" : isoTime(terms.expiresAtMs);
  m.alarms.observe(now, "licence.grace", null, state === "Grace", state !== "Grace", () => ({
    text: `Licence ${terms.licenceId ?? ""} expired at ${expires}; it lapses at ${isoTime(graceEndMs(terms))}`,
    context: {
      licenceId: terms.licenceId ?? "",
      mode: terms.mode,
      expiresAtUtc: expires,
      lapsesAtUtc: isoTime(graceEndMs(terms)),
    },
  }));
  m.alarms.observe(now, "licence.lapsed", null, state === "Lapsed", state !== "Lapsed", () => ({
    text:
      `Licence ${terms.licenceId ?? ""} has lapsed: configuration commits are frozen ` +
      `until a licence is activated or an offline lease loaded`,
    context: { licenceId: terms.licenceId ?? "", mode: terms.mode, expiresAtUtc: expires },
  }));
}
