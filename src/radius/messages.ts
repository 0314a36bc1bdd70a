/**
 * The requests a BNG sends as RADIUS packets, and what it reads of the answers: an Access-Request for a
 * subscriber (RFC 2865 §4.1, PAP or CHAP), an Accounting-Request for a session or for the NAS itself
 * (RFC 2866 §4.1: Start, Interim-Update, Stop, Accounting-On/Off), and the attributes an Access-Accept may set.
 * Pure: the transport (durable-objects/radius/) signs and sends them.
 */
import {
  ACCT_AUTHENTIC,
  ACCT_STATUS_TYPE,
  ATTRIBUTE,
  CODE,
  FRAMED_PROTOCOL,
  NAS_PORT_TYPE,
  RATE_PLAN_VSA,
  SERVICE_TYPE,
} from "./dictionary.ts";
import type { AcctStatusName } from "./dictionary.ts";
import { attributeOf, vendorAttributeOf, type Attribute, type Packet } from "./packet.ts";
import { chapPassword, hidePassword, randomAuthenticator } from "./signing.ts";
import { attribute, integer, ipv4, ipv6, ipv6Prefix, readInteger, readIpv4, readText, text } from "./values.ts";
import type { AcceptedAttributes } from "../../simulator/radius-records.ts";

/** Who the NAS is, in every request (RFC 2865 §4.1: NAS-IP-Address or NAS-Identifier, here both when known). */
export interface NasIdentity {
  /** NAS-Identifier: the appliance's name. */
  identifier: string;
  /** NAS-IP-Address; null = not sent. */
  ipAddress: string | null;
}

/** An Access-Request for one subscriber. */
export interface AccessRequest {
  username: string;
  password: string;
  /** PAP (User-Password) for IPoE, CHAP for PPP, as the encapsulation's own authentication is. */
  method: "pap" | "chap";
  /** Acct-Session-Id: the session id the API will show. */
  sessionId: string;
  /** NAS-Port-Id: the access interface and VLANs, e.g. `xe-0/0/0:100-42`. */
  nasPortId: string;
  /** Calling-Station-Id: the CPE's MAC; empty when the NAS knows none (an LNS). */
  callingStationId: string;
  /** PPP sessions are Framed-Protocol PPP; an L2TP session (LNS) arrives on a Virtual port. */
  ppp: boolean;
  virtualPort: boolean;
}

const MESSAGE_AUTHENTICATOR_PLACEHOLDER = attribute("Message-Authenticator", new Uint8Array(16));

/**
 * An Access-Request packet (its Message-Authenticator a placeholder `signRequest` fills in: RFC 3579 §3.2, and
 * what FreeRADIUS's `require_message_authenticator` asks for). The password is hidden with the secret here.
 */
export function accessRequest(nas: NasIdentity, request: AccessRequest, secret: string, identifier: number): Packet {
  const authenticator = randomAuthenticator();
  const attributes: Attribute[] = [
    // First, as RFC 3579 §3.2 recommends for servers that read it before the rest (BlastRADIUS, 2024).
    MESSAGE_AUTHENTICATOR_PLACEHOLDER,
    attribute("User-Name", text(request.username)),
  ];
  if (request.method === "pap") {
    attributes.push(attribute("User-Password", hidePassword(request.password, authenticator, secret)));
  } else {
    // The challenge the NAS sent the CPE travels as CHAP-Challenge (RFC 2865 §5.40); the CHAP id is any octet.
    const challenge = randomAuthenticator();
    const chapId = challenge[0]!;
    attributes.push(attribute("CHAP-Password", chapPassword(chapId, request.password, challenge)));
    attributes.push(attribute("CHAP-Challenge", challenge));
  }
  attributes.push(...nasAttributes(nas));
  attributes.push(
    attribute("NAS-Port-Type", integer(request.virtualPort ? NAS_PORT_TYPE.Virtual : NAS_PORT_TYPE.Ethernet)),
    attribute("NAS-Port-Id", text(request.nasPortId)),
    // An LNS hears the subscriber through a tunnel and knows no MAC: no Calling-Station-Id (a text is never empty).
    ...(request.callingStationId === "" ? [] : [attribute("Calling-Station-Id", text(request.callingStationId))]),
    attribute("Service-Type", integer(SERVICE_TYPE["Framed-User"])),
  );
  if (request.ppp) attributes.push(attribute("Framed-Protocol", integer(FRAMED_PROTOCOL.PPP)));
  attributes.push(attribute("Acct-Session-Id", text(request.sessionId)));
  return { code: CODE["Access-Request"], identifier, authenticator, attributes };
}

function nasAttributes(nas: NasIdentity): Attribute[] {
  const out = [attribute("NAS-Identifier", text(nas.identifier))];
  if (nas.ipAddress !== null) out.push(attribute("NAS-IP-Address", ipv4(nas.ipAddress)));
  return out;
}

/**
 * What an Access-Accept sets for the session (the model's `AcceptedAttributes`), where present (RFC 2865 §5, RFC 2869
 * §5.16, §5.18).
 */
export function acceptedAttributes(packet: Packet): AcceptedAttributes {
  const read = <T>(type: number, as: (v: Uint8Array) => T | null): T | null => {
    const value = attributeOf(packet, type);
    return value === undefined ? null : as(value);
  };
  const plan = vendorAttributeOf(packet, RATE_PLAN_VSA.vendorId, RATE_PLAN_VSA.vendorType);
  const framed = read(ATTRIBUTE["Framed-IP-Address"].type, readIpv4);
  return {
    // 255.255.255.254 lets the NAS choose and 255.255.255.255 asks the user to: both leave it to the pools (RFC 2865
    // §5.8).
    framedIpAddress: framed === "255.255.255.254" || framed === "255.255.255.255" ? null : framed,
    framedPool: read(ATTRIBUTE["Framed-Pool"].type, readText),
    sessionTimeout: read(ATTRIBUTE["Session-Timeout"].type, readInteger),
    interimInterval: read(ATTRIBUTE["Acct-Interim-Interval"].type, readInteger),
    plan: plan === undefined ? null : readText(plan),
  };
}

/** One Accounting-Request of a session (RFC 2866 §5, RFC 2869 §5 for Gigawords and Event-Timestamp). */
export interface SessionAccounting {
  status: "Start" | "Interim-Update" | "Stop";
  sessionId: string;
  username: string;
  framedIpAddress: string;
  /** The session's IPv6 WAN address (RFC 6911) and delegated prefix (RFC 4818), when it has them. */
  framedIpv6Address: string | null;
  /** The WAN prefix the CPE's address is taken from (RFC 3162 §2.3), when the session has one. */
  framedIpv6Prefix?: string | null;
  delegatedIpv6Prefix: string | null;
  nasPortId: string;
  callingStationId: string;
  ppp: boolean;
  sessionTimeSeconds: number;
  inputOctets: number;
  outputOctets: number;
  inputPackets: number;
  outputPackets: number;
  /** Acct-Terminate-Cause's value (RFC 2866 §5.10), on a Stop. */
  terminateCause: number | null;
  /** Event-Timestamp: when the event happened, epoch ms. */
  eventMs: number;
}

const GIGAWORD = 2 ** 32;

/**
 * An Accounting-Request for a session; `delaySeconds` is Acct-Delay-Time (how long it waited to be sent, RFC 2866
 * §5.2).
 */
export function sessionAccountingRequest(
  nas: NasIdentity,
  record: SessionAccounting,
  delaySeconds: number,
  identifier: number,
): Packet {
  const attributes: Attribute[] = [
    attribute("Acct-Status-Type", integer(ACCT_STATUS_TYPE[record.status])),
    attribute("Acct-Session-Id", text(record.sessionId)),
    attribute("User-Name", text(record.username)),
    ...nasAttributes(nas),
    attribute("NAS-Port-Id", text(record.nasPortId)),
    ...(record.callingStationId === "" ? [] : [attribute("Calling-Station-Id", text(record.callingStationId))]),
    attribute("Service-Type", integer(SERVICE_TYPE["Framed-User"])),
  ];
  if (record.ppp) attributes.push(attribute("Framed-Protocol", integer(FRAMED_PROTOCOL.PPP)));
  attributes.push(attribute("Framed-IP-Address", ipv4(record.framedIpAddress)));
  if (record.framedIpv6Address !== null)
    attributes.push(attribute("Framed-IPv6-Address", ipv6(record.framedIpv6Address)));
  if (record.framedIpv6Prefix) attributes.push(attribute("Framed-IPv6-Prefix", ipv6Prefix(record.framedIpv6Prefix)));
  if (record.delegatedIpv6Prefix !== null)
    attributes.push(attribute("Delegated-IPv6-Prefix", ipv6Prefix(record.delegatedIpv6Prefix)));
  attributes.push(attribute("Acct-Authentic", integer(ACCT_AUTHENTIC.RADIUS)));
  if (record.status !== "Start") {
    // Octet counts past 32 bits carry their overflow in Gigawords (RFC 2869 §5.1, §5.2).
    attributes.push(
      attribute("Acct-Session-Time", integer(record.sessionTimeSeconds)),
      attribute("Acct-Input-Octets", integer(record.inputOctets % GIGAWORD)),
      attribute("Acct-Input-Gigawords", integer(Math.floor(record.inputOctets / GIGAWORD))),
      attribute("Acct-Output-Octets", integer(record.outputOctets % GIGAWORD)),
      attribute("Acct-Output-Gigawords", integer(Math.floor(record.outputOctets / GIGAWORD))),
      attribute("Acct-Input-Packets", integer(record.inputPackets % GIGAWORD)),
      attribute("Acct-Output-Packets", integer(record.outputPackets % GIGAWORD)),
    );
  }
  if (record.status === "Stop" && record.terminateCause !== null)
    attributes.push(attribute("Acct-Terminate-Cause", integer(record.terminateCause)));
  attributes.push(
    attribute("Event-Timestamp", integer(Math.floor(record.eventMs / 1000))),
    attribute("Acct-Delay-Time", integer(delaySeconds)),
  );
  return { code: CODE["Accounting-Request"], identifier, authenticator: new Uint8Array(16), attributes };
}

/**
 * Accounting-On or -Off (RFC 2866 §5.1): the NAS starting or stopping, so the server closes whatever sessions it
 * still holds open for it. Its Acct-Session-Id names the boot, as RFC 2866 §5.5 asks one in every request.
 */
export function nasAccountingRequest(
  nas: NasIdentity,
  status: Extract<AcctStatusName, "Accounting-On" | "Accounting-Off">,
  bootId: string,
  eventMs: number,
  identifier: number,
): Packet {
  return {
    code: CODE["Accounting-Request"],
    identifier,
    authenticator: new Uint8Array(16),
    attributes: [
      attribute("Acct-Status-Type", integer(ACCT_STATUS_TYPE[status])),
      attribute("Acct-Session-Id", text(bootId)),
      ...nasAttributes(nas),
      attribute("Event-Timestamp", integer(Math.floor(eventMs / 1000))),
      attribute("Acct-Delay-Time", integer(0)),
    ],
  };
}

/** A Status-Server probe (RFC 5997 §3): Message-Authenticator is mandatory in it. */
export function statusServer(nas: NasIdentity, identifier: number): Packet {
  return {
    code: CODE["Status-Server"],
    identifier,
    authenticator: randomAuthenticator(),
    attributes: [MESSAGE_AUTHENTICATOR_PLACEHOLDER, ...nasAttributes(nas)],
  };
}
