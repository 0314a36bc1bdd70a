/**
 * The configuration schema: one registry of keys, each with its path, zod
 * type, default, secrecy, list mode and apply mode. Everything else reads it:
 * the change-set editor, the validator, GET /config and GET /config/schema.
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
import { ALARM_SEVERITIES } from "../../simulator/alarms.ts";
import { hasScheme, isCidr, isHostname, isIpAddress, isIpv4, isIpv6, isListenerUrl, isPrefix, isRouteDistinguisher, isRouteTarget, parseHostPort } from "./syntax.ts";

/** What GET /config shows instead of a secret, and what a write may send to leave a secret unchanged. */
export const REDACTED = "********";

/** `hot`: the commit takes effect at once; `restart`: the running appliance keeps the old value until it restarts. */
export type ApplyMode = "hot" | "restart";

/** A field's value: a scalar, a list of scalars (list mode), or null (unset). */
export type Value = string | number | boolean | string[] | null;

export interface FieldSpec {
  /** The wire type named in GET /config/schema: `uint8`/`uint16`/`uint32`, `boolean`, or a string type such as `ipv4`. */
  type: string;
  /** Validates the value, or each element of a list-mode field. */
  schema: z.ZodType;
  listMode?: boolean;
  /** The value when unset; null = no default. */
  default: Value;
  /** A keyed-list child that must be given when the item is created. */
  required?: boolean;
  secret?: boolean;
  /** Written only by this operation, which checks what the registry cannot (e.g. a key matching its certificate); change sets may only clear it. */
  managedBy?: string;
  /** The value (each element) must be a key of this list, or one of `builtin`. */
  ref?: { list: string; builtin: readonly string[] };
  description: string;
}

export interface FieldKey extends FieldSpec {
  kind: "field";
  path: string;
  apply: ApplyMode;
}

export interface ListKey {
  kind: "list";
  path: string;
  apply: ApplyMode;
  key: { name: string; type: string; schema: z.ZodType; description: string };
  children: Record<string, FieldSpec>;
  /** Children whose (non-null) values must differ between items. */
  unique?: readonly string[];
  /** Rules across one item's children; each names the child at fault. */
  checkItem?: (values: Record<string, Value>) => { child: string; detail: string }[];
  description: string;
}

export type ConfigKey = FieldKey | ListKey;

const uint = (bits: 8 | 16 | 32, min = 0, max = 2 ** bits - 1) => {
  const range = `must be a uint${bits} in ${min}-${max}`;
  return z.int(range).min(min, range).max(max, range);
};
const text = (check: (value: string) => boolean, message: string) => z.string().refine(check, message);
const free = (max: number) => z.string().max(max, `at most ${max} characters`);

/** A name as VRFs, rules, peers and sinks use: letters, digits, '.', '_', '-' (the profile's names). */
const NAME = text((t) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(t), "1-63 letters, digits, '.', '_' or '-', starting with a letter or digit");
/** Linux reserves table 0 (unspec) and 253-255 (default, main, local). */
const RESERVED_TABLES = [0, 253, 254, 255];
const VRF_REF = { list: "vrfs", builtin: ["default"] } as const;
const TOKEN = text((t) => /^bngtok_[A-Za-z0-9]{36}$/.test(t), "a bngtok_ token (bngtok_ and 36 letters or digits)");

const SINK_SCHEMES: Record<string, readonly string[]> = { webhook: ["https", "http"], smtp: ["smtp", "smtps", "mailto"], bus: ["nats", "amqp", "amqps", "kafka", "mqtt", "mqtts"] };

/** Every key of the configuration, in the order GET /config/schema lists them. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    kind: "field",
    path: "webUi.listeners",
    type: "url",
    listMode: true,
    schema: text(isListenerUrl, "a listener URL such as https://127.0.0.1:8443 (http or https, an IP literal, a port, no path)"),
    default: ["https://127.0.0.1:8443"],
    apply: "restart",
    description: "addresses the web UI and this API listen on; at least one",
  },
  {
    kind: "field",
    path: "webUi.hostname",
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
    apply: "restart",
    description: "PEM certificate chain the listeners present; null = the factory self-signed certificate",
  },
  {
    kind: "field",
    path: "webUi.privateKey",
    type: "pem",
    schema: z.string(),
    default: null,
    secret: true,
    managedBy: "POST /api/v1/config/webui/certificate",
    apply: "restart",
    description: "PEM private key of webUi.certificate",
  },
  {
    kind: "list",
    path: "webUi.peers",
    key: { name: "name", type: "string", schema: text((t) => /^[a-z][a-z0-9-]{0,62}$/.test(t), "a lower-case DNS label"), description: "the `{appliance}` key of the fleet proxy" },
    children: {
      url: { type: "url", schema: text((t) => hasScheme(t, ["https", "http"]), "an http or https URL"), default: null, required: true, description: "peer base URL" },
      credential: { type: "string", schema: TOKEN, default: null, secret: true, description: "read-only token presented to the peer; null = none (the proxy answers 502)" },
      timeoutMs: { type: "uint32", schema: uint(32, 100, 60_000), default: 10_000, description: "how long the fleet proxy waits for this peer" },
    },
    apply: "restart",
    description: "appliances this one reads through the fleet proxy",
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
      rd: { type: "routeDistinguisher", schema: text(isRouteDistinguisher, "a route distinguisher <asn>:<number>"), default: null, description: "BGP route distinguisher `<asn>:<number>`; null or empty = none; unique" },
      importRt: { type: "routeTarget", listMode: true, schema: text(isRouteTarget, "a route target <asn>:<n> or <ipv4>:<n>"), default: [], description: "route targets imported" },
      exportRt: { type: "routeTarget", listMode: true, schema: text(isRouteTarget, "a route target <asn>:<n> or <ipv4>:<n>"), default: [], description: "route targets exported" },
      gatewayIp: { type: "ipv4", schema: text(isIpv4, "an IPv4 address"), default: null, description: "subscriber IPv4 gateway inside the VRF" },
      gatewayIpv6: { type: "ipv6", schema: text(isIpv6, "an IPv6 address"), default: null, description: "subscriber IPv6 gateway inside the VRF" },
      l2tpEndpointIp: { type: "ipv4", schema: text(isIpv4, "an IPv4 address"), default: null, description: "per-VRF L2TP endpoint /32" },
      originateDefaultRoute: { type: "boolean", schema: z.boolean(), default: false, description: "originate an IPv4 default route into BGP inside the VRF" },
    },
    unique: ["tableId", "rd"],
    apply: "hot",
    description: "VRFs (routing tables) subscribers and circuits are placed in; `default` is the global table",
  },
  {
    kind: "list",
    path: "sourceVrfRules",
    key: { name: "name", type: "string", schema: NAME, description: "immutable rule name" },
    children: {
      ingestVrf: { type: "string", schema: NAME, default: null, required: true, ref: VRF_REF, description: "VRF the traffic arrives in: a configured VRF or `default`" },
      sourceSubnets: { type: "cidr", listMode: true, schema: text(isCidr, "a CIDR prefix with its host bits zero, e.g. 10.0.0.0/8"), default: [], description: "source prefixes matched; empty = every source" },
      targetVrf: { type: "string", schema: NAME, default: null, required: true, ref: VRF_REF, description: "VRF matching traffic is routed into (no NAT): a configured VRF or `default`" },
    },
    checkItem: (values) => (values.ingestVrf !== null && values.ingestVrf === values.targetVrf ? [{ child: "targetVrf", detail: "must differ from ingestVrf" }] : []),
    apply: "hot",
    description: "route traffic arriving in one VRF from given sources into another VRF",
  },
  {
    kind: "list",
    path: "radius.servers",
    key: { name: "hostPort", type: "string", schema: text((t) => parseHostPort(t) !== null, "host:port or [ipv6]:port with a port in 1-65535"), description: "`host:port` (authentication UDP port)" },
    children: {
      weight: { type: "uint16", schema: uint(16, 1), default: 1, description: "share of requests relative to the other servers" },
      secret: { type: "string", schema: free(128).min(1, "must not be empty"), default: null, secret: true, description: "RADIUS shared secret; null = not set" },
    },
    apply: "hot",
    description: "RADIUS authentication servers",
  },
  {
    kind: "field",
    path: "ipsec.enabled",
    type: "boolean",
    schema: z.boolean(),
    default: false,
    apply: "restart",
    description: "run the IPsec daemon",
  },
  {
    kind: "list",
    path: "ipsec.peers",
    key: { name: "name", type: "string", schema: NAME, description: "connection name" },
    children: {
      remoteAddress: { type: "string", schema: text((t) => isIpAddress(t) || isHostname(t), "an IP address or DNS name"), default: null, required: true, description: "remote gateway" },
      localId: { type: "string", schema: free(255), default: null, description: "IKE identity presented; null = the local address" },
      remoteId: { type: "string", schema: free(255), default: null, description: "IKE identity expected; null = the remote address" },
      ikeVersion: { type: "uint8", schema: uint(8, 1, 2), default: 2, description: "IKE version, 1 or 2" },
      psk: { type: "string", schema: free(256).min(8, "at least 8 characters"), default: null, required: true, secret: true, description: "pre-shared key" },
    },
    apply: "hot",
    description: "IPsec connections",
  },
  {
    kind: "list",
    path: "bgp.neighbors",
    key: { name: "address", type: "ip", schema: text(isIpAddress, "an IPv4 or IPv6 address"), description: "neighbor address" },
    children: {
      remoteAs: { type: "uint32", schema: uint(32, 1), default: null, required: true, description: "neighbor AS number (AS 0 is reserved, RFC 7607)" },
      description: { type: "string", schema: free(255), default: null, description: "free text" },
      bfd: { type: "boolean", schema: z.boolean(), default: false, description: "run BFD with the neighbor" },
    },
    apply: "hot",
    description: "BGP neighbors",
  },
  {
    kind: "field",
    path: "captures.mirrorAllowlist",
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
    key: { name: "name", type: "string", schema: NAME, description: "sink name" },
    children: {
      kind: { type: "enum", schema: z.enum(["webhook", "smtp", "bus"], "webhook, smtp or bus"), default: null, required: true, description: "`webhook`, `smtp` or `bus`" },
      url: { type: "url", schema: text((t) => hasScheme(t, Object.values(SINK_SCHEMES).flat()), "an absolute URL"), default: null, required: true, description: "where alerts go: http(s) for webhook, smtp(s) or mailto for SMTP, nats/amqp(s)/kafka/mqtt(s) for bus" },
      severityFloor: { type: "enum", schema: z.enum(ALARM_SEVERITIES, ALARM_SEVERITIES.join(", ")), default: "major", description: "least severe alarm sent" },
      credential: { type: "string", schema: free(1024), default: null, secret: true, description: "bearer token, password or connection secret; null = none" },
    },
    checkItem: (values) => {
      const kind = values.kind;
      const url = values.url;
      if (typeof kind !== "string" || typeof url !== "string" || hasScheme(url, SINK_SCHEMES[kind] ?? [])) return [];
      return [{ child: "url", detail: `a ${kind} sink needs a ${SINK_SCHEMES[kind]!.join(", ")} URL` }];
    },
    apply: "hot",
    description: "alarm push sinks, each with a severity floor",
  },
  {
    kind: "field",
    path: "cgn.maxBindings",
    type: "uint32",
    schema: uint(32, 1),
    default: 65_536,
    apply: "restart",
    description: "global cap on CGN bindings (allocators are built at startup)",
  },
  {
    kind: "field",
    path: "cgn.maxFlows",
    type: "uint32",
    schema: uint(32, 1),
    default: 4_194_304,
    apply: "restart",
    description: "global cap on CGN flows",
  },
];

const BY_PATH = new Map(CONFIG_KEYS.map((key) => [key.path, key]));

/** The key at a path, if any. */
export const configKey = (path: string): ConfigKey | undefined => BY_PATH.get(path);

/** The wire form of an integer type, for the text codec. */
export const isIntegerType = (type: string): boolean => /^uint(8|16|32)$/.test(type);
