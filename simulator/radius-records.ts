/**
 * What passes between the model and a real RADIUS client (issue 49): the Access-Requests the model asks, the
 * outcomes, health and pacing the client delivers, and the accounting records it sends. Here, apart from the
 * code that builds or reads them, because the model holds listeners typed by them (model.ts) while that code
 * acts on the model: beside either, the type imports would run both ways.
 */

/** RFC 2866 §5.1 Acct-Status-Type values this model sends. */
export const ACCT_STATUS = ["Start", "Interim-Update", "Stop"] as const;
type AcctStatus = (typeof ACCT_STATUS)[number];

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

/** One Accounting-Request as a transport would send it (RFC 2866 attributes, octets as 64-bit counts). */
export interface AccountingRecord {
  statusType: AcctStatus;
  /** `host:port` (the accounting port) of the server that answered; null when none did (queued). */
  server: string | null;
  /** Acct-Session-Id: the session's id. */
  sessionId: string;
  username: string;
  framedIpAddress: string;
  /** Acct-Session-Time, seconds since the session came up. */
  sessionTimeSeconds: number;
  /** From the subscriber (Acct-Input-*) and to it (Acct-Output-*); a transport splits octets into Gigawords. */
  inputOctets: number;
  outputOctets: number;
  inputPackets: number;
  outputPackets: number;
  /** Stop only. */
  terminateCause: { code: number; name: string } | null;
  /** Event-Timestamp (RFC 2869 §5.3). */
  eventTime: string;
  /** The line, as the Access-Request named it: NAS-Port-Id, Calling-Station-Id (the CPE's MAC), PPP or IPoE. */
  nasPortId: string;
  callingStationId: string;
  ppp: boolean;
  /** The session's IPv6 WAN prefix (Framed-IPv6-Prefix, RFC 3162) and delegated prefix (RFC 4818), when it has them. */
  framedIpv6Prefix: string | null;
  delegatedIpv6Prefix: string | null;
}
