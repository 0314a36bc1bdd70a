/**
 * The one way the appliance opens a TCP socket (syslog receivers, alarm sinks) (`connect()` of
 * `cloudflare:sockets`, the same in workerd locally and deployed): the host
 * judged first by the outbound policy (src/config/destinations.ts), nothing
 * opened when it is refused. TLS is the runtime's: certificates are always
 * verified against the public roots (plus, locally, the CAs the launcher's
 * NODE_EXTRA_CA_CERTS names, which Miniflare hands to workerd), never off.
 */
import { connect } from "cloudflare:sockets";
import { destinationVerdict, hostVerdict, judgeDestination, socketTarget } from "../src/config/destinations.ts";
import type { Purpose } from "../src/config/destinations.ts";

/**
 * Opens a socket to `host`:`port` for `purpose`, TLS from the first byte when `tls` (plaintext only to an allowlisted
 * internal address); throws DestinationRefused when the policy says no, to the host as written or to what it
 * resolves to.
 */
export async function outboundConnect(
  host: string,
  port: number,
  purpose: Purpose,
  allowlist: readonly string[],
  tls: boolean,
): Promise<Socket> {
  await judgeDestination(hostVerdict(host, purpose, allowlist, !tls), host, purpose, allowlist);
  return connect({ hostname: host, port }, { secureTransport: tls ? "on" : "off", allowHalfOpen: false });
}

/**
 * Opens a socket to where a sink's URL points (SMTP, MQTT), the URL judged
 * as a whole first (its scheme decides whether plaintext may be used), and
 * the connection made to the host exactly as judged, at the URL's port or
 * `defaultPort`. STARTTLS upgrades it later (`secureTransport: "starttls"`).
 */
export async function outboundConnectUrl(
  url: string,
  purpose: Purpose,
  allowlist: readonly string[],
  defaultPort: number,
  secureTransport: "on" | "off" | "starttls",
): Promise<Socket> {
  const verdict = destinationVerdict(url, purpose, allowlist);
  const target = verdict.ok ? socketTarget(url, defaultPort) : { hostname: "", port: 0 };
  await judgeDestination(verdict, target.hostname, purpose, allowlist);
  return connect(target, { secureTransport, allowHalfOpen: false });
}
