/**
 * Where the appliance may send anything (OWASP ASVS 5.0 §1.3.6, SSRF): the
 * one policy every outbound request passes — alarm webhooks, SMTP and MQTT
 * sinks (their sockets), the ACME CA (its directory and every URL the
 * directory or an answer names), OIDC discovery, token, JWKS and userinfo
 * endpoints, fleet peers — and every socket opened to a configured host
 * (syslog receivers: `hostVerdict`, durable-objects/outbound-socket.ts). Never to
 * link-local or cloud metadata addresses; to loopback and private addresses
 * only when `alarms.webhookAllowlist` holds them (the local fleet seeds it
 * with loopback); anywhere public otherwise. Nothing leaves in clear for a
 * public address: the ACME CA is https only, and a webhook (its bearer
 * credential, the alarms), a peer (the peer credential), an identity
 * provider, an MQTT broker (`mqtt:`) and a syslog receiver over `tcp` (every
 * log entry) are encrypted unless the address is an allowlisted internal
 * one, where the traffic stays on the operator's network (the local fleet's
 * loopback receivers, peers and lab IdP). An SMTP sink is always encrypted
 * (`smtp:` STARTTLS, `smtps:` TLS). Configuration
 * validation answers a 422 naming the URL; `outboundFetch` refuses a stored
 * destination that no longer passes, and never follows a redirect.
 *
 * Names are judged as written first: `localhost` and `*.localhost` are
 * loopback (RFC 6761 §6.3), the metadata services' names are refused. Any
 * other name is resolved at connect time and judged by every address it
 * resolves to, by the same rule as a literal address (issue #47: a name in
 * /etc/hosts pointing at 127.0.0.1 had a webhook's bearer sent there with an
 * empty allowlist). workerd gives a Worker no resolver, so the local launcher
 * binds one (`BNG_RESOLVER`, launcher/resolver.ts: the system's, as workerd's
 * own connect uses), registered once per isolate (`resolveWith`). Deployed,
 * there is none: a Worker cannot reach private networks at all. The platform
 * resolves the name again as it connects, milliseconds later: a DNS answer
 * that changes between the two (rebinding with a zero TTL) is not caught.
 */
import { parseAddress, parsePrefix, prefixHas, type Family, type Prefix } from "../../simulator/prefix.ts";

const prefixes = (texts: string[]): Prefix[] => texts.map((t) => parsePrefix(t)!);

/**
 * Refused even when allowlisted: link-local (where metadata services live), known metadata addresses, unspecified,
 * multicast, reserved.
 */
const NEVER = prefixes([
  "169.254.0.0/16",
  "fe80::/10", // link-local: 169.254.169.254 is AWS, GCP, Azure, OpenStack metadata
  "100.100.100.200/32", // Alibaba Cloud metadata
  "fd00:ec2::254/128", // AWS metadata over IPv6
  "0.0.0.0/8",
  "::/128", // "this host": Linux connects 0.0.0.0 to loopback
  "224.0.0.0/4",
  "ff00::/8",
  "240.0.0.0/4", // multicast, reserved and broadcast
]);

/**
 * Reachable only when allowlisted: loopback, RFC 1918, shared CGN space, unique local, benchmarking, IETF protocol
 * assignments.
 */
const INTERNAL = prefixes([
  "127.0.0.0/8",
  "::1/128",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "fc00::/7",
  "198.18.0.0/15",
  "192.0.0.0/24",
]);

/** IPv6 forms that carry an IPv4 address in their low 32 bits (IPv4-mapped, NAT64): judged as that address. */
const EMBEDDING_V4 = prefixes(["::ffff:0:0/96", "64:ff9b::/96"]);

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** What an outbound request is for: it decides the schemes, and whether a plaintext one may be used. */
export type Purpose = "webhook" | "acme" | "oidc" | "peer" | "smtp" | "mqtt" | "syslog" | "radius";

/**
 * Each purpose's schemes: the encrypted ones, and the plaintext one with where
 * it may be used: never (ACME: docs/decisions.md's https only; SMTP, which
 * carries the sink's password), or only to an allowlisted internal address
 * (issue #47: a webhook's bearer credential and a syslog receiver's log
 * entries crossed the Internet in clear when plain http or tcp was allowed
 * anywhere).
 */
type Schemes = { encrypted: readonly string[]; plain: string | null; plainUse: "never" | "internal" };
const SCHEMES: Record<Purpose, Schemes> = {
  webhook: { encrypted: ["https:"], plain: "http:", plainUse: "internal" },
  acme: { encrypted: ["https:"], plain: "http:", plainUse: "never" },
  oidc: { encrypted: ["https:"], plain: "http:", plainUse: "internal" },
  peer: { encrypted: ["https:"], plain: "http:", plainUse: "internal" },
  smtp: { encrypted: ["smtp:", "smtps:"], plain: null, plainUse: "never" },
  mqtt: { encrypted: ["mqtts:"], plain: "mqtt:", plainUse: "internal" },
  // A syslog receiver is a host and a port, not a URL (`hostVerdict`): no URL scheme reaches one; its `tcp`
  // transport is the plaintext one, `tls` the encrypted.
  syslog: { encrypted: [], plain: null, plainUse: "internal" },
  // A RADIUS server is a host and ports too; its `tcp` transport is plaintext (RFC 6613 §1: TCP only where TLS or
  // IPsec protects it, so only on the operator's own network), `tls` the encrypted one (RFC 6614).
  radius: { encrypted: [], plain: null, plainUse: "internal" },
};

/** The purpose each alarm sink kind connects for. */
export const SINK_PURPOSE = { webhook: "webhook", smtp: "smtp", bus: "mqtt" } as const satisfies Record<
  string,
  Purpose
>;

const WHAT: Record<Purpose, string> = {
  webhook: "a webhook",
  acme: "an ACME server",
  oidc: "an identity provider",
  peer: "a fleet peer",
  smtp: "a mail server",
  mqtt: "an MQTT broker",
  syslog: "a syslog receiver",
  radius: "a RADIUS server",
};

const bare = (scheme: string) => scheme.replace(/:$/, "");

/**
 * The host a URL names, as a special (http) URL would parse it: a non-special
 * scheme (smtp:, mqtt:) leaves its host opaque, so `mqtt://0x7f.1` would read
 * as a name while a resolver takes it for 127.0.0.1. Null when there is none.
 */
function hostOf(parsed: URL): string | null {
  if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed.hostname;
  try {
    return new URL(`http:${parsed.href.slice(parsed.protocol.length)}`).hostname || null;
  } catch {
    return null;
  }
}

/**
 * Where a socket sink connects: the host exactly as the policy judged it, and the URL's port or the scheme's default.
 */
export function socketTarget(url: string, defaultPort: number): { hostname: string; port: number } {
  const parsed = new URL(url);
  return {
    hostname: hostOf(parsed)!.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : defaultPort,
  };
}

export type DestinationVerdict = { ok: true } | { ok: false; detail: string };

const within = (list: Prefix[], family: Family, value: bigint) => list.some((p) => prefixHas(p, family, value));

/** The address a host names, with IPv4 embedded in IPv6 unwrapped; null for a DNS name. */
function addressOf(host: string): { family: Family; value: bigint } | null {
  const address = parseAddress(host.replace(/^\[(.*)\]$/, "$1"));
  if (address && address.family === 6 && within(EMBEDDING_V4, 6, address.value))
    return { family: 4, value: address.value & 0xffffffffn };
  return address;
}

/** Whether `purpose` may send to `url`, given the allowlist (addresses and prefixes). */
export function destinationVerdict(url: string, purpose: Purpose, allowlist: readonly string[]): DestinationVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, detail: "not an absolute URL" };
  }
  const what = WHAT[purpose];
  const { encrypted, plain, plainUse } = SCHEMES[purpose];
  if (!encrypted.includes(parsed.protocol) && parsed.protocol !== plain) {
    return {
      ok: false,
      detail:
        `${what} is reached ` +
        `over ${[...encrypted, ...(plain && plainUse !== "never" ? [plain] : [])].map(bare).join(" or ")} ` +
        `only, not ${parsed.protocol}`,
    };
  }
  // WHATWG URL parsing (of a special URL: hostOf) has already normalised 0x7f.1, 2130706433 and friends to dotted
  // quads.
  const named = hostOf(parsed);
  if (!named) return { ok: false, detail: "names no host" };
  const judged = judgeHost(named, purpose, allowlist);
  if (!judged.ok) return judged;
  const internal = judged.internal;
  if (parsed.protocol === plain && (plainUse === "never" || (plainUse === "internal" && !internal))) {
    const where =
      plainUse === "internal"
        ? ` (plain ${bare(parsed.protocol)} only at an allowlisted loopback or private address)`
        : "";
    return { ok: false, detail: `${what} is reached over ${encrypted.map(bare).join(" or ")} only${where}` };
  }
  return { ok: true };
}

/**
 * Whether `purpose` may open a socket to `host` (an address or a DNS name, as configured), given the allowlist;
 * `cleartext` when nothing encrypts it (a syslog receiver or a RADIUS server over `tcp`), which only an allowlisted
 * internal address may take.
 */
export function hostVerdict(
  host: string,
  purpose: Purpose,
  allowlist: readonly string[],
  cleartext = false,
): DestinationVerdict {
  // Judged as WHATWG URL parsing reads it, so 0x7f.1 and 2130706433 are the loopback they are here too.
  let hostname: string;
  try {
    hostname = new URL(`https://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}/`).hostname;
  } catch {
    return { ok: false, detail: "not a host name or address" };
  }
  const judged = judgeHost(hostname, purpose, allowlist);
  if (!judged.ok) return judged;
  if (cleartext && (SCHEMES[purpose].plainUse === "never" || !judged.internal)) {
    const where = "plain tcp only at an allowlisted loopback or private address";
    const detail = `${WHAT[purpose]} at ${hostname} is reached over tls only (${where})`;
    return { ok: false, detail };
  }
  return { ok: true };
}

/** The host rules every purpose shares: never link-local or metadata, internal only when allowlisted. */
function judgeHost(
  hostname: string,
  purpose: Purpose,
  allowlist: readonly string[],
): { ok: true; internal: boolean } | { ok: false; detail: string } {
  const what = WHAT[purpose];
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return { ok: false, detail: `${host} is a cloud metadata service: never ${what}` };
  const address = host === "localhost" || host.endsWith(".localhost") ? addressOf("127.0.0.1")! : addressOf(host);
  if (address && within(NEVER, address.family, address.value)) {
    return { ok: false, detail: `${host} is a link-local, metadata, unspecified or multicast address: never ${what}` };
  }
  const internal = address !== null && within(INTERNAL, address.family, address.value);
  if (internal) {
    const allowed = allowlist.map((text) => parsePrefix(text, false)).filter((p): p is Prefix => p !== null);
    if (!within(allowed, address.family, address.value)) {
      return {
        ok: false,
        detail:
          `${host} is a loopback or private address: add it to alarms.webhookAllowlist ` +
          `(the allowlist of every outbound destination) to reach ${what} there`,
      };
    }
  }
  return { ok: true, internal };
}

/** A request the policy refused: nothing was sent. */
export class DestinationRefused extends Error {
  override readonly name = "DestinationRefused";
}

/** The addresses a DNS name resolves to now (none when it does not resolve). */
export type Resolver = (name: string) => Promise<string[]>;

/** The local launcher's resolver, once an entry point has registered its bindings; null deployed. */
let resolver: Resolver | null = null;
let resolverSource: Fetcher | undefined;

/** Registers the resolver the bindings hold (the local launcher's BNG_RESOLVER), once per isolate; none deployed. */
export function resolveWith(env: { BNG_RESOLVER?: Fetcher }): void {
  const binding = env.BNG_RESOLVER;
  if (binding === resolverSource) return;
  resolverSource = binding;
  resolver =
    binding === undefined
      ? null
      : async (name) => {
          const answer = await binding.fetch(`http://resolver/?name=${encodeURIComponent(name)}`);
          return answer.ok ? ((await answer.json()) as string[]) : [];
        };
}

/**
 * Judges what a host name resolves to, now, by the rule a literal address meets (`judgeHost`): every address must
 * pass. A literal address, a `localhost` name or no resolver (deployed): nothing to resolve, nothing more to judge.
 */
async function resolvedVerdict(
  host: string,
  purpose: Purpose,
  allowlist: readonly string[],
): Promise<DestinationVerdict> {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  const literal = addressOf(name) !== null || name === "localhost" || name.endsWith(".localhost");
  if (resolver === null || literal) return { ok: true };
  let addresses: string[];
  try {
    addresses = await resolver(name);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, detail: `${name} does not resolve` };
  for (const address of addresses) {
    const judged = judgeHost(address, purpose, allowlist);
    if (!judged.ok) return { ok: false, detail: `${name} resolves to ${address}: ${judged.detail}` };
  }
  return { ok: true };
}

/**
 * Judges a destination as written (`destinationVerdict`, or `hostVerdict` for a socket's host), then by what its
 * name resolves to now; throws DestinationRefused when either refuses.
 */
export async function judgeDestination(
  written: DestinationVerdict,
  host: string,
  purpose: Purpose,
  allowlist: readonly string[],
): Promise<void> {
  if (!written.ok) throw new DestinationRefused(written.detail);
  const resolved = await resolvedVerdict(host, purpose, allowlist);
  if (!resolved.ok) throw new DestinationRefused(resolved.detail);
}

/**
 * The one way the appliance fetches from elsewhere: the destination judged
 * first, its name by what it resolves to (nothing is sent when either is
 * refused), and a redirect answered as is, never followed to a destination
 * nobody judged (`redirect: "manual"`).
 */
export async function outboundFetch(
  url: string,
  purpose: Purpose,
  allowlist: readonly string[],
  init: RequestInit = {},
): Promise<Response> {
  const verdict = destinationVerdict(url, purpose, allowlist);
  await judgeDestination(verdict, verdict.ok ? hostOf(new URL(url))! : "", purpose, allowlist);
  return fetch(url, { ...init, redirect: "manual" });
}
