/**
 * The configuration schema: one registry of keys, each with its path, zod
 * type, default, secrecy, list mode, apply mode and the handlers that apply
 * it (appliedBy). Everything else reads it: the change-set editor, the
 * validator, GET /config and GET /config/schema, the config-backed REST
 * resources (src/schemas/keyed-list.ts derives their bodies and rows from a
 * list's children) and the appliance's hot-apply.
 *
 * Two kinds of key:
 * - a field holds one value; a list-mode field holds a list of scalars, shown
 *   newline-joined and written newline- or comma-separated;
 * - a keyed list holds items, each a key and child fields of the same sorts.
 *
 * New sections (GRE circuits, local subscribers, CGN groups) are more entries
 * here; the pipeline needs no change.
 */
import { z } from "zod";
import type { Value } from "./types.ts";
import { StoredPassword, Username } from "../auth/accounts.ts";
import { RoleSchema } from "../auth/roles.ts";
import { ALERT_QUEUE_SIZE, mqttSink, smtpSink } from "./sink-urls.ts";
import {
  hasScheme,
  isOriginUrl,
  isCidr,
  isHostname,
  isIpAddress,
  isIpv4,
  isIpv6,
  isListenerUrl,
  isPrefix,
  isRouteDistinguisher,
  isRouteTarget,
  parseHostPort,
} from "./syntax.ts";
import { RESERVED_CIRCUIT_IDS, isInterfaceAddress, isInterfaceName, tunnelAddressProblems } from "./gre.ts";
import { autoLearnVrf, cgnGroupProblems, isAutoLearnEntry, isIpv4Cidr } from "./cgn.ts";
import {
  IPOE_KEY_PATTERN,
  isIpv6PrefixText,
  isPppoeUsername,
  localSubscriberItemProblems,
} from "./local-subscribers.ts";
import { addressPoolItemProblems, isPoolSubnet } from "./address-pools.ts";
import { PROPOSAL, igpInterfaceProblems, isOspfArea, isStaticRouteKey, neighborItemProblems } from "./routing.ts";
import { AFI_SAFIS, ALARM_SEVERITIES, IGP_PROTOCOLS, SEVERITIES } from "../../simulator/vocabulary.ts";
import { FACILITIES } from "../syslog/rfc5424.ts";
import { SYSLOG_LIST, SYSLOG_PORTS, SYSLOG_QUEUE_SIZE, SYSLOG_STREAMS } from "./syslog.ts";
import {
  RADIUS_ACCOUNTING_PORT,
  RADIUS_REQUESTS_PER_SECOND,
  RADIUS_TIMEOUT_SECONDS,
  RADIUS_TRANSPORTS,
  radiusServerProblems,
} from "./radius.ts";

/** What GET /config shows instead of a secret, and what a write may send to leave a secret unchanged. */
export const REDACTED = "********";

/** `hot`: the commit takes effect at once; `restart`: the running appliance keeps the old value until it restarts. */
export type ApplyMode = "hot" | "restart";

/**
 * What a running appliance does after a commit that changed a key, each a
 * handler of the Appliance object, run once per commit in this order (the
 * pools before the local subscribers, whose static addresses they hold).
 */
export const APPLIERS = [
  "captures",
  "gre",
  "acme",
  "alert-sinks",
  "syslog",
  "accounts",
  "routing",
  "ipsec",
  "pools",
  "radius",
  "source-vrf-rules",
  "local-subscribers",
] as const;
export type Applier = (typeof APPLIERS)[number];

export interface FieldSpec {
  /**
   * The wire type named in GET /config/schema: `uint8`/`uint16`/`uint32`, `boolean`, or a string type such as `ipv4`.
   */
  type: string;
  /** Validates the value, or each element of a list-mode field. */
  schema: z.ZodType;
  listMode?: boolean;
  /** The value when unset; null = no default. */
  default: Value;
  /** A keyed-list child that must be given when the item is created. */
  required?: boolean;
  secret?: boolean;
  /**
   * Written only by this operation, which checks what the registry cannot (e.g. a key matching its certificate); change
   * sets may only clear it.
   */
  managedBy?: string;
  /** The value (each element, or what `pick` reads from it) must be a key of this list, or one of `builtin`. */
  ref?: { list: string; builtin: readonly string[]; pick?: (element: string) => string };
  description: string;
}

export interface FieldKey extends FieldSpec {
  kind: "field";
  path: string;
  apply: ApplyMode;
  /**
   * The handlers a commit changing this key runs (a restart-mode key may still need one: the ACME names follow the
   * listeners).
   */
  appliedBy?: readonly Applier[];
}

export interface ListKey {
  kind: "list";
  path: string;
  apply: ApplyMode;
  /** The handlers a commit changing this list runs. */
  appliedBy?: readonly Applier[];
  key: { name: string; type: string; schema: z.ZodType; description: string };
  children: Record<string, FieldSpec>;
  /** Children whose (non-null) values must differ between items. */
  unique?: readonly string[];
  /** Rules across one item's children; each names the child at fault. */
  checkItem?: (values: Record<string, Value>) => { child: string; detail: string }[];
  /**
   * A secret child and the children saying where it is sent: when one of
   * those changes, the stored secret is dropped unless the same change sets
   * it again, so moving a destination never carries the secret to the new one.
   */
  secretFollows?: Readonly<Record<string, readonly string[]>>;
  description: string;
}

export type ConfigKey = FieldKey | ListKey;

const uint = (bits: 8 | 16 | 32, min = 0, max = 2 ** bits - 1) => {
  const range = `must be a uint${bits} in ${min}-${max}`;
  return z.int(range).min(min, range).max(max, range);
};
/** The spec's int32, narrowed to non-negative values (rates and bursts). */
const int32 = (min = 0) => {
  const range = `must be an int32 in ${min}-${2 ** 31 - 1}`;
  return z
    .int(range)
    .min(min, range)
    .max(2 ** 31 - 1, range);
};
/** A VLAN id: IEEE 802.1Q reserves 4095; 0 = untagged (no tag of this level). */
const VLAN_ID = uint(16, 0, 4094);
const text = (check: (value: string) => boolean, message: string) => z.string().refine(check, message);
const free = (max: number) => z.string().max(max, `at most ${max} characters`);

/** A name as VRFs, rules, peers and sinks use: letters, digits, '.', '_', '-' (the profile's names). */
const NAME = text(
  (t) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(t),
  "1-63 letters, digits, '.', '_' or '-', starting with a letter or digit",
);
/** Linux reserves table 0 (unspec) and 253-255 (default, main, local). */
const RESERVED_TABLES = [0, 253, 254, 255];
const VRF_REF = { list: "vrfs", builtin: ["default"] } as const;
const TOKEN = text((t) => /^bngtok_[A-Za-z0-9]{36}$/.test(t), "a bngtok_ token (bngtok_ and 36 letters or digits)");

/**
 * A bus sink speaks MQTT (docs/decisions.md, Alarm sinks); an SMTP sink's URL names its server
 * (src/config/sink-urls.ts).
 */
const SINK_SCHEMES: Record<string, readonly string[]> = {
  webhook: ["https", "http"],
  smtp: ["smtp", "smtps"],
  bus: ["mqtt", "mqtts"],
};
const SINK_URL_READERS: Record<string, (url: string) => { ok: true } | { ok: false; detail: string }> = {
  smtp: smtpSink,
  bus: mqttSink,
};

/**
 * The children both kinds of local subscriber share (the spec's Local IPoE
 * subscriber body less the line). Addresses are checked against the pools
 * of their VRF and against each other by the validator (local-subscribers.ts).
 */
const LOCAL_SUBSCRIBER_CHILDREN: Record<string, FieldSpec> = {
  vrfName: {
    type: "string",
    schema: NAME,
    default: null,
    ref: VRF_REF,
    description: "VRF of the session: a configured VRF or `default`; null = `default`",
  },
  framedIp: {
    type: "ipv4",
    schema: text(isIpv4, "an IPv4 address"),
    default: null,
    description:
      "IPv4 address: inside a pool of the VRF it is held there as a static allocation, " +
      "outside every pool it is used as is; null = a dynamic address from the VRF's " +
      "pool; unique across local subscribers of the same VRF (VRFs are separate " +
      "address spaces)",
  },
  framedIpv6: {
    type: "ipv6",
    schema: text(isIpv6, "an IPv6 address"),
    default: null,
    description: "IPv6 WAN address (inside a WAN pool of the VRF its /64 is held statically); null = none",
  },
  ipv6PdPrefix: {
    type: "ipv6Prefix",
    schema: text(isIpv6PrefixText, "an IPv6 prefix `address/length`, or an address with ipv6PdLength"),
    default: null,
    description:
      "delegated prefix (inside a PD pool of the VRF it must be one of its delegations, held statically); null = none",
  },
  ipv6PdLength: {
    type: "uint8",
    schema: uint(8),
    default: null,
    description: "length of ipv6PdPrefix, 1-128 (when the prefix is written without one)",
  },
  dns1: {
    type: "ipv4",
    schema: text(isIpv4, "an IPv4 address"),
    default: null,
    description: "primary IPv4 DNS server offered",
  },
  dns2: {
    type: "ipv4",
    schema: text(isIpv4, "an IPv4 address"),
    default: null,
    description: "secondary IPv4 DNS server offered",
  },
  dnsV6_1: {
    type: "ipv6",
    schema: text(isIpv6, "an IPv6 address"),
    default: null,
    description: "primary IPv6 DNS server offered",
  },
  dnsV6_2: {
    type: "ipv6",
    schema: text(isIpv6, "an IPv6 address"),
    default: null,
    description: "secondary IPv6 DNS server offered",
  },
  planName: {
    type: "string",
    schema: NAME,
    default: null,
    description: "a plan of the appliance's profile; null = none (the rates alone shape)",
  },
  subscriberServiceId: {
    type: "string",
    schema: free(253),
    default: null,
    description: "the operator's service or billing id",
  },
  downloadRateKbps: {
    type: "int32",
    schema: int32(),
    default: 0,
    description: "downstream shaping rate; 0 = the plan's (required without a plan)",
  },
  uploadRateKbps: {
    type: "int32",
    schema: int32(),
    default: 0,
    description: "upstream shaping rate; 0 = the plan's (required without a plan)",
  },
  downloadRatePps: {
    type: "int32",
    schema: int32(),
    default: 0,
    description: "downstream packet-rate limit; 0 = none",
  },
  uploadRatePps: { type: "int32", schema: int32(), default: 0, description: "upstream packet-rate limit; 0 = none" },
  downloadBurstKb: {
    type: "int32",
    schema: int32(),
    default: null,
    description: "downstream burst size; null = the shaper's default",
  },
  uploadBurstKb: {
    type: "int32",
    schema: int32(),
    default: null,
    description: "upstream burst size; null = the shaper's default",
  },
  additionalRoutes: {
    type: "cidr",
    listMode: true,
    schema: text(isCidr, "a CIDR prefix with its host bits zero, e.g. 192.0.2.0/29"),
    default: [],
    description: "framed routes (RFC 2865 Framed-Route) routed to the subscriber",
  },
};

/** Every key of the configuration, in the order GET /config/schema lists them. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    kind: "field",
    path: "webUi.listeners",
    appliedBy: ["acme"],
    type: "url",
    listMode: true,
    schema: text(
      isListenerUrl,
      "a listener URL such as https://127.0.0.1:8443 (http or https, an IP literal, a port, no path)",
    ),
    default: ["https://127.0.0.1:8443"],
    apply: "restart",
    description: "addresses the web UI and this API listen on; at least one",
  },
  {
    kind: "field",
    path: "webUi.hostname",
    appliedBy: ["acme"],
    type: "hostname",
    schema: text(isHostname, "a DNS name"),
    default: null,
    apply: "restart",
    description: "the name the appliance answers to (OIDC redirect URIs, certificate checks); null = none",
  },
  {
    kind: "field",
    path: "webUi.certificate",
    type: "pem",
    schema: z.string(),
    default: null,
    managedBy: "POST /api/v1/config/webui/certificate",
    apply: "hot",
    description:
      "PEM certificate chain the listeners present (from the commit on: the local " +
      "launcher watches it); null = the factory self-signed certificate",
  },
  {
    kind: "field",
    path: "webUi.privateKey",
    type: "pem",
    schema: z.string(),
    default: null,
    secret: true,
    managedBy: "POST /api/v1/config/webui/certificate",
    apply: "hot",
    description: "PEM private key of webUi.certificate",
  },
  // ACME (RFC 8555): the appliance obtains and renews the web UI certificate itself. All hot: a commit
  // touching them starts an attempt at once. The account key is not a key here: the appliance generates
  // it and keeps it in its own storage, never shown (see durable-objects/acme.ts).
  {
    kind: "field",
    path: "acme.enabled",
    appliedBy: ["acme"],
    type: "boolean",
    schema: z.boolean(),
    default: false,
    apply: "hot",
    description:
      "obtain the web UI certificate from the ACME CA at acme.directoryUrl (HTTP-01 " +
      "answered on the listener) and renew it before expiry; replaces an uploaded " +
      "certificate",
  },
  {
    kind: "field",
    path: "acme.directoryUrl",
    appliedBy: ["acme"],
    type: "url",
    schema: text(
      (t) => hasScheme(t, ["https"]),
      "an https URL of an ACME directory, e.g. https://acme-v02.api.letsencrypt.org/directory",
    ),
    default: null,
    apply: "hot",
    description:
      "the ACME CA's directory (RFC 8555 §7.1.1); changing it drops the account registered with the previous CA",
  },
  {
    kind: "field",
    path: "acme.contact",
    appliedBy: ["acme"],
    type: "email",
    listMode: true,
    schema: text((t) => /^[^\s@,<>]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(t), "an e-mail address, e.g. noc@example.net"),
    default: [],
    apply: "hot",
    description: "e-mail addresses the CA may write to about the account (sent as mailto: contact URLs)",
  },
  {
    kind: "field",
    path: "acme.names",
    appliedBy: ["acme"],
    type: "hostOrIp",
    listMode: true,
    schema: text((t) => isHostname(t) || isIpAddress(t), "a DNS name or an IP address"),
    default: [],
    apply: "hot",
    description:
      "names the certificate is requested for (DNS names, or IP addresses per RFC " +
      "8738); empty = webUi.hostname, else the listeners' addresses",
  },
  {
    kind: "field",
    path: "acme.renewBeforeDays",
    appliedBy: ["acme"],
    type: "uint16",
    schema: uint(16, 1, 365),
    default: 30,
    apply: "hot",
    description:
      "renew this many days before the certificate expires (at most a third of its " +
      "lifetime before, for short-lived certificates)",
  },
  {
    kind: "list",
    path: "webUi.peers",
    key: {
      name: "name",
      type: "string",
      schema: text((t) => /^[a-z][a-z0-9-]{0,62}$/.test(t), "a lower-case DNS label"),
      description: "the `{appliance}` key of the fleet proxy",
    },
    children: {
      url: {
        type: "url",
        schema: text(isOriginUrl, "an http or https origin: scheme, host and port, no path, query or user"),
        default: null,
        required: true,
        description: "peer origin (`https://host:port`); the proxy appends `/api/v1/…` itself",
      },
      credential: {
        type: "string",
        schema: TOKEN,
        default: null,
        secret: true,
        description: "read-only token presented to the peer; null = none (the proxy answers 502)",
      },
      timeoutMs: {
        type: "uint32",
        schema: uint(32, 100, 60_000),
        default: 10_000,
        description: "how long the fleet proxy waits for this peer",
      },
    },
    secretFollows: { credential: ["url"] },
    apply: "restart",
    description: "appliances this one reads through the fleet proxy",
  },
  {
    kind: "list",
    path: "login.users",
    appliedBy: ["accounts"],
    key: {
      name: "username",
      type: "string",
      schema: Username,
      description: "the account name, shared with the appliance CLI",
    },
    children: {
      role: {
        type: "role",
        schema: RoleSchema,
        default: null,
        required: true,
        description:
          "`read-only`, `operator` or `super-user` (`admin` is read as `super-user`); " +
          "takes effect on the account's open sessions at once",
      },
      password: {
        type: "password",
        schema: StoredPassword,
        default: null,
        required: true,
        secret: true,
        description:
          "write a new password in clear (8-256 characters, not a commonly used one): it " +
          "is hashed (PBKDF2-SHA-256) before anything is stored; or a stored hash " +
          "`pbkdf2-sha256$…` with 100,000 iterations, e.g. from another appliance. Reads " +
          "show the placeholder. A new password ends the account's sessions",
      },
    },
    apply: "hot",
    description:
      "accounts of the API, the web UI and the CLI (`/auth/users` edits the same " +
      "list). At least one account keeps `super-user`. An account's TOTP enrolment, " +
      "lockouts and sessions are login state, not configuration: they are kept by the " +
      "identity store and survive commits that leave the account in place",
  },
  {
    kind: "list",
    path: "vrfs",
    key: {
      name: "name",
      type: "string",
      schema: NAME.refine((t) => t !== "default", "'default' is the global table and cannot be configured"),
      description: "immutable VRF name",
    },
    children: {
      tableId: {
        type: "uint32",
        schema: uint(32).refine((n) => !RESERVED_TABLES.includes(n), "tables 0 and 253-255 are reserved by Linux"),
        default: null,
        required: true,
        description: "Linux route table id; unique",
      },
      rd: {
        type: "routeDistinguisher",
        schema: text(isRouteDistinguisher, "a route distinguisher <asn>:<number>"),
        default: null,
        description: "BGP route distinguisher `<asn>:<number>`; null or empty = none; unique",
      },
      importRt: {
        type: "routeTarget",
        listMode: true,
        schema: text(isRouteTarget, "a route target <asn>:<n> or <ipv4>:<n>"),
        default: [],
        description: "route targets imported",
      },
      exportRt: {
        type: "routeTarget",
        listMode: true,
        schema: text(isRouteTarget, "a route target <asn>:<n> or <ipv4>:<n>"),
        default: [],
        description: "route targets exported",
      },
      gatewayIp: {
        type: "ipv4",
        schema: text(isIpv4, "an IPv4 address"),
        default: null,
        description: "subscriber IPv4 gateway inside the VRF",
      },
      gatewayIpv6: {
        type: "ipv6",
        schema: text(isIpv6, "an IPv6 address"),
        default: null,
        description: "subscriber IPv6 gateway inside the VRF",
      },
      l2tpEndpointIp: {
        type: "ipv4",
        schema: text(isIpv4, "an IPv4 address"),
        default: null,
        description: "per-VRF L2TP endpoint /32",
      },
      originateDefaultRoute: {
        type: "boolean",
        schema: z.boolean(),
        default: false,
        description: "originate an IPv4 default route into BGP inside the VRF",
      },
    },
    unique: ["tableId", "rd"],
    apply: "hot",
    description: "VRFs (routing tables) subscribers and circuits are placed in; `default` is the global table",
  },
  {
    kind: "list",
    path: "sourceVrfRules",
    appliedBy: ["source-vrf-rules"],
    key: { name: "name", type: "string", schema: NAME, description: "immutable rule name" },
    children: {
      ingestVrf: {
        type: "string",
        schema: NAME,
        default: null,
        required: true,
        ref: VRF_REF,
        description: "VRF the traffic arrives in: a configured VRF or `default`",
      },
      sourceSubnets: {
        type: "cidr",
        listMode: true,
        schema: text(isCidr, "a CIDR prefix with its host bits zero, e.g. 10.0.0.0/8"),
        default: [],
        description: "source prefixes matched; empty = every source",
      },
      targetVrf: {
        type: "string",
        schema: NAME,
        default: null,
        required: true,
        ref: VRF_REF,
        description: "VRF matching traffic is routed into (no NAT): a configured VRF or `default`",
      },
    },
    checkItem: (values) =>
      values.ingestVrf !== null && values.ingestVrf === values.targetVrf
        ? [{ child: "targetVrf", detail: "must differ from ingestVrf" }]
        : [],
    apply: "hot",
    description: "route traffic arriving in one VRF from given sources into another VRF",
  },
  {
    kind: "list",
    path: "addressPools",
    appliedBy: ["pools"],
    key: {
      name: "name",
      type: "string",
      schema: NAME,
      description: "pool name: the reference AAA returns (Framed-Pool)",
    },
    children: {
      family: {
        type: "enum",
        schema: z.enum(["ipv4", "ipv6-wan", "ipv6-pd"], "ipv4, ipv6-wan or ipv6-pd"),
        default: null,
        required: true,
        description: "`ipv4`, `ipv6-wan` or `ipv6-pd`; fixed once the pool exists (delete it and create another)",
      },
      vrf: {
        type: "string",
        schema: NAME,
        default: null,
        ref: VRF_REF,
        description:
          "VRF of the pool's addresses: a configured VRF or `default`; null = `default`. A " +
          "change disconnects the pool's sessions",
      },
      delegationLength: {
        type: "uint8",
        schema: uint(8, 1, 128),
        default: null,
        description:
          "prefix length handed to each subscriber: 32 (ipv4), 64 (ipv6-wan), 48-64 " +
          "(ipv6-pd, required); null = 32 or 64 by family. A change re-cuts the pool and " +
          "disconnects its sessions",
      },
      description: { type: "string", schema: free(255), default: "", description: "free text" },
      subnets: {
        type: "poolSubnet",
        listMode: true,
        schema: text(
          isPoolSubnet,
          "a prefix with its host bits zero, optionally followed by ' announce', e.g. 198.18.0.0/22 announce",
        ),
        default: [],
        description:
          "subnets allocated from, in preference order: one `<prefix>` element per subnet, " +
          "`<prefix> announce` when the subnet is announced (BGP); at least one, no " +
          "overlap within the pool or with a pool of the same VRF. " +
          "A removed subnet's dynamic sessions are disconnected; its static allocations are kept",
      },
      exclude: {
        type: "prefix",
        listMode: true,
        schema: text(isPrefix, "an address or a prefix with its host bits zero"),
        default: [],
        description:
          "addresses or prefixes never allocated, each inside one of the pool's subnets; a " +
          "session holding a newly excluded block is disconnected",
      },
    },
    checkItem: addressPoolItemProblems,
    apply: "hot",
    description:
      "address pools AAA hands IPv4 addresses, IPv6 WAN prefixes and delegated " +
      "prefixes out from (spec AddressPool), hot-applied: GET /api/v1/address-pools " +
      "follows at once",
  },
  {
    kind: "list",
    path: "subscribers.local.ipoe",
    appliedBy: ["local-subscribers"],
    key: {
      name: "line",
      type: "string",
      schema: text((t) => IPOE_KEY_PATTERN.test(t), "`port:sVlan:vlan` in decimal, e.g. 1:100:42"),
      description: "`port:sVlan:vlan`: the access line, equal to the item's port, sVlan and vlan",
    },
    children: {
      ...LOCAL_SUBSCRIBER_CHILDREN,
      option82CircuitId: {
        type: "string",
        schema: free(253).min(1, "must not be empty"),
        default: null,
        description: "DHCP option 82 circuit id (RFC 3046) the line presents; the session's username when set; unique",
      },
      port: {
        type: "uint8",
        schema: uint(8),
        default: null,
        required: true,
        description: "port id of the line: one of the appliance's subscriber-facing ports",
      },
      vlan: {
        type: "uint16",
        schema: VLAN_ID,
        default: null,
        required: true,
        description: "C-VLAN id of the line (802.1Q, 0-4094; 0 = untagged)",
      },
      sVlan: {
        type: "uint16",
        schema: VLAN_ID,
        default: null,
        required: true,
        description: "S-VLAN id of the line (802.1ad, 0-4094; 0 = single-tagged)",
      },
    },
    unique: ["option82CircuitId"],
    checkItem: localSubscriberItemProblems,
    apply: "hot",
    description: "locally defined IPoE subscribers, answered by the appliance's own AAA (no RADIUS request)",
  },
  {
    kind: "list",
    path: "subscribers.local.pppoe",
    appliedBy: ["local-subscribers"],
    key: {
      name: "username",
      type: "string",
      schema: text(isPppoeUsername, "1-253 printable ASCII characters without spaces or '/'"),
      description: "the PPPoE (PAP/CHAP) username",
    },
    children: {
      password: {
        type: "string",
        schema: free(128).min(1, "must not be empty"),
        default: null,
        required: true,
        secret: true,
        description: "PAP/CHAP password; write-only",
      },
      ...LOCAL_SUBSCRIBER_CHILDREN,
    },
    checkItem: localSubscriberItemProblems,
    apply: "hot",
    description: "locally defined PPPoE subscribers, answered by the appliance's own AAA (no RADIUS request)",
  },
  {
    kind: "list",
    path: "radius.servers",
    appliedBy: ["radius"],
    key: {
      name: "hostPort",
      type: "string",
      schema: text((t) => parseHostPort(t) !== null, "host:port or [ipv6]:port with a port in 1-65535"),
      description: "`host:port`: the authentication port (UDP as the spec names it; TCP for a tcp or tls transport)",
    },
    children: {
      weight: {
        type: "uint16",
        schema: uint(16, 1),
        default: 1,
        description: "share of requests relative to the other servers",
      },
      secret: {
        type: "string",
        schema: free(128).min(1, "must not be empty"),
        default: null,
        secret: true,
        description: "RADIUS shared secret; null = not set (required for a tcp or tls transport)",
      },
      transport: {
        type: "enum",
        schema: z.enum(RADIUS_TRANSPORTS, RADIUS_TRANSPORTS.join(", ")),
        default: "simulated",
        description:
          "`simulated`: the data-plane model answers (no packet leaves the appliance); `tcp`: RADIUS over TCP " +
          "(RFC 6613, only to an allowlisted internal address); `tls`: RADIUS over TLS (RFC 6614, the certificate " +
          "verified). Workers open TCP, not UDP. Every server of the list has the same kind: simulated, or real",
      },
      accountingPort: {
        type: "uint16",
        schema: uint(16, 1),
        default: null,
        description:
          `accounting port; null = ${RADIUS_ACCOUNTING_PORT.tcp} for tcp (RFC 6613), the ` +
          `key's port for tls (RFC 6614 has one port, 2083)`,
      },
    },
    checkItem: radiusServerProblems,
    apply: "hot",
    description: "RADIUS servers: authentication and accounting (docs/radius.md)",
  },
  {
    kind: "field",
    path: "radius.subscriberPassword",
    appliedBy: ["radius"],
    type: "string",
    schema: free(128).min(1, "must not be empty"),
    default: null,
    secret: true,
    apply: "hot",
    description:
      "the password every simulated subscriber presents to a real server: PAP for IPoE (a BNG's configured IPoE " +
      "password), CHAP for PPP; required once a server's transport is tcp or tls",
  },
  {
    kind: "field",
    path: "radius.requestsPerSecond",
    appliedBy: ["radius"],
    type: "uint16",
    schema: uint(16, 1, 10_000),
    default: RADIUS_REQUESTS_PER_SECOND,
    apply: "hot",
    description:
      "most RADIUS requests (access and accounting together) sent to the real servers " +
      "per second; what waits longer than the timeout is counted, not sent",
  },
  {
    kind: "field",
    path: "radius.timeoutSeconds",
    appliedBy: ["radius"],
    type: "uint8",
    schema: uint(8, 1, 60),
    default: RADIUS_TIMEOUT_SECONDS,
    apply: "hot",
    description: "how long a real server has to answer before the request moves to the next server (RFC 5080 §2.2.1)",
  },
  {
    kind: "field",
    path: "ipsec.enabled",
    appliedBy: ["ipsec"],
    type: "boolean",
    schema: z.boolean(),
    default: false,
    apply: "hot",
    description:
      "run the IPsec daemon: enabling initiates every peer at once, disabling tears " +
      "every SA down (GET /api/v1/ipsec follows at once)",
  },
  {
    kind: "field",
    path: "ipsec.localAddress",
    appliedBy: ["ipsec"],
    type: "ip",
    schema: text(isIpAddress, "an IPv4 or IPv6 address"),
    default: null,
    apply: "hot",
    description: "this end's IKE address; null = routing.routerId for IPv4 peers (IPv6 peers then cannot be initiated)",
  },
  {
    kind: "list",
    path: "ipsec.peers",
    appliedBy: ["ipsec"],
    key: { name: "name", type: "string", schema: NAME, description: "connection name" },
    children: {
      remoteAddress: {
        type: "string",
        schema: text((t) => isIpAddress(t) || isHostname(t), "an IP address or DNS name"),
        default: null,
        required: true,
        description: "remote gateway",
      },
      localId: {
        type: "string",
        schema: free(255),
        default: null,
        description: "IKE identity presented; null = the local address",
      },
      remoteId: {
        type: "string",
        schema: free(255),
        default: null,
        description: "IKE identity expected; null = the remote address",
      },
      ikeVersion: { type: "uint8", schema: uint(8, 1, 2), default: 2, description: "IKE version, 1 or 2" },
      psk: {
        type: "string",
        schema: free(256).min(8, "at least 8 characters"),
        default: null,
        required: true,
        secret: true,
        description: "pre-shared key",
      },
      ikeProposal: {
        type: "proposal",
        schema: PROPOSAL,
        default: "aes256gcm16-prfsha384-ecp384",
        description:
          "IKE proposals, strongSwan syntax (`aes256gcm16-prfsha384-ecp384`, several " +
          "comma-separated); the first is what the twin negotiates",
      },
      espProposal: {
        type: "proposal",
        schema: PROPOSAL,
        default: "aes256gcm16-ecp384",
        description: "ESP (child SA) proposals, strongSwan syntax",
      },
      localTs: {
        type: "cidr",
        listMode: true,
        schema: text(isCidr, "a CIDR prefix with its host bits zero"),
        default: [],
        description: "local traffic selectors; empty = this end's address",
      },
      remoteTs: {
        type: "cidr",
        listMode: true,
        schema: text(isCidr, "a CIDR prefix with its host bits zero"),
        default: [],
        description: "remote traffic selectors; empty = the remote's address",
      },
      ikeLifetimeSeconds: {
        type: "uint32",
        schema: uint(32, 300, 86_400),
        default: 14_400,
        description: "IKE SA lifetime; it is rekeyed after 90-100 % of it",
      },
      childLifetimeSeconds: {
        type: "uint32",
        schema: uint(32, 120, 86_400),
        default: 3_600,
        description: "child SA hard lifetime; it is rekeyed after 90-100 % of it",
      },
    },
    secretFollows: { psk: ["remoteAddress"] },
    apply: "hot",
    description:
      "IPsec connections (hot: a new or changed connection is loaded and initiated at " +
      "once; a deleted one's SA is kept until its next IKE rekey, at most 5 minutes)",
  },
  {
    kind: "list",
    path: "bgp.neighbors",
    appliedBy: ["routing"],
    key: {
      name: "address",
      type: "ip",
      schema: text(isIpAddress, "an IPv4 or IPv6 address"),
      description: "neighbor address",
    },
    children: {
      remoteAs: {
        type: "uint32",
        schema: uint(32, 1),
        default: null,
        required: true,
        description: "neighbor AS number (AS 0 is reserved, RFC 7607); equal to bgp.localAs = iBGP",
      },
      description: { type: "string", schema: free(255), default: null, description: "free text" },
      bfd: {
        type: "boolean",
        schema: z.boolean(),
        default: false,
        description:
          "run BFD with the neighbor (a path failure then drops the session at once rather than at hold-timer expiry)",
      },
      addressFamilies: {
        type: "afiSafi",
        listMode: true,
        schema: z.enum(AFI_SAFIS, AFI_SAFIS.join(", ")),
        default: [],
        description:
          "address families exchanged: ipv4Unicast, ipv6Unicast, ipv4Vpn, ipv6Vpn; empty = " +
          "the unicast family of the neighbor's address",
      },
      password: {
        type: "string",
        schema: free(80).min(1, "must not be empty"),
        default: null,
        secret: true,
        description: "TCP MD5 signature password (RFC 2385); write-only; null = none",
      },
      holdTime: {
        type: "uint16",
        schema: uint(16).refine((n) => n === 0 || n >= 3, "0 or 3-65535 seconds (RFC 4271 §4.2)"),
        default: 90,
        description: "hold time offered; the lower of the two ends' is used",
      },
      keepAlive: {
        type: "uint16",
        schema: uint(16),
        default: 30,
        description: "keepalive interval; below the hold time (a third of it is usual)",
      },
      shutdown: {
        type: "boolean",
        schema: z.boolean(),
        default: false,
        description: "administratively down: the session is held in `Idle (Admin)`",
      },
    },
    checkItem: neighborItemProblems,
    apply: "hot",
    description:
      "BGP neighbors of the global table (hot: a new or changed neighbor's session " +
      "starts from Idle at once; GRE customers' sessions are configured on their circuits)",
  },
  {
    kind: "field",
    path: "bgp.localAs",
    appliedBy: ["routing"],
    type: "uint32",
    schema: uint(32, 1),
    default: null,
    apply: "hot",
    description:
      "this box's AS number (`router bgp`); required while bgp.neighbors has items; a change restarts every session",
  },
  {
    kind: "field",
    path: "routing.routerId",
    appliedBy: ["routing", "ipsec"],
    type: "ipv4",
    schema: text(isIpv4, "an IPv4 address"),
    default: null,
    apply: "hot",
    description:
      "router id of BGP and the IGP; null = the highest IPv4 address of igp.interfaces " +
      "(as FRR chooses), else 0.0.0.0; a change restarts every BGP session and IGP adjacency",
  },
  {
    kind: "list",
    path: "routing.staticRoutes",
    appliedBy: ["routing"],
    key: {
      name: "route",
      type: "string",
      schema: text(
        isStaticRouteKey,
        "`<vrf>:<prefix>`, e.g. default:0.0.0.0/0 or cust-a:10.20.0.0/16 (a VRF name, " +
          "then a prefix with its host bits zero)",
      ),
      description: "`<vrf>:<prefix>`: the table (a configured VRF or `default`) and the destination",
    },
    children: {
      nextHop: {
        type: "nextHop",
        schema: text(
          (t) => t === "blackhole" || isIpAddress(t),
          "an IP address of the prefix's family, or `blackhole`",
        ),
        default: null,
        required: true,
        description: "gateway address, or `blackhole` to discard",
      },
      distance: {
        type: "uint8",
        schema: uint(8, 1, 255),
        default: 1,
        description: "administrative distance: the lowest installs (connected 0, eBGP 20, OSPF 110, iBGP 200)",
      },
      announce: {
        type: "boolean",
        schema: z.boolean(),
        default: false,
        description: "advertise the prefix in BGP (unicast for `default`, the VRF's VPN family otherwise)",
      },
      description: { type: "string", schema: free(255), default: "", description: "free text" },
    },
    apply: "hot",
    description: "static routes, per VRF",
  },
  {
    kind: "field",
    path: "igp.protocol",
    appliedBy: ["routing"],
    type: "enum",
    schema: z.enum(IGP_PROTOCOLS, IGP_PROTOCOLS.join(", ")),
    default: "none",
    apply: "hot",
    description:
      "interior gateway protocol of the global table: `none`, `ospf` (OSPFv2) or " +
      "`isis`; a change re-forms every adjacency",
  },
  {
    kind: "list",
    path: "igp.interfaces",
    appliedBy: ["routing", "ipsec"],
    key: {
      name: "interface",
      type: "interface",
      schema: text(isInterfaceName, "an interface name of 1-15 letters, digits, '.', '_', ':', '@' or '-'"),
      description: "interface name",
    },
    children: {
      address: {
        type: "interfaceAddress",
        schema: text(isInterfaceAddress, "an address with its prefix length, e.g. 10.1.0.0/31"),
        default: null,
        required: true,
        description: "this end's address with the link's prefix length; unique",
      },
      area: {
        type: "ospfArea",
        schema: text(isOspfArea, "an OSPF area: a dotted quad or a uint32, e.g. 0.0.0.0 or 0"),
        default: "0.0.0.0",
        description: "OSPF area id, dotted quad or decimal (shown dotted); IS-IS ignores it",
      },
      level: {
        type: "enum",
        schema: z.enum(["level-1", "level-2", "level-1-2"], "level-1, level-2 or level-1-2"),
        default: "level-2",
        description: "IS-IS circuit type; OSPF ignores it",
      },
      cost: {
        type: "uint32",
        schema: uint(32, 1, 16_777_215),
        default: 10,
        description: "interface cost (metric); 1-16777215 (IS-IS wide metrics), OSPF uses at most 65535",
      },
      passive: {
        type: "boolean",
        schema: z.boolean(),
        default: false,
        description: "advertise the subnet but form no adjacency (loopbacks, subscriber-facing links)",
      },
      helloSeconds: { type: "uint16", schema: uint(16, 1), default: 10, description: "hello interval" },
      deadSeconds: {
        type: "uint16",
        schema: uint(16, 2),
        default: 40,
        description: "dead interval (IS-IS hold time): above the hello interval",
      },
    },
    unique: ["address"],
    checkItem: igpInterfaceProblems,
    apply: "hot",
    description: "interfaces the IGP runs on (hot: a new or changed interface forms its adjacency afresh)",
  },
  {
    kind: "list",
    path: "gre.listeners",
    appliedBy: ["gre"],
    key: { name: "id", type: "string", schema: NAME, description: "listener id; circuits name it as listenerId" },
    children: {
      localAddress: {
        type: "ip",
        schema: text(isIpAddress, "an IPv4 or IPv6 address"),
        default: null,
        required: true,
        description: "local tunnel endpoint: the outer source address of every circuit on the listener; unique",
      },
      underlayInterface: {
        type: "interface",
        schema: text(isInterfaceName, "an interface name of 1-15 letters, digits, '.', '_', ':', '@' or '-'"),
        default: null,
        description: "interface the tunnels leave by; null = the route to each remote decides",
      },
      ttl: { type: "uint8", schema: uint(8, 1, 255), default: 64, description: "outer TTL (IPv4) or hop limit (IPv6)" },
    },
    unique: ["localAddress"],
    apply: "hot",
    description: "GRE listeners: the shared local tunnel endpoints (usually one per box) that circuits reference",
  },
  {
    kind: "list",
    path: "gre.circuits",
    appliedBy: ["gre"],
    key: {
      name: "id",
      type: "string",
      schema: NAME.refine(
        (t) => !(RESERVED_CIRCUIT_IDS as readonly string[]).includes(t),
        `${RESERVED_CIRCUIT_IDS.map((r) => `'${r}'`).join(" and ")} name the section's own resources`,
      ),
      description: "immutable circuit id",
    },
    children: {
      listenerId: {
        type: "string",
        schema: NAME,
        default: null,
        required: true,
        ref: { list: "gre.listeners", builtin: [] },
        description: "the listener whose local address the tunnel starts from",
      },
      vrf: {
        type: "string",
        schema: NAME,
        default: null,
        required: true,
        ref: VRF_REF,
        description: "customer VRF the circuit delivers into: a configured VRF or `default`",
      },
      remote: {
        type: "ip",
        schema: text(isIpAddress, "an IPv4 or IPv6 address"),
        default: null,
        required: true,
        description: "the customer's tunnel endpoint (outer destination), of the listener's family",
      },
      localTunnelAddress: {
        type: "interfaceAddress",
        schema: text(isInterfaceAddress, "an address with its prefix length, e.g. 10.255.0.1/30"),
        default: null,
        required: true,
        description: "this end's address inside the tunnel, with the tunnel subnet's length",
      },
      remoteTunnelAddress: {
        type: "interfaceAddress",
        schema: text(isInterfaceAddress, "an address with its prefix length, e.g. 10.255.0.2/30"),
        default: null,
        required: true,
        description: "the far end's address inside the tunnel: same subnet as localTunnelAddress, another host",
      },
      description: { type: "string", schema: free(255), default: "", description: "free text" },
      peerAsn: {
        type: "uint32",
        schema: uint(32, 1),
        default: null,
        description: "BGP peer AS over the tunnel (AS 0 is reserved, RFC 7607); null = no BGP (static routing)",
      },
      maximumPrefix: {
        type: "uint32",
        schema: uint(32, 1),
        default: null,
        description: "prefixes accepted from the peer before the session is torn down; null = no limit",
      },
      bfd: { type: "boolean", schema: z.boolean(), default: false, description: "run BFD over the tunnel" },
      key: {
        type: "uint32",
        schema: uint(32),
        default: null,
        description: "GRE key (RFC 2890); null = none. Tells apart tunnels between the same two endpoints",
      },
      clampMss: {
        type: "boolean",
        schema: z.boolean(),
        default: true,
        description: "clamp TCP MSS to the tunnel MTU (GRE adds 24 bytes of overhead)",
      },
      mtu: {
        type: "uint16",
        schema: uint(16, 576, 9000),
        default: null,
        description: "tunnel MTU; null = the underlay's MTU less the GRE overhead",
      },
    },
    checkItem: tunnelAddressProblems,
    apply: "hot",
    description:
      "GRE customer circuits: a tunnel from a listener to a customer endpoint, " +
      "delivered into a VRF, optionally with BGP and BFD",
  },
  {
    kind: "field",
    path: "captures.mirrorAllowlist",
    appliedBy: ["captures"],
    type: "prefix",
    listMode: true,
    schema: text(isPrefix, "an address or a prefix with its host bits zero"),
    default: [],
    apply: "hot",
    description: "collectors a packet capture may mirror to; empty = any",
  },
  {
    kind: "list",
    path: "alarms.sinks",
    appliedBy: ["alert-sinks"],
    key: { name: "name", type: "string", schema: NAME, description: "sink name" },
    children: {
      kind: {
        type: "enum",
        schema: z.enum(["webhook", "smtp", "bus"], "webhook, smtp or bus"),
        default: null,
        required: true,
        description: "`webhook`, `smtp` or `bus`",
      },
      url: {
        type: "url",
        schema: text(
          (t) => hasScheme(t, Object.values(SINK_SCHEMES).flat()),
          "an absolute http(s), smtp(s) or mqtt(s) URL",
        ),
        default: null,
        required: true,
        description:
          "where alerts go: https for webhook (plain http only at an allowlisted internal " +
          "address); smtp (STARTTLS, port 587) or smtps (TLS, 465) for SMTP, as " +
          "smtp://[user@]host[:port]/?from=<address>&to=<address>[,<address>…]; mqtt " +
          "(plain, only at an allowlisted internal address) or mqtts for bus, as " +
          "mqtts://[user@]host[:port][/<topic prefix>]",
      },
      severityFloor: {
        type: "enum",
        schema: z.enum(ALARM_SEVERITIES, ALARM_SEVERITIES.join(", ")),
        default: "major",
        description: "least severe alarm sent",
      },
      credential: {
        type: "string",
        schema: free(1024),
        default: null,
        secret: true,
        description: "a webhook's bearer token; the SMTP or MQTT password of the URL's user; null = none",
      },
      queueSize: {
        type: "uint32",
        schema: uint(32, 1, 10_000),
        default: ALERT_QUEUE_SIZE,
        description:
          "notifications held while the receiver is down, delivered in order once it is back (for up to 30 minutes); " +
          "one that finds the queue full is dropped and counted",
      },
    },
    checkItem: (values) => {
      const kind = values.kind;
      const url = values.url;
      if (typeof kind !== "string" || typeof url !== "string") return [];
      if (!hasScheme(url, SINK_SCHEMES[kind] ?? []))
        return [{ child: "url", detail: `a ${kind} sink needs a ${SINK_SCHEMES[kind]!.join(", ")} URL` }];
      const read = SINK_URL_READERS[kind]?.(url);
      return read && !read.ok ? [{ child: "url", detail: read.detail }] : [];
    },
    secretFollows: { credential: ["kind", "url"] },
    apply: "hot",
    description: "alarm push sinks, each with a severity floor",
  },
  {
    kind: "list",
    path: SYSLOG_LIST,
    appliedBy: ["syslog"],
    key: { name: "name", type: "string", schema: NAME, description: "destination name" },
    children: {
      host: {
        type: "host",
        schema: text((t) => isIpAddress(t) || isHostname(t), "an IP address or a DNS name"),
        default: null,
        required: true,
        description: "the receiver: an address or a DNS name (judged by the outbound policy, as webhooks are)",
      },
      port: {
        type: "uint16",
        schema: uint(16, 1),
        default: null,
        description:
          `TCP port; null = the transport's: ${SYSLOG_PORTS.tls} for tls (RFC ` +
          `5425), ${SYSLOG_PORTS.tcp} for tcp (IANA syslog-conn)`,
      },
      transport: {
        type: "enum",
        schema: z.enum(["tcp", "tls"], "tcp or tls"),
        default: "tls",
        description:
          "`tls` (RFC 5425: the certificate is always verified) or `tcp` (RFC 6587, plain: " +
          "only at an allowlisted internal address)",
      },
      severity: {
        type: "enum",
        schema: z.enum(SEVERITIES, SEVERITIES.join(", ")),
        default: "info",
        description: "least severe log entry shipped (syslog severity name)",
      },
      facility: {
        type: "enum",
        schema: z.enum(FACILITIES, `an RFC 5424 facility: ${FACILITIES.join(", ")}`),
        default: "local0",
        description: "facility of every message (the PRI's high bits)",
      },
      queueSize: {
        type: "uint32",
        schema: uint(32, 1, 100_000),
        default: SYSLOG_QUEUE_SIZE,
        description:
          "entries held while the receiver is down or slow; one that finds the queue full is dropped and counted",
      },
      stream: {
        type: "enum",
        schema: z.enum(SYSLOG_STREAMS, SYSLOG_STREAMS.join(" or ")),
        default: "log",
        description:
          "what the destination receives: `log`, every log ring entry at or above the " +
          "floor; `cgn`, the CGN compliance records (port blocks allocated, released and " +
          "identified), whose losses GET /cgn/status counts per driver",
      },
    },
    apply: "hot",
    description:
      "syslog destinations: every log entry at or above the floor, as RFC 5424 over " +
      "TCP or TLS, octet counted (RFC 6587)",
  },
  {
    kind: "field",
    path: "alarms.webhookAllowlist",
    appliedBy: ["alert-sinks", "syslog"],
    type: "prefix",
    listMode: true,
    schema: text(isPrefix, "an address or a prefix with its host bits zero"),
    default: [],
    apply: "hot",
    description:
      "loopback and private addresses (127/8, ::1, RFC 1918, 100.64/10, fc00::/7 …) " +
      "the appliance may connect to: alarm sinks (webhook, SMTP, MQTT), the ACME CA, " +
      "OIDC providers, " +
      ("syslog receivers, fleet peers (src/config/destinations.ts); empty = public " +
        "destinations only. Link-local and cloud metadata addresses are refused even " +
        "when listed. ") +
      "The local fleet (npm start) seeds loopback, so a receiver, Pebble, a lab IdP or a peer on 127.0.0.1 works",
  },
  {
    kind: "list",
    path: "cgn.groups",
    key: { name: "name", type: "string", schema: NAME, description: "group name" },
    children: {
      description: { type: "string", schema: free(255), default: "", description: "free text" },
      insideVrfs: {
        type: "string",
        listMode: true,
        schema: NAME,
        default: [],
        ref: VRF_REF,
        description:
          "subscriber VRFs whose IPv4 sessions the group translates (at least one; a VRF belongs to one group)",
      },
      outsideVrf: {
        type: "string",
        schema: NAME,
        default: "default",
        ref: VRF_REF,
        description: "VRF the public side lives in: a configured VRF or `default`",
      },
      publicSubnets: {
        type: "ipv4Cidr",
        listMode: true,
        schema: text(isIpv4Cidr, "an IPv4 prefix with its host bits zero, e.g. 192.0.2.0/24"),
        default: [],
        description: "public IPv4 prefixes translated to (at least one; no overlap with another group)",
      },
      chunkSize: { type: "uint16", schema: uint(16, 64, 32768), default: 1024, description: "ports per port block" },
      portCap: {
        type: "uint16",
        schema: uint(16, 64, 64512),
        default: 4096,
        description: "most ports one binding may hold: a multiple of chunkSize, at most 64 blocks",
      },
      setupsPerSec: {
        type: "uint32",
        schema: uint(32, 1),
        default: 1000,
        description: "new bindings per second the group admits",
      },
      bindingTimeoutSeconds: {
        type: "uint32",
        schema: uint(32, 1),
        default: 300,
        description: "idle time before a binding without flows is released",
      },
      quarantineSeconds: {
        type: "uint32",
        schema: uint(32),
        default: 120,
        description: "how long a released port block rests before reuse",
      },
      bypassPrefixes: {
        type: "ipv4Cidr",
        listMode: true,
        schema: text(isIpv4Cidr, "an IPv4 prefix with its host bits zero"),
        default: [],
        description: "inside prefixes that are not translated",
      },
      autoLearn: {
        type: "cgnAutoLearn",
        listMode: true,
        schema: text(isAutoLearnEntry, "`<insideVrf>:<IPv4 prefix>`, e.g. cgn-inside:100.127.0.0/16"),
        default: [],
        ref: { ...VRF_REF, pick: autoLearnVrf },
        description:
          "inside sources translated without a session (anonymous bindings), one " +
          "`<insideVrf>:<prefix>` element per prefix",
      },
      "timeouts.tcpEstablished": {
        type: "uint32",
        schema: uint(32, 1),
        default: 7440,
        description: "seconds; RFC 5382 REQ-5 asks at least 2 h 4 min",
      },
      "timeouts.tcpTransitory": {
        type: "uint32",
        schema: uint(32, 1),
        default: 240,
        description: "seconds; RFC 5382 REQ-5 asks at least 4 min",
      },
      "timeouts.udp": {
        type: "uint32",
        schema: uint(32, 1),
        default: 300,
        description: "seconds; RFC 4787 REQ-5 recommends 5 min",
      },
      "timeouts.icmp": {
        type: "uint32",
        schema: uint(32, 1),
        default: 60,
        description: "seconds; RFC 5508 REQ-1 asks at least 60 s",
      },
    },
    checkItem: cgnGroupProblems,
    apply: "restart",
    description:
      "CGN groups: which inside VRFs are translated to which public subnets, with " +
      "their port-block allocation (allocators are built at startup)",
  },
  {
    kind: "field",
    path: "cgn.maxBindings",
    type: "uint32",
    // The allocator's binding table is sized by this at startup; the twin holds at most 2^19 slots.
    schema: uint(32, 1, 524_288),
    default: 65_536,
    apply: "restart",
    description: "global cap on CGN bindings (allocators are built at startup; at most 524288)",
  },
  {
    kind: "field",
    path: "cgn.maxFlows",
    type: "uint32",
    // CgnStatus reports it as an int32.
    schema: uint(32, 1, 2 ** 31 - 1),
    default: 4_194_304,
    apply: "restart",
    description: "global cap on CGN flows",
  },
];

const BY_PATH = new Map(CONFIG_KEYS.map((key) => [key.path, key]));

/** The key at a path, if any. */
export const configKey = (path: string): ConfigKey | undefined => BY_PATH.get(path);

/** The wire form of an integer type, for the text codec. */
export const isIntegerType = (type: string): boolean => /^(uint(8|16|32)|int32)$/.test(type);

/** The handlers a commit that changed these keys runs, each once, in APPLIERS order. */
export const appliersOf = (keys: readonly string[]): Applier[] =>
  APPLIERS.filter((applier) => keys.some((key) => BY_PATH.get(key)?.appliedBy?.includes(applier)));
