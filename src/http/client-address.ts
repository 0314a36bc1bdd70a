/**
 * Whose address a request came from, for lockouts, rate limits, sessions and
 * the audit log. The answer depends on what sits in front of the Worker:
 *
 * - Deployed behind Cloudflare, the edge sets `CF-Connecting-IP` and
 *   overwrites any value a client sent, so it is the client's address.
 * - The local fleet (`npm start`) runs the Worker behind the launcher's own
 *   listeners (scripts/listeners.ts). There nothing overwrites
 *   `CF-Connecting-IP`, so a client could claim any address; instead the
 *   listener, which holds the TCP connection, passes its peer address in
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

/** The client's address, or `unknown` when the trusted header is missing (an in-process fleet call). */
export function clientAddress(headers: Headers, deployment: Deployment): string {
  const value = deployment === "local" ? headers.get(PEER_ADDRESS_HEADER) : headers.get("cf-connecting-ip");
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
