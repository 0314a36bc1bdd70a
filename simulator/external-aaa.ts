/**
 * Real AAA at the model's edge (issue 49). With real servers (tcp, tls) the model cannot know an answer while a
 * step runs, so a RADIUS subscriber's setup is split where a BNG's is: the model asks (an Access-Request,
 * `askServer`: the session id is reserved, the subscriber waits, neither online nor drawn again), the appliance's
 * RADIUS client sends it and delivers the outcome with the servers' health (RadiusPool `deliver`), and the next
 * sub-step applies what was delivered, in arrival order (aaa-answers.ts): an Accept brings the session up with
 * the attributes it set, a Reject or no answer fails the setup as the simulated pool's would.
 *
 * So the model is a function of its seed and of these inputs; the inputs come from a real server, and a run
 * with one is not reproducible from its seed alone (docs/radius.md).
 */
import type { Model } from "./model.ts";
import { ENCAP_IPOE, ENCAP_L2TP, formatMac, type SubscriberAttrs } from "./subscribers.ts";

/** What an Access-Accept sets for the session, where present (RFC 2865 §5.8, §5.27, RFC 2869 §5.16, §5.18). */
export interface AcceptedAttributes {
  framedIpAddress: string | null;
  framedPool: string | null;
  sessionTimeout: number | null;
  interimInterval: number | null;
  /** The rate plan's name (Nokia's Alc-SLA-Prof-Str: docs/radius.md). */
  plan: string | null;
}

/** An Access-Request the model asks a real server (the appliance's RADIUS client sends it). */
export interface AccessRequestRecord {
  /** Acct-Session-Id: the session id the API will show once the session is up. */
  sessionId: number;
  username: string;
  /** PAP for IPoE (the BNG's configured password, as IPoE has none of its own), CHAP for PPP. */
  method: "pap" | "chap";
  /** NAS-Port-Id: the access interface and its S-VLAN and C-VLAN, e.g. `xe-0/0/0:100-42`; `lns` for an L2TP session. */
  nasPortId: string;
  /** Calling-Station-Id: the CPE's MAC. */
  callingStationId: string;
  ppp: boolean;
  /** An L2TP session (the LNS's) arrives on a virtual port. */
  virtualPort: boolean;
}

/** What came of an Access-Request, as the client delivers it. */
export type AccessOutcome =
  | { sessionId: number; result: "accept"; server: string; attributes: AcceptedAttributes }
  | { sessionId: number; result: "access-reject"; server: string }
  /** Every server tried failed to answer (the last one named). */
  | { sessionId: number; result: "timeout"; server: string }
  | { sessionId: number; result: "no-live-server" }
  /** The request waited past the timeout for its turn under the rate limit, and was not sent. */
  | { sessionId: number; result: "not-sent" };

/**
 * A real server's health as the client counts it (`host:port`), mirrored into the pool (RadiusPool `observeHealth`).
 */
export interface ServerHealth {
  server: string;
  requestsSent: number;
  accepts: number;
  rejects: number;
  consecutiveFailures: number;
  lastFailureMs: number | null;
  lastSuccessMs: number | null;
  dead: boolean;
  deadSinceMs: number | null;
  failureReason: "connect-failed" | "closed" | "timeout" | "secret-mismatch" | null;
  /** Accounting-Requests sent to its accounting port by Acct-Status-Type, and the Accounting-Responses back. */
  accounting: { start: number; interimUpdate: number; stop: number; responses: number };
}

/** The client's pacing (GET /radius/servers `pacing`). */
export interface Pacing {
  requestsPerSecond: number;
  queued: number;
  notSentInTime: number;
  /** Accounting records waiting for a live server, and those dropped from the client's full queue. */
  accountingQueued: number;
  accountingDropped: number;
}

/**
 * Asks the real servers for a subscriber: its Access-Request goes to the listener (the appliance's client) and
 * the subscriber waits. False when the client holds as many requests as it can send in time: the subscriber is
 * not asked now and stays offline (its CPE tries again), as a BNG drops discovery it cannot authorise.
 */
export function askServer(m: Model, sub: number, a: SubscriberAttrs): boolean {
  if (m.radius.outstanding().length >= m.radius.maxOutstanding) return false;
  const sessionId = m.nextSessionId++;
  m.radius.ask(sessionId, sub);
  m.takeOffline(sub);
  m.accessListener?.(accessRequestOf(m, sub, a, sessionId));
  return true;
}

/** The Access-Request of a subscriber (what a real BNG knows of it: line, MAC, login). */
export function accessRequestOf(m: Model, sub: number, a: SubscriberAttrs, sessionId: number): AccessRequestRecord {
  return {
    sessionId,
    username: m.subscribers.username(sub, a.realm),
    method: a.encap === ENCAP_IPOE ? "pap" : "chap",
    nasPortId: nasPortIdOf(m, a.port, a.svlan, a.cvlan),
    // An LNS knows no MAC (session-queries.ts macOf): it hears the subscriber through the tunnel.
    callingStationId: a.encap === ENCAP_L2TP ? "" : formatMac(a.macHi, a.macLo),
    ppp: a.encap !== ENCAP_IPOE,
    virtualPort: a.encap === ENCAP_L2TP,
  };
}

/** NAS-Port-Id: the access interface and the session's S-VLAN and C-VLAN; `lns` for an L2TP session (no port). */
export function nasPortIdOf(m: Model, port: number, svlan: number, cvlan: number): string {
  const p = port >= 0 ? m.profile.ports[port] : undefined;
  // The interface is the port label's first word (`xe-0/0/0 OLT-north`), as Juniper writes NAS-Port-Id.
  return p ? `${p.label.split(" ")[0]}:${svlan}-${cvlan}` : "lns";
}

/** Asks again for every request outstanding (the client restarted with the appliance: nothing of them was kept). */
export function outstandingRequests(m: Model): AccessRequestRecord[] {
  return m.radius
    .outstanding()
    .map(([sessionId, sub]) => accessRequestOf(m, sub, m.subscribers.describe(sub, m.scratch), sessionId));
}
