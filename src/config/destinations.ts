/**
 * Where the appliance may send a webhook (OWASP ASVS 5.0 §1.3.6, SSRF):
 * never to link-local or cloud metadata addresses; to loopback and private
 * addresses only when `alarms.webhookAllowlist` holds them; anywhere public
 * otherwise. Pure policy, shared by configuration validation (a 422 naming
 * the sink's URL) and the delivery (a stored sink that no longer passes is
 * not sent to).
 *
 * Names are judged as written: `localhost` and `*.localhost` are loopback
 * (RFC 6761 §6.3), the metadata services' names are refused; any other name
 * is resolved by the platform at delivery. Deployed, a Worker cannot reach
 * private networks at all; on a local fleet a name that resolves to a private
 * address is not caught here (workerd gives a Worker no resolver to ask).
 */
import { parseAddress, parsePrefix, prefixHas, type Family, type Prefix } from "../../simulator/prefix.ts";

const prefixes = (texts: string[]): Prefix[] => texts.map((t) => parsePrefix(t)!);

/** Refused even when allowlisted: link-local (where metadata services live), known metadata addresses, unspecified, multicast, reserved. */
const NEVER = prefixes([
  "169.254.0.0/16", "fe80::/10", // link-local: 169.254.169.254 is AWS, GCP, Azure, OpenStack metadata
  "100.100.100.200/32", // Alibaba Cloud metadata
  "fd00:ec2::254/128", // AWS metadata over IPv6
  "0.0.0.0/8", "::/128", // "this host": Linux connects 0.0.0.0 to loopback
  "224.0.0.0/4", "ff00::/8", "240.0.0.0/4", // multicast, reserved and broadcast
]);

/** Reachable only when allowlisted: loopback, RFC 1918, shared CGN space, unique local, benchmarking, IETF protocol assignments. */
const INTERNAL = prefixes([
  "127.0.0.0/8", "::1/128",
  "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
  "100.64.0.0/10", "fc00::/7",
  "198.18.0.0/15", "192.0.0.0/24",
]);

/** IPv6 forms that carry an IPv4 address in their low 32 bits (IPv4-mapped, NAT64): judged as that address. */
const EMBEDDING_V4 = prefixes(["::ffff:0:0/96", "64:ff9b::/96"]);

const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

export type DestinationVerdict = { ok: true } | { ok: false; detail: string };

const within = (list: Prefix[], family: Family, value: bigint) => list.some((p) => prefixHas(p, family, value));

/** The address a host names, with IPv4 embedded in IPv6 unwrapped; null for a DNS name. */
function addressOf(host: string): { family: Family; value: bigint } | null {
  const address = parseAddress(host.replace(/^\[(.*)\]$/, "$1"));
  if (address && address.family === 6 && within(EMBEDDING_V4, 6, address.value)) return { family: 4, value: address.value & 0xffffffffn };
  return address;
}

/** Whether a webhook may be sent to `url`, given the allowlist (addresses and prefixes). */
export function webhookDestination(url: string, allowlist: readonly string[]): DestinationVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, detail: "not an absolute URL" };
  }
  // WHATWG URL parsing has already normalised 0x7f.1, 2130706433 and friends to dotted quads.
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return { ok: false, detail: `${host} is a cloud metadata service: never a webhook destination` };
  const address = host === "localhost" || host.endsWith(".localhost") ? addressOf("127.0.0.1")! : addressOf(host);
  if (!address) return { ok: true };
  if (within(NEVER, address.family, address.value)) {
    return { ok: false, detail: `${host} is a link-local, metadata, unspecified or multicast address: never a webhook destination` };
  }
  if (!within(INTERNAL, address.family, address.value)) return { ok: true };
  const allowed = allowlist.map((text) => parsePrefix(text, false)).filter((p): p is Prefix => p !== null);
  if (within(allowed, address.family, address.value)) return { ok: true };
  return { ok: false, detail: `${host} is a loopback or private address: add it to alarms.webhookAllowlist to send webhooks there` };
}
