/**
 * The RADIUS numbers this appliance sends and reads: packet codes (RFC 2865 §3, RFC 2866 §3, RFC 5176 §3,
 * RFC 5997), attribute types (RFC 2865 §5, RFC 2866 §5, RFC 2869 §5, RFC 3162, RFC 4818, RFC 5176 §3.5) and the
 * enumerated values among them. Names are FreeRADIUS's dictionary names, so a detail file reads the same words.
 */

/** Packet codes. */
export const CODE = {
  "Access-Request": 1,
  "Access-Accept": 2,
  "Access-Reject": 3,
  "Accounting-Request": 4,
  "Accounting-Response": 5,
  "Access-Challenge": 11,
  "Status-Server": 12,
  "Disconnect-Request": 40,
  "Disconnect-ACK": 41,
  "Disconnect-NAK": 42,
  "CoA-Request": 43,
  "CoA-ACK": 44,
  "CoA-NAK": 45,
} as const;
export type CodeName = keyof typeof CODE;

/** How an attribute's value is written (RFC 8044 data types, as FreeRADIUS's dictionary names them). */
export type AttributeKind = "text" | "string" | "ipaddr" | "integer" | "date" | "ipv6addr" | "ipv6prefix";

/** Attribute types by name, with their value's kind. */
export const ATTRIBUTE = {
  "User-Name": { type: 1, kind: "text" },
  "User-Password": { type: 2, kind: "string" },
  "CHAP-Password": { type: 3, kind: "string" },
  "NAS-IP-Address": { type: 4, kind: "ipaddr" },
  "NAS-Port": { type: 5, kind: "integer" },
  "Service-Type": { type: 6, kind: "integer" },
  "Framed-Protocol": { type: 7, kind: "integer" },
  "Framed-IP-Address": { type: 8, kind: "ipaddr" },
  "Filter-Id": { type: 11, kind: "text" },
  "Reply-Message": { type: 18, kind: "text" },
  Class: { type: 25, kind: "string" },
  "Vendor-Specific": { type: 26, kind: "string" },
  "Session-Timeout": { type: 27, kind: "integer" },
  "Idle-Timeout": { type: 28, kind: "integer" },
  "Called-Station-Id": { type: 30, kind: "text" },
  "Calling-Station-Id": { type: 31, kind: "text" },
  "NAS-Identifier": { type: 32, kind: "text" },
  "Proxy-State": { type: 33, kind: "string" },
  "Acct-Status-Type": { type: 40, kind: "integer" },
  "Acct-Delay-Time": { type: 41, kind: "integer" },
  "Acct-Input-Octets": { type: 42, kind: "integer" },
  "Acct-Output-Octets": { type: 43, kind: "integer" },
  "Acct-Session-Id": { type: 44, kind: "text" },
  "Acct-Authentic": { type: 45, kind: "integer" },
  "Acct-Session-Time": { type: 46, kind: "integer" },
  "Acct-Input-Packets": { type: 47, kind: "integer" },
  "Acct-Output-Packets": { type: 48, kind: "integer" },
  "Acct-Terminate-Cause": { type: 49, kind: "integer" },
  "Acct-Input-Gigawords": { type: 52, kind: "integer" },
  "Acct-Output-Gigawords": { type: 53, kind: "integer" },
  "Event-Timestamp": { type: 55, kind: "date" },
  "CHAP-Challenge": { type: 60, kind: "string" },
  "NAS-Port-Type": { type: 61, kind: "integer" },
  "Message-Authenticator": { type: 80, kind: "string" },
  "Acct-Interim-Interval": { type: 85, kind: "integer" },
  "NAS-Port-Id": { type: 87, kind: "text" },
  "Framed-Pool": { type: 88, kind: "text" },
  "Framed-IPv6-Prefix": { type: 97, kind: "ipv6prefix" },
  "Error-Cause": { type: 101, kind: "integer" },
  "Delegated-IPv6-Prefix": { type: 123, kind: "ipv6prefix" },
  "Framed-IPv6-Address": { type: 168, kind: "ipv6addr" },
} as const satisfies Record<string, { type: number; kind: AttributeKind }>;
export type AttributeName = keyof typeof ATTRIBUTE;

/**
 * The vendor attribute that names a subscriber's rate plan in an Access-Accept: Nokia (Alcatel-Lucent) SR OS's
 * `Alc-SLA-Prof-Str` (vendor 6527, type 13), a string naming the SLA profile, which is what a plan is here.
 * FreeRADIUS ships it in dictionary.alcatel.sr (docs/radius.md).
 */
export const RATE_PLAN_VSA = { name: "Alc-SLA-Prof-Str", vendorId: 6527, vendorType: 13 } as const;

/** Acct-Status-Type values (RFC 2866 §5.1). */
export const ACCT_STATUS_TYPE = {
  Start: 1,
  Stop: 2,
  "Interim-Update": 3,
  "Accounting-On": 7,
  "Accounting-Off": 8,
} as const;
export type AcctStatusName = keyof typeof ACCT_STATUS_TYPE;

/** Service-Type values used (RFC 2865 §5.6). */
export const SERVICE_TYPE = { "Framed-User": 2, "Authorize-Only": 17 } as const;
/** Framed-Protocol values used (RFC 2865 §5.7). */
export const FRAMED_PROTOCOL = { PPP: 1 } as const;
/** NAS-Port-Type values used (RFC 2865 §5.41, RFC 4603): Ethernet for IPoE and PPPoE, Virtual for an L2TP session. */
export const NAS_PORT_TYPE = { Virtual: 5, Ethernet: 15 } as const;
/** Acct-Authentic: how the session was authenticated (RFC 2866 §5.6). */
export const ACCT_AUTHENTIC = { RADIUS: 1 } as const;

/** Error-Cause values a NAS answers a Disconnect- or CoA-Request with (RFC 5176 §3.5). */
export const ERROR_CAUSE = {
  "Unsupported-Attribute": 401,
  "Missing-Attribute": 402,
  "NAS-Identification-Mismatch": 403,
  "Invalid-Request": 404,
  "Unsupported-Service": 405,
  "Session-Context-Not-Found": 503,
} as const;

/** The largest RADIUS packet (RFC 2865 §3; RFC 7930 raises it only for servers that say so). */
export const MAX_PACKET = 4096;
/** The header: code, identifier, length, authenticator. */
export const HEADER = 20;
