/**
 * RADIUS accounting (RFC 2866) of the RADIUS-authenticated sessions: an
 * Accounting-Request Start as a session comes up, an Interim-Update every
 * `aaa.interimSeconds` (Acct-Interim-Interval, RFC 2869 §5.16) plus a random
 * delay of up to 300 s or half the interval (Cisco's `aaa accounting update
 * periodic … jitter maximum`, 300 s by default: it keeps sessions brought up
 * together from updating together) and a Stop as it ends, with the session's
 * octets, packets, time and Acct-Terminate-Cause.
 * The simulated servers count them (aaa.ts `account`); a record no server
 * answers waits in the RADIUS client's queue and is sent again, oldest first,
 * as servers answer (`radius.accounting.failed` is raised meanwhile).
 *
 * The record of each request (`AccountingRecord`) is what a real transport
 * would send: it is built only for a listener (Gateway `onAccounting`), so
 * the model pays for counting alone.
 */
import { isoTime } from "./clock.ts";
import type { DownCause } from "./lifetimes.ts";
import type { Model } from "./model.ts";
import { formatIpv4 } from "./prefix.ts";
import { hashUnit } from "./random.ts";
import { countersOf, macOf } from "./session-queries.ts";
import { nasPortIdOf } from "./external-aaa.ts";
import { ACCT_STATUS, type AccountingRecord } from "./radius-records.ts";
import { ENCAP_IPOE } from "./subscribers.ts";

const START = 0;
const INTERIM = 1;
const STOP = 2;

/** The largest random delay added to an interim update, seconds. */
const JITTER_SECONDS = 300;
/** Records sent again from the queue per sub-step at most (a storm of them once a server answers again). */
const FLUSH_PER_STEP = 2000;

/**
 * Acct-Terminate-Cause (RFC 2866 §5.10) for each way a session ends: what a BNG can tell. A CPE gone silent is
 * Lost-Carrier (LCP echo unanswered), an IPoE client gone past its lease Idle-Timeout (the lease is its idle
 * timer), a CPE closing first User-Request; the operator's acts are Admin-Reset, an upgrade's drain
 * Admin-Reboot, the box's own reconfiguration NAS-Request, a lost L2TP tunnel Lost-Service.
 */
export const TERMINATE_CAUSES: Record<DownCause, { code: number; name: string }> = {
  "line-down": { code: 2, name: "Lost-Carrier" },
  "cpe-reboot": { code: 2, name: "Lost-Carrier" },
  "cpe-power-off": { code: 2, name: "Lost-Carrier" },
  "cpe-firmware-upgrade": { code: 1, name: "User-Request" },
  "session-timeout": { code: 5, name: "Session-Timeout" },
  "lease-expired": { code: 4, name: "Idle-Timeout" },
  "admin-reset": { code: 6, name: "Admin-Reset" },
  scenario: { code: 6, name: "Admin-Reset" },
  "local-subscriber-removed": { code: 6, name: "Admin-Reset" },
  "local-subscriber-changed": { code: 6, name: "Admin-Reset" },
  "static-address-claimed": { code: 10, name: "NAS-Request" },
  "pool-reconfigured": { code: 10, name: "NAS-Request" },
  reseed: { code: 11, name: "NAS-Reboot" },
  "l2tp-peer-unreachable": { code: 3, name: "Lost-Service" },
};

/** The cause of a teardown that names none of the above (an upgrade's drain passes `admin-reboot`). */
function causeOf(cause: string): { code: number; name: string } {
  return (
    (TERMINATE_CAUSES as Record<string, { code: number; name: string }>)[cause] ??
    (cause === "admin-reboot" ? { code: 7, name: "Admin-Reboot" } : { code: 10, name: "NAS-Request" })
  );
}

/** Accounts a RADIUS-authenticated session that has just come up: Start, and its first Interim-Update filed. */
export function accountStart(m: Model, slot: number): void {
  if ((m.store.aaa[slot] ?? -1) < 0) return;
  send(m, slot, START, null);
  m.store.setInterim(slot, nextInterim(m, slot));
}

/** When a session's next Interim-Update is due: an interval from now, and a jitter. */
function nextInterim(m: Model, slot: number): number {
  const interval = m.profile.aaa.interimSeconds;
  const now = Math.ceil(m.nowMs / 1000);
  const jitter = Math.min(JITTER_SECONDS, interval / 2) * hashUnit(m.seed ^ (m.store.id[slot] ?? 0), now, 60);
  return now + interval + Math.floor(jitter);
}

/** Accounts a session going down (before its slot is freed): Stop with its cause. */
export function accountStop(m: Model, slot: number, cause: string): void {
  if ((m.store.aaa[slot] ?? -1) < 0) return;
  send(m, slot, STOP, causeOf(cause));
}

/** Sends the Interim-Updates due now, then what the queue holds (every sub-step). */
export function runAccounting(m: Model): void {
  for (const slot of m.store.dueInterims(m.nowMs)) {
    if ((m.store.aaa[slot] ?? -1) < 0) continue;
    send(m, slot, INTERIM, null);
    m.store.setInterim(slot, nextInterim(m, slot));
  }
  m.radius.flush(m.rng, m.nowMs, FLUSH_PER_STEP);
}

/** Sends one request of a session (the queue takes it when no server answers) and tells the listener. */
function send(m: Model, slot: number, type: 0 | 1 | 2, cause: { code: number; name: string } | null): void {
  // No RADIUS server configured: no accounting to send (and nothing to queue).
  if (m.radius.count === 0) return;
  const listener = m.accountingListener;
  // Real servers (issue 49): the record is what the appliance's RADIUS client sends, paced and queued by it; the
  // model neither draws a loss nor counts it (the client's counts come back with its servers' health).
  const external = m.radius.external;
  if (external && !listener) return;
  // Behind records already waiting: the queue keeps their order.
  const server = external ? -1 : m.radius.queued > 0 ? -1 : m.radius.account(m.rng, m.nowMs, type);
  if (server < 0 && !external) m.radius.enqueue(type);
  if (!listener) return;
  const s = m.store;
  const counters = countersOf(s, slot, m.tick);
  listener({
    statusType: ACCT_STATUS[type],
    server: server >= 0 ? m.radius.accountingLabel(server) : null,
    sessionId: String(s.id[slot] ?? 0),
    username: m.usernameOf(slot),
    framedIpAddress: formatIpv4(s.v4Addr[slot] ?? 0),
    sessionTimeSeconds: Math.max(0, Math.round((m.nowMs - (s.upMs[slot] ?? m.nowMs)) / 1000)),
    inputOctets: counters.rxBytes,
    outputOctets: counters.txBytes,
    inputPackets: counters.rxPackets,
    outputPackets: counters.txPackets,
    terminateCause: cause,
    eventTime: isoTime(m.nowMs),
    ...lineOf(m, slot),
  });
}

/** What a record says of the session's line and IPv6 (only built for a listener). */
function lineOf(
  m: Model,
  slot: number,
): Pick<AccountingRecord, "nasPortId" | "callingStationId" | "ppp" | "framedIpv6Prefix" | "delegatedIpv6Prefix"> {
  const s = m.store;
  const wan = s.wanPool[slot] ?? -1;
  const pd = s.pdPool[slot] ?? -1;
  return {
    nasPortId: nasPortIdOf(m, s.port[slot] ?? -1, s.svlan[slot] ?? 0, s.cvlan[slot] ?? 0),
    callingStationId: macOf(m, slot),
    ppp: (s.encap[slot] ?? ENCAP_IPOE) !== ENCAP_IPOE,
    framedIpv6Prefix: wan >= 0 ? (m.pools[wan]?.text(s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0) ?? null) : null,
    delegatedIpv6Prefix: pd >= 0 ? (m.pools[pd]?.text(s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0) ?? null) : null,
  };
}
