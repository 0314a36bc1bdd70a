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
 * Which of the two applies is `deploymentOf` (src/fleet/deployment.ts): it
 * fails towards the Cloudflare rule, never towards a header the client
 * controls.
 */
import type { Deployment } from "../fleet/deployment.ts";

/** The header the local launcher's listeners set to the connection's peer address (and strip from clients). */
export const PEER_ADDRESS_HEADER = "x-bng-peer-address";

/**
 * The header Miniflare's own sockets read `request.cf` from (its `MF-CF-Blob`), the Worker's socket behind the
 * relay among them: the relay strips it, or a client could name its own `cf.clientIp`.
 */
export const CF_BLOB_HEADER = "mf-cf-blob";

/** The client's address, or `unknown` when nothing trusted names it (an in-process fleet call). */
export function clientAddress(request: Request, deployment: Deployment): string {
  const value = deployment === "local" ? (socketPeer(request) ?? request.headers.get(PEER_ADDRESS_HEADER)) : request.headers.get("cf-connecting-ip");
  const trimmed = value?.trim() ?? "";
  // Only the characters of an IPv4 or IPv6 address: the value reaches the log and the lockout tables.
  return /^[0-9A-Fa-f:.]{2,45}$/.test(trimmed) ? trimmed : "unknown";
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
