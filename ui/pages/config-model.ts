/**
 * The configuration page's model, pure: the configuration tree (every key of
 * GET /config/schema in a vendor's sections), each value's label, unit,
 * control and sentence, what is checked as it is typed, the candidate
 * (pending edits) as the change set PUT /config takes, what it changes, and
 * where a refusal's pointer stands on the page.
 */
import type { z } from "zod";
import type {
  ConfigChangeSet as ChangeSetSchema,
  ConfigSchemaDocument,
  ConfigValues as ValuesSchema,
} from "../../src/schemas/config.ts";
import { labelOf } from "../format.ts";
import {
  isCidr,
  isHostname,
  isIpAddress,
  isIpv4,
  isIpv6,
  isListenerUrl,
  isPrefix,
  isRouteDistinguisher,
  isRouteTarget,
} from "../../src/config/syntax.ts";

// The wire shapes as types only (this module is pure and runs in plain Node too).
export type SchemaKey = z.output<typeof ConfigSchemaDocument>["keys"][number];
export type SchemaChild = SchemaKey["children"][number];
export type ConfigValues = z.output<typeof ValuesSchema>;
type ConfigChangeSet = z.input<typeof ChangeSetSchema>;
/** A field or a keyed list's child: what a control needs to know of a value. */
export type ValueSpec = Pick<
  SchemaKey,
  "type" | "default" | "secret" | "listMode" | "choices" | "minimum" | "maximum" | "description"
> & { references?: string | null; required?: boolean; managedBy?: string | null };

/**
 * The tree's sections, in a vendor's order: each takes the keys whose path is one of `paths` or starts with one ending
 * in a dot.
 */
export const SECTIONS: readonly { id: string; title: string; paths: readonly string[] }[] = [
  { id: "web-ui", title: "Web UI and fleet", paths: ["webUi."] },
  { id: "certificate", title: "Certificate (ACME)", paths: ["acme."] },
  { id: "accounts", title: "Accounts", paths: ["login."] },
  { id: "routing", title: "Routing", paths: ["bgp.", "routing.", "igp."] },
  { id: "vrfs", title: "VRFs", paths: ["vrfs", "sourceVrfRules"] },
  { id: "pools", title: "Address pools", paths: ["addressPools"] },
  { id: "subscribers", title: "Local subscribers", paths: ["subscribers."] },
  { id: "radius", title: "RADIUS", paths: ["radius."] },
  { id: "cgn", title: "CGN", paths: ["cgn."] },
  { id: "gre", title: "GRE", paths: ["gre."] },
  { id: "ipsec", title: "IPsec", paths: ["ipsec."] },
  { id: "alarms", title: "Alarms and logging", paths: ["alarms.sinks", "logging."] },
  { id: "destinations", title: "Allowed destinations", paths: ["alarms.webhookAllowlist", "captures."] },
];

/** The section a key belongs to; a key no section names (a new one) is in "Other". */
export function sectionOf(path: string): { id: string; title: string } {
  const found = SECTIONS.find((s) => s.paths.some((p) => (p.endsWith(".") ? path.startsWith(p) : path === p)));
  return found ?? { id: "other", title: "Other" };
}

/** Every section with its keys, in the tree's order (sections without keys left out). */
export function treeOf(keys: readonly SchemaKey[]): { id: string; title: string; keys: SchemaKey[] }[] {
  const all = [...SECTIONS, { id: "other", title: "Other", paths: [] }];
  return all
    .map((s) => ({ id: s.id, title: s.title, keys: keys.filter((k) => sectionOf(k.path).id === s.id) }))
    .filter((s) => s.keys.length > 0);
}

/**
 * Labels the last part of a path does not give (`igp.protocol` alone is "Protocol"; in the Routing section it is the
 * IGP).
 */
const LABELS: Record<string, string> = {
  "webUi.peers": "Fleet peers",
  "webUi.privateKey": "Private key",
  "acme.enabled": "Use ACME",
  "acme.directoryUrl": "CA directory URL",
  "login.users": "Accounts",
  vrfs: "VRFs",
  sourceVrfRules: "Source-VRF rules",
  addressPools: "Address pools",
  "subscribers.local.ipoe": "Local IPoE subscribers",
  "subscribers.local.pppoe": "Local PPPoE subscribers",
  "radius.servers": "RADIUS servers",
  "ipsec.enabled": "Run IPsec",
  "ipsec.peers": "IPsec connections",
  "bgp.neighbors": "BGP neighbors",
  "bgp.localAs": "Local AS",
  "routing.staticRoutes": "Static routes",
  "igp.protocol": "IGP",
  "igp.interfaces": "IGP interfaces",
  "gre.listeners": "GRE listeners",
  "gre.circuits": "GRE circuits",
  "captures.mirrorAllowlist": "Capture collectors",
  "alarms.sinks": "Alarm sinks",
  "alarms.webhookAllowlist": "Private destinations allowed",
  "logging.syslog": "Syslog destinations",
  "cgn.groups": "CGN groups",
  "cgn.maxBindings": "Most bindings",
  "cgn.maxFlows": "Most flows",
};

/** A key's label: `acme.renewBeforeDays` is "Renew before" (its unit is the value's), `bgp.localAs` "Local AS". */
export const keyLabel = (path: string): string => LABELS[path] ?? labelOf(path.split(".").pop()!);
/** A keyed list's child's label; a dotted child (`timeouts.udp`) reads "UDP timeout". */
export const childLabel = (name: string): string => {
  const [group, member] = name.split(".");
  if (group === "timeouts" && member)
    return `${labelOf(member)
      .replace(/^Udp$/, "UDP")
      .replace(/^Icmp$/, "ICMP")
      .replace(/^Tcp/, "TCP")} timeout`;
  return labelOf(name);
};

/** Sentences where the registry's description, written for API clients, does not read well to a person. */
const SENTENCES: Record<string, string> = {
  "webUi.listeners": "The addresses the web UI and the API listen on, each as https://address:port. At least one.",
  "webUi.hostname":
    "The DNS name the appliance answers to: OIDC sign-in returns to it and the " +
    "certificate is checked against it. Empty: none.",
  "webUi.certificate":
    "The certificate chain the web UI presents: installed by uploading one or by " +
    "ACME, never typed here. Empty: the factory self-signed certificate.",
  "webUi.privateKey": "The private key of the certificate above, installed with it. It is never shown.",
  "webUi.peers": "The other appliances of the fleet, read through this one's fleet proxy.",
  "acme.enabled":
    "Obtain the web UI's certificate from the ACME CA below and renew it before it " +
    "expires. It replaces an uploaded certificate.",
  "acme.directoryUrl":
    "The ACME CA's directory address (RFC 8555). Changing it drops the account registered with the previous CA.",
  "acme.contact": "E-mail addresses the CA may write to about the account.",
  "acme.names":
    "The names the certificate is requested for: DNS names, or IP addresses. Empty: " +
    "the host name, else the listeners' addresses.",
  "acme.renewBeforeDays":
    "Renew this long before the certificate expires (at most a third of its lifetime, for short-lived certificates).",
  "login.users":
    "The accounts of the web UI, the API and the CLI (the Users page edits the same " +
    "list). At least one keeps the super-user role.",
  "ipsec.enabled":
    "Run IPsec: switched on, every connection is started at once; switched off, every tunnel is torn down.",
  "ipsec.localAddress": "This end's IKE address. Empty: the router ID (IPv6 connections then cannot be started).",
  "bgp.localAs":
    "This router's AS number. Needed while BGP neighbors are configured; a change restarts every BGP session.",
  "routing.routerId":
    "The router ID of BGP and the IGP. Empty: the highest IPv4 address of the IGP " +
    "interfaces. A change restarts every BGP session and IGP adjacency.",
  "igp.protocol":
    "The interior gateway protocol of the global table: none, OSPF (version 2) or " +
    "IS-IS. A change re-forms every adjacency.",
  "captures.mirrorAllowlist": "The collectors a packet capture may mirror to, as addresses or prefixes. Empty: any.",
  "alarms.webhookAllowlist":
    "Private and loopback addresses the appliance may connect out to: alarm sinks, " +
    "the ACME CA, OIDC providers, syslog receivers and fleet peers. Empty: public " +
    "destinations only. Link-local and cloud metadata addresses are refused even " +
    "when listed.",
  "cgn.maxBindings": "The most CGN bindings at once, across every group (at most 524,288).",
  "cgn.maxFlows": "The most CGN flows at once, across every group.",
  vrfs: "The routing tables subscribers and circuits are placed in; default is the global table.",
  addressPools: "The pools AAA hands IPv4 addresses, IPv6 WAN prefixes and delegated prefixes out from.",
  "ipsec.peers":
    "IPsec connections: a new or changed one is started at once; a deleted one's " +
    "tunnel stays up to its next rekey, at most 5 minutes.",
  "bgp.neighbors":
    "BGP neighbors of the global table: a new or changed one starts from Idle at " +
    "once. A GRE customer's BGP is set on its circuit.",
  "igp.interfaces": "The interfaces the IGP runs on: a new or changed one forms its adjacency afresh.",
  "gre.listeners": "The shared local tunnel endpoints (usually one per box) that circuits start from.",
  "logging.syslog": "Where log entries at or above a severity are sent, as RFC 5424 syslog over TCP or TLS.",
  "cgn.groups": "Which inside VRFs are translated to which public subnets, and how ports are handed out in blocks.",
  "webUi.peers/url": "The peer's address, as https://host:port.",
  "webUi.peers/credential":
    "The read-only token this appliance presents to the peer. Empty: none, and the peer cannot be read.",
  "login.users/role":
    "What the account may do: read-only, operator or super-user. A change applies to its open sessions at once.",
  "login.users/password":
    "A new password, 8 to 256 characters and not a commonly used one; it is stored " +
    "only as a hash. Setting it ends the account's sessions.",
  "addressPools/family": "IPv4 addresses, IPv6 WAN prefixes or delegated IPv6 prefixes; fixed once the pool exists.",
  "addressPools/subnets":
    "The subnets handed out from, in order of preference, one per line; add announce " +
    "after a subnet to advertise it in BGP. No overlap within the pool or with " +
    "another pool of the VRF.",
  "bgp.neighbors/remoteAs": "The neighbor's AS number; the same as the local AS makes it an iBGP neighbor.",
  "gre.circuits/remoteTunnelAddress":
    "The far end's address inside the tunnel: in the same subnet as this end's, another host.",
  "alarms.sinks/url":
    "Where alerts go: an https:// address for a webhook; smtp:// (STARTTLS) or " +
    "smtps:// for e-mail, as smtps://user@host/?from=address&to=address; mqtts:// " +
    "(or mqtt:// to an allowed private address) for a message bus.",
  "logging.syslog/stream":
    "What the destination receives: log entries, or the CGN compliance records (port " +
    "blocks allocated, released and identified).",
  "cgn.groups/portCap": "The most ports one binding may hold: a multiple of the chunk size, at most 64 blocks.",
  "cgn.groups/autoLearn": "Inside sources translated without a session (anonymous bindings), one VRF:prefix per line.",
  "subscribers.local.ipoe/ipv6PdLength":
    "The delegated prefix's length, 1 to 128, when the prefix is written without one.",
  "subscribers.local.pppoe/ipv6PdLength":
    "The delegated prefix's length, 1 to 128, when the prefix is written without one.",
};

/** The ways a description says a member is left empty ("absent or null = …"). */
const LEFT_EMPTY =
  "(?:absent, null or empty|absent or null|null or absent|null or empty|omitted or null|absent|null|empty)";

/**
 * A description as a sentence a person reads: no code marks, "null = X" as
 * "Empty: X", the API's own references (an operation, a source file) left
 * out, a capital letter and a full stop.
 */
export function plainSentence(description: string): string {
  // An enumeration's values said first (`webhook`, `smtp` or `bus`): the select shows them; the sentence says what they
  // are.
  const listsValues = /^`[^`]+`(?:, `[^`]+`)*,? or `[^`]+`/.test(description);
  let t = description
    .replace(/`/g, "")
    // What only an API client needs: an operation's path, a source file, a status code, a member the URL overrides.
    .replace(/\s*\((?:hot: |[^()]*\b(?:GET|PUT|POST|DELETE) \/|[^()]*\bsrc\/|[^()]*\b[45]\d\d\b)[^()]*\)/g, "")
    .replace(/[,;:] [^.;]*\b(?:GET|PUT|POST|DELETE) \/[^.;]*/g, "")
    .replace(/[,;]? ?an unknown [^.;]* is [45]\d\d/g, "")
    .replace(/^(?:optional: )?(?:ignored: .*|the key's; another value is refused.*)$/, "")
    .replace(/^(?:u?int(?:8|16|32|64))\b[,;]? ?/, "")
    .replace(/^seconds; /i, "")
    .replace(/,? ?(?:commit comment, )?request only/, "")
    .replace(/\bwrite-only\b/g, "never shown")
    // "absent or null = X", "null or 0 = unlimited", "0 or absent = X": what leaving it empty means.
    .replace(new RegExp(String.raw`\b${LEFT_EMPTY}\s*=\s*empty\b[;,.]?\s*`, "gi"), "")
    .replace(/\b(?:null or 0|0 or null|0 or absent|absent or 0)\s*=\s*/gi, "empty or 0: ")
    .replace(new RegExp(String.raw`\b${LEFT_EMPTY}\s*=\s*`, "gi"), "empty: ")
    .replace(/\b0 = /g, "0: ")
    .replace(/: unlimited\b/g, ": no limit")
    .replace(/;\s*empty( or 0)?:/g, ". Empty$1:")
    .replace(/[;,]\s*$/, "")
    .trim();
  if (!t) return "";
  t = listsValues ? `One of ${t}` : t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** A key's sentence. */
export const keySentence = (key: Pick<SchemaKey, "path" | "description">): string =>
  SENTENCES[key.path] ?? plainSentence(key.description);
/** A keyed list's child's sentence. */
export const childSentence = (listPath: string, child: Pick<SchemaChild, "name" | "description">): string =>
  SENTENCES[`${listPath}/${child.name}`] ?? plainSentence(child.description);

/** Units a value's name does not end in (a BGP hold time, a CGN timeout are seconds). */
const SECONDS = /^(holdTime|keepAlive|timeouts\..+)$/;

/** The unit a number is typed in, from its name (`ikeLifetimeSeconds` in s, `timeoutMs` in ms), or null. */
export function unitOf(name: string): string | null {
  const last = name.split(".").pop()!;
  if (SECONDS.test(name) || /(Seconds|Secs)$/.test(last)) return "s";
  if (/Ms$/.test(last)) return "ms";
  if (/Days$/.test(last)) return "days";
  if (/Kbps$/.test(last)) return "kb/s";
  if (/Pps$/.test(last)) return "packets/s";
  if (/Kb$/.test(last)) return "kbit";
  return null;
}

/** What a value is edited with. */
export type ControlKind = "switch" | "select" | "choices" | "number" | "rows" | "secret" | "managed" | "text";

export function controlOf(spec: ValueSpec): ControlKind {
  if (spec.managedBy) return "managed";
  if (spec.type === "boolean") return "switch";
  if (spec.secret) return "secret";
  if (spec.choices && spec.listMode) return "choices";
  if (spec.choices || spec.references) return "select";
  if (spec.listMode) return "rows";
  if (/^u?int\d+$/.test(spec.type)) return "number";
  return "text";
}

/** An address with its link's prefix length (`10.0.0.1/30`, `2001:db8::1/64`): host bits may be set. */
function isInterfaceAddress(text: string): boolean {
  const [address, length, extra] = text.split("/");
  if (extra !== undefined || !address || !length || !/^\d{1,3}$/.test(length) || !isIpAddress(address)) return false;
  return Number(length) <= (address.includes(":") ? 128 : 32);
}

/**
 * How each address or name type is checked as it is typed (the appliance checks again, with every rule, when
 * validating).
 */
const CHECKS: Record<string, [(text: string) => boolean, string]> = {
  ipv4: [isIpv4, "Type an IPv4 address, such as 192.0.2.1."],
  ipv6: [isIpv6, "Type an IPv6 address, such as 2001:db8::1."],
  ip: [isIpAddress, "Type an IPv4 or IPv6 address."],
  cidr: [isCidr, "Type a prefix with its length and its host bits zero, such as 192.0.2.0/24."],
  ipv4Cidr: [
    (t) => isCidr(t) && isIpv4(t.split("/")[0]!),
    "Type an IPv4 prefix with its length, such as 198.51.100.0/24.",
  ],
  prefix: [isPrefix, "Type an address or a prefix, such as 10.0.0.0/8."],
  hostname: [isHostname, "Type a DNS name, such as edge-1.example.net."],
  hostOrIp: [(t) => isHostname(t) || isIpAddress(t), "Type a DNS name or an IP address."],
  host: [(t) => isHostname(t) || isIpAddress(t), "Type a DNS name or an IP address."],
  url: [(t) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(t), "Type a URL with its scheme, such as https://host:port."],
  email: [(t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t), "Type an e-mail address."],
  routeDistinguisher: [isRouteDistinguisher, "Type a route distinguisher as AS:number, such as 64500:100."],
  routeTarget: [isRouteTarget, "Type a route target as AS:number, such as 64500:100."],
  interfaceAddress: [isInterfaceAddress, "Type an address with the link's prefix length, such as 10.0.0.1/30."],
  nextHop: [(t) => t === "blackhole" || isIpAddress(t), "Type a gateway address, or blackhole."],
};
const LISTENER: [(text: string) => boolean, string] = [
  isListenerUrl,
  "Type a listener as https://address:port (an IP address and a port, no path).",
];

/**
 * What is wrong with a value as typed, before anything is sent: a number out
 * of its range or not a number, an address that is not one. Null when it
 * looks right (the appliance has the last word when the candidate is validated).
 */
export function problemOf(path: string, spec: ValueSpec, text: string): string | null {
  const t = text.trim();
  if (t === "") return spec.required ? "Required." : null;
  const control = controlOf(spec);
  if (control === "number") {
    const n = numberOf(t);
    if (n === null) return "Type a whole number.";
    const { minimum: min, maximum: max } = spec;
    if ((min !== null && n < min) || (max !== null && n > max))
      return `Type a number from ${min ?? "…"} to ${max ?? "…"}.`;
    return null;
  }
  if (control === "select" && spec.choices && !spec.choices.includes(t))
    return `Choose one of ${spec.choices.join(", ")}.`;
  const check = path === "webUi.listeners" ? LISTENER : CHECKS[spec.type];
  if (!check || (control !== "text" && control !== "rows")) return null;
  const elements = spec.listMode ? splitElements(t) : [t];
  const bad = elements.find((e) => !check[0](e));
  return bad === undefined ? null : elements.length > 1 ? `${bad}: ${check[1]}` : check[1];
}

/** A number as a person types it: `3,500`, `3 500` and `3_500` are 3500. Null when it is not a whole number. */
export function numberOf(text: string): number | null {
  const t = text.trim().replace(/[\s,_]/g, "");
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

/** A list-mode value's elements, typed one per line or comma separated. */
export const splitElements = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter(Boolean);

/** The text the API takes for what was typed: a number without separators, a list one element per line. */
export function wireText(spec: ValueSpec, text: string): string {
  if (controlOf(spec) === "number") return String(numberOf(text) ?? text.trim());
  if (spec.listMode) return splitElements(text).join("\n");
  return text.trim();
}

/** A keyed list's item in the candidate: added, changed (only the children given) or deleted. */
export interface ItemEdit {
  listPath: string;
  key: string;
  isNew: boolean;
  delete: boolean;
  fields: Record<string, string | null>;
}

/** The candidate: fields by path (null = back to the default), items by `listPath` and key. */
export interface Candidate {
  fields: Record<string, string | null>;
  items: ItemEdit[];
}

export const EMPTY_CANDIDATE: Candidate = { fields: {}, items: [] };

export const candidateSize = (c: Candidate): number => Object.keys(c.fields).length + c.items.length;

/** The change set PUT /config and POST /config/validate take for the candidate, with its comment. */
export function changeSetOf(candidate: Candidate, comment: string): ConfigChangeSet {
  const set: ConfigChangeSet = {};
  if (Object.keys(candidate.fields).length) set.fields = { ...candidate.fields };
  if (candidate.items.length)
    set.listOps = candidate.items.map((i) => ({
      listPath: i.listPath,
      key: i.key,
      delete: i.delete,
      fields: i.delete ? {} : i.fields,
    }));
  if (comment.trim()) set.comment = comment.trim();
  return set;
}

/** A pointer into the configuration, as the API writes it (RFC 6901: `~` and `/` escaped in a token). */
const token = (t: string) => t.replace(/~/g, "~0").replace(/\//g, "~1");
export const fieldPointer = (path: string) => `#/fields/${path}`;
export const itemPointer = (listPath: string, key: string, child?: string) =>
  `#/lists/${listPath}/${token(key)}${child ? `/${token(child)}` : ""}`;

/** One value the candidate changes, before and after, as the review shows it. */
export interface CandidateRow {
  pointer: string;
  /** Where it is, in words: "Routing · Router ID", "VRFs · cust-a · Table ID". */
  place: string;
  from: string | null;
  to: string | null;
}

/** Every value the candidate changes, from the values now; a secret reads as changed, never as its text. */
export function candidateRows(
  candidate: Candidate,
  values: ConfigValues,
  schema: readonly SchemaKey[],
  redacted: string,
): CandidateRow[] {
  const byPath = new Map(schema.map((k) => [k.path, k]));
  const rows: CandidateRow[] = [];
  for (const [path, to] of Object.entries(candidate.fields)) {
    const key = byPath.get(path);
    const from = values.fields[path] ?? null;
    const shown = key?.secret && to !== null ? `${redacted} (changed)` : to;
    if (shown !== from || key?.secret)
      rows.push({
        pointer: fieldPointer(path),
        place: `${sectionOf(path).title} · ${keyLabel(path)}`,
        from,
        to: shown,
      });
  }
  for (const item of candidate.items) {
    const key = byPath.get(item.listPath);
    const list = keyLabel(item.listPath);
    const current = values.lists[item.listPath]?.find((i) => i.key === item.key);
    if (item.delete) {
      rows.push({
        pointer: itemPointer(item.listPath, item.key),
        place: `${list} · ${item.key}`,
        from: "present",
        to: "deleted",
      });
      continue;
    }
    if (item.isNew)
      rows.push({
        pointer: itemPointer(item.listPath, item.key),
        place: `${list} · ${item.key}`,
        from: null,
        to: "added",
      });
    for (const [child, to] of Object.entries(item.fields)) {
      const spec = key?.children.find((c) => c.name === child);
      const from = current?.values[child] ?? null;
      const shown = spec?.secret && to !== null ? `${redacted} (changed)` : to;
      if (shown !== from || spec?.secret)
        rows.push({
          pointer: itemPointer(item.listPath, item.key, child),
          place: `${list} · ${item.key} · ${childLabel(child)}`,
          from,
          to: shown,
        });
    }
  }
  return rows;
}

/** Where a refusal stands: a field by its path, or a list item and (when named) its child. */
export type Place =
  | { kind: "field"; path: string }
  | { kind: "item"; listPath: string; key: string; child: string | null }
  | { kind: "list"; listPath: string }
  | { kind: "other" };

const untoken = (t: string) => t.replace(/~1/g, "/").replace(/~0/g, "~");

/** A refusal's pointer as a place on the page (`#/fields/routing.routerId`, `#/lists/vrfs/cust-a/rd`). */
export function placeOfPointer(pointer: string): Place {
  const field = /^#\/fields\/(.+)$/.exec(pointer);
  if (field) return { kind: "field", path: field[1]! };
  const item = /^#\/lists\/([^/]+)(?:\/([^/]+)(?:\/(.+))?)?$/.exec(pointer);
  if (item)
    return item[2] === undefined
      ? { kind: "list", listPath: item[1]! }
      : {
          kind: "item",
          listPath: item[1]!,
          key: untoken(item[2]),
          child: item[3] === undefined ? null : untoken(item[3]),
        };
  return { kind: "other" };
}
