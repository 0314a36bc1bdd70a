/**
 * Whose address a request came from, for lockouts, rate limits, sessions and
 * the audit log. The answer depends on what sits in front of the Worker:
 *
 * - Deployed behind Cloudflare, the edge sets `CF-Connecting-IP` and
 *   overwrites any value a client sent, so it is the client's address.
 * - The local fleet (`npm start`): nothing overwrites `CF-Connecting-IP`, so
 *   a client could claim any address. On an appliance's public socket served
 *   by workerd itself (launcher/public-sockets.ts), workerd puts the
 *   connection's peer in `request.cf.clientIp` (`address:port`), which no
 *   header can set there; behind the launcher's relay (launcher/listeners.ts),
 *   which holds the TCP connection, the relay passes its peer address in
 *   `X-BNG-Peer-Address` after removing whatever the client sent under that
 *   name.
 *
 * Both are honoured only on a request the launcher's wiring sent (its
 * per-launch secret, src/fleet/wiring.ts): any other request reached the
 * Worker's loopback socket from a process of this machine, whatever address it
 * claims (a forged one would dodge the per-address lockout), so its address is
 * the loopback's.
 *
 * Which of the two applies is `deploymentOf` (src/fleet/deployment.ts): it
 * fails towards the Cloudflare rule, never towards a header the client
 * controls. An address is parsed as one and written in its canonical form
 * (RFC 5952 for IPv6, an IPv4-mapped one as IPv4); anything else is `unknown`.
 */
import type { Deployment } from "../fleet/deployment.ts";
import { formatAddress, parseAddress } from "../../simulator/prefix.ts";

/** The header the local launcher's listeners set to the connection's peer address (and strip from clients). */
export const PEER_ADDRESS_HEADER = "x-bng-peer-address";

/**
 * The header Miniflare's own sockets read `request.cf` from (its `MF-CF-Blob`), the Worker's socket behind the
 * relay among them: the relay strips it, or a client could name its own `cf.clientIp`.
 */
export const CF_BLOB_HEADER = "mf-cf-blob";

/** The address of a client of the Worker's loopback socket that the launcher's wiring did not send. */
export const LOOPBACK_CLIENT = "127.0.0.1";

/**
 * The client's address, or `unknown` when nothing trusted names it (an in-process fleet call). `wired`: the
 * request carries the local launcher's secret (src/fleet/wiring.ts).
 */
export function clientAddress(request: Request, deployment: Deployment, wired: boolean): string {
  if (deployment === "local" && !wired) return LOOPBACK_CLIENT;
  const value =
    deployment === "local"
      ? (socketPeer(request) ?? request.headers.get(PEER_ADDRESS_HEADER))
      : request.headers.get("cf-connecting-ip");
  return canonicalAddress(value?.trim() ?? "");
}

/**
 * An address as the log and the lockout tables keep it: parsed (so `198.51.100.116912` or `1.2.3.4.5` is no
 * address), IPv4-mapped IPv6 as IPv4, IPv6 in RFC 5952's form; `unknown` for anything else.
 */
export function canonicalAddress(text: string): string {
  const address = parseAddress(text);
  if (address === null) return "unknown";
  // ::ffff:0:0/96 in any of its spellings is the IPv4 address it carries.
  if (address.family === 6 && address.value >> 32n === 0xffffn) return formatAddress(4, address.value & 0xffffffffn);
  return formatAddress(address.family, address.value);
}

/** A socket's peer address as the API shows it: IPv4-mapped IPv6 (`::ffff:a.b.c.d`) written as plain IPv4. */
export function normalisePeerAddress(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The peer workerd saw on the socket the request came in on (`127.0.0.1:50312`, `[::1]:50312`), without its port. */
function socketPeer(request: Request): string | null {
  const clientIp = (request.cf as { clientIp?: unknown } | undefined)?.clientIp;
  if (typeof clientIp !== "string") return null;
  const match = /^\[([^\]]+)\]:\d+$/.exec(clientIp) ?? /^([^:]+):\d+$/.exec(clientIp);
  return normalisePeerAddress(match ? match[1] : clientIp);
}
