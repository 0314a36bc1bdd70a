/**
 * Human forms of the API's values, shared by every page: what a member is
 * (an identifier, a rate, a byte count, a duration, a time, a state) follows
 * from its name in the contract, so a table of any section reads as a
 * designed one: identifiers as typed (no thousands separators: an AS number,
 * a VLAN, a tunnel id pasted back must parse), rates in b/s scaled to Gb/s,
 * bytes in binary units, durations as `3d 4h`, times in UTC, 24-hour, with
 * the zone shown.
 */

/** Short human form of a duration in seconds: `3d 4h 5m`, `4h 5m`, `5m 6s`, `6s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : m ? `${m}m ${s % 60}s` : `${s}s`;
}

/**
 * `n` in the largest unit of `units` (each `step` times the last) that keeps it at least 1: `815.7 Mb/s`, `16.0 GiB`.
 */
function scaled(n: number, step: number, units: readonly string[]): string {
  let v = n;
  let i = 0;
  while (Math.abs(v) >= step && i < units.length - 1) {
    v /= step;
    i++;
  }
  return `${i === 0 ? Math.round(v) : v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[i]}`;
}

/** A bit rate scaled by 1000 (network convention): `815.69 Mb/s`. */
export const bitRate = (bps: number): string => scaled(bps, 1000, ["b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"]);

/** An amount of bits scaled by 1000, as a shaper's burst is written: `1.50 Mbit`. */
export const bitAmount = (bits: number): string => scaled(bits, 1000, ["bit", "kbit", "Mbit", "Gbit"]);

/** A byte count scaled by 1024 (memory and storage convention): `16.0 GiB`. */
export const bytes = (n: number): string => scaled(n, 1024, ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]);

/** A count with thousands separators, the one place numbers get them. */
export const count = (n: number): string => n.toLocaleString("en");

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An instant as `2026-03-02 09:00:05 UTC`: 24-hour, seconds, zone shown (a NOC compares times across boxes and
 * tickets).
 */
export function utc(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `HH:MM` (or `HH:MM:SS`), 24-hour, in UTC, of an instant in seconds since the epoch: a chart's time axis. */
export const utcClock = (seconds: number, withSeconds = false): string =>
  new Date(seconds * 1000).toISOString().slice(11, withSeconds ? 19 : 16);

export const isIsoTime = (v: unknown): v is string => typeof v === "string" && ISO_TIME.test(v);

/**
 * A problem's words as a sentence a person reads: a first letter in capitals
 * (unless the text starts with a name as typed, `bgp.localAs`, `xe-0/0/1`),
 * a full stop at the end, and every instant in it as the UI writes times.
 */
export function sentence(text: string): string {
  const t = text.trim().replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, (iso) => utc(iso));
  if (!t) return t;
  const first = /^[a-z]+(?=[\s,;]|$)/.test(t) ? t.charAt(0).toUpperCase() + t.slice(1) : t;
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** Abbreviations the API's camelCase names hide: `localAs` is "Local AS", `rxBps` "Rx rate". */
const WORDS: Record<string, string> = {
  as: "AS",
  asn: "ASN",
  id: "ID",
  ids: "IDs",
  ip: "IP",
  ipv4: "IPv4",
  ipv6: "IPv6",
  mac: "MAC",
  vrf: "VRF",
  vrfs: "VRFs",
  mtu: "MTU",
  cgn: "CGN",
  bgp: "BGP",
  igp: "IGP",
  l2tp: "L2TP",
  ipsec: "IPsec",
  gre: "GRE",
  aaa: "AAA",
  sa: "SA",
  sas: "SAs",
  ike: "IKE",
  pppoe: "PPPoE",
  ipoe: "IPoE",
  svlan: "S-VLAN",
  cvlan: "C-VLAN",
  vlan: "VLAN",
  radius: "RADIUS",
  cpu: "CPU",
  rib: "RIB",
  fib: "FIB",
  nat: "NAT",
  dns: "DNS",
  url: "URL",
  uri: "URI",
  oidc: "OIDC",
  totp: "TOTP",
  csrf: "CSRF",
  acme: "ACME",
  ttl: "TTL",
  lac: "LAC",
  lns: "LNS",
  rx: "Rx",
  tx: "Tx",
  pps: "packet rate",
  bps: "rate",
  qos: "QoS",
  ospf: "OSPF",
  isis: "IS-IS",
  afi: "AFI",
  safi: "SAFI",
  dhcp: "DHCP",
  nas: "NAS",
  ppp: "PPP",
  lcp: "LCP",
  ipcp: "IPCP",
  sla: "SLA",
  rtt: "RTT",
  mss: "MSS",
  tcp: "TCP",
  udp: "UDP",
  icmp: "ICMP",
  esp: "ESP",
  rd: "RD",
  rt: "RT",
  os: "OS",
  fp: "FP",
  ssh: "SSH",
  api: "API",
  ui: "UI",
  utc: "UTC",
  pfx: "prefixes",
  rpid: "RP ID",
};
/** Whole names whose words the rules above would get wrong. */
const NAMES: Record<string, string> = {
  sVlan: "S-VLAN",
  cVlan: "C-VLAN",
  svlan: "S-VLAN",
  vlan: "VLAN",
  cvlan: "C-VLAN",
  mplsLabel: "MPLS label",
  dontFragment: "Don't fragment",
  rxBps: "Rx rate",
  txBps: "Tx rate",
  bfd: "BFD",
  rpId: "RP ID",
  afiSafi: "AFI/SAFI",
  ipv4: "IPv4",
  ipv6: "IPv6",
  downloadRatePps: "Download packet rate",
  uploadRatePps: "Upload packet rate",
  dns1: "DNS 1",
  dns2: "DNS 2",
  dnsV6_1: "IPv6 DNS 1",
  dnsV6_2: "IPv6 DNS 2",
  ipv6PdPrefix: "Delegated prefix",
  ipv6PdLength: "Delegated prefix length",
  psk: "Pre-shared key",
  localTs: "Local traffic selectors",
  remoteTs: "Remote traffic selectors",
  option82CircuitId: "Option 82 circuit ID",
  asOf: "As of",
  asOfUtc: "As of",
};
/** Unit suffixes a label drops, because the value is shown in its unit. */
const UNIT_SUFFIX = /(Seconds|Secs|Bytes|Ms|Mbps|Kbps|Kb|Percent|Days|Dbm|Celsius|Volts|Watts|Utc)$/;

/**
 * A label from a camelCase member name: `uptimeSeconds` → "Uptime", `memoryTotalBytes` → "Memory total", `localAs` →
 * "Local AS".
 */
export function labelOf(key: string): string {
  if (NAMES[key]) return NAMES[key];
  const base = key.length > 3 && UNIT_SUFFIX.test(key) ? key.replace(UNIT_SUFFIX, "") : key;
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w, i) => WORDS[w.toLowerCase()] ?? (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w.toLowerCase()));
  const label = words.join(" ");
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** What a member's number means, from its name (its unit suffix in the contract). */
export type NumberKind =
  | "id"
  | "rate"
  | "kbps"
  | "mbps"
  | "pps"
  | "bytes"
  | "kbit"
  | "seconds"
  | "ms"
  | "days"
  | "percent"
  | "dbm"
  | "celsius"
  | "volts"
  | "watts"
  | "count";

/**
 * Identifiers and wire numbers a person types back (no separators): ids, AS numbers, VLANs, ports, MTUs, sequence
 * numbers, indexes, years.
 */
const IDENTIFIER = new RegExp(
  "(^|[a-z])(Id|Ids|As|Asn|Vlan|Svlan|Cvlan|Port|Mtu|Seq|Index|Vni|Vpi|Vci|Tag|Year|Number|Serial|Pid|Lac|Mss|Nm)$" +
    "|^(id|as|asn|vlan|svlan|cvlan|port|mtu|seq|sinceSeq|index|vni|tag|year|serial|seed|localAs|remoteAs|peerAs" +
    "|bindingIndex|sessionId|tunnelId)$",
);

/** The kind of a numeric member, from its name. */
export function numberKind(key: string): NumberKind {
  if (IDENTIFIER.test(key)) return "id";
  // The multiples first: `downloadKbps` also ends in `bps`.
  if (/Kbps$/.test(key)) return "kbps";
  if (/Mbps$/.test(key)) return "mbps";
  if (/(Bps|bps|BitsPerSecond)$/.test(key) || /^(rate|speed)$/i.test(key)) return "rate";
  if (/(Pps|pps)$/.test(key)) return "pps";
  if (/Bytes$|^bytes$/.test(key)) return "bytes";
  if (/Kb$/.test(key)) return "kbit";
  if (/(Seconds|Secs)$|^seconds$/.test(key)) return "seconds";
  if (/Ms$/.test(key)) return "ms";
  if (/Days$/.test(key)) return "days";
  if (/(Percent|Pct|Utilization|Utilisation)$/.test(key)) return "percent";
  if (/Dbm$/.test(key)) return "dbm";
  if (/Celsius$/.test(key)) return "celsius";
  if (/Volts$/.test(key)) return "volts";
  if (/Watts$/.test(key)) return "watts";
  return "count";
}

/** A number as the person reads it, by what its member means. */
export function formatNumber(key: string, n: number): string {
  switch (numberKind(key)) {
    case "id":
      return String(n);
    case "rate":
      return bitRate(n);
    case "kbps":
      return bitRate(n * 1e3);
    case "mbps":
      return bitRate(n * 1e6);
    case "pps":
      return `${count(n)} pps`;
    case "bytes":
      return bytes(n);
    case "kbit":
      return bitAmount(n * 1e3);
    case "seconds":
      return duration(n);
    case "ms":
      return `${count(n)} ms`;
    case "days":
      return `${count(n)} day${n === 1 ? "" : "s"}`;
    case "percent":
      return `${n.toFixed(n < 10 ? 1 : 0)} %`;
    case "dbm":
      return `${n.toFixed(2)} dBm`;
    case "celsius":
      return `${n.toFixed(1)} °C`;
    case "volts":
      return `${n.toFixed(2)} V`;
    case "watts":
      return `${n.toFixed(n < 10 ? 1 : 0)} W`;
    case "count":
      return count(n);
  }
}

/** Any scalar value as text, by its member's name; null is a dash. */
export function formatValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return formatNumber(key, value);
  if (isIsoTime(value)) return utc(value);
  return String(value);
}

/** State values (lower-cased) that read as good, bad, or on the way or worth a look. */
const GOOD_STATE = new RegExp(
  "^(up|alive|full|established|installed|ok|healthy|running|valid|licensed|live|connected|complete|accept|success" +
    "|delivered)$",
);
const BAD_STATE = new RegExp(
  "^(down|failed|dead|expired|lapsed|error|critical|major|invalid|disconnected|reject|timeout|unreachable|closed" +
    "|alarm)$",
);
const WARN_STATE = new RegExp(
  "^(idle|connect|connecting|opensent|openconfirm|wait-ctl|init|exstart|exchange|loading|initializing|provisioning" +
    "|grace|pending|degraded|minor|warning|draining|applying|rebooting|unknown)$",
);

/** Good, bad or neutral: how a state value reads at a glance (BGP, IGP, L2TP, IPsec, RADIUS, interfaces, licences). */
export function tone(key: string, value: unknown): "good" | "bad" | "warn" | null {
  if (typeof value === "boolean") {
    if (/^(isDead|dead|down|failed|expired|locked|degraded|pendingRestart|restartRequired)$/.test(key))
      return value ? "bad" : null;
    if (/^(up|isUp|running|operUp|reachable|healthy|valid|live|established|active)$/.test(key))
      return value ? "good" : "bad";
    return null;
  }
  if (typeof value !== "string" || !/(state|status|health|oper|admin|phase|result|severity)$/i.test(key)) return null;
  const v = value.toLowerCase();
  // BGP's `Active` is a neighbor still trying to connect, so `active` is neutral; IPsec states are upper case, lowered
  // here.
  if (GOOD_STATE.test(v)) return "good";
  if (BAD_STATE.test(v)) return "bad";
  if (WARN_STATE.test(v)) return "warn";
  return null;
}
