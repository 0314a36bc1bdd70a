/**
 * The local fleet's own wiring (issue #47). The Worker's loopback socket (the
 * relay's way in, and the other processes' of a sharded fleet) answers any
 * local process, so the appliance a request names (`X-BNG-Appliance`) and the
 * client address the relay saw (`X-BNG-Peer-Address`) are honoured only on a
 * request that also carries the launcher's per-launch secret in
 * `X-BNG-Wiring`: the relay sets it (after removing any a client sent), and
 * workerd's public sockets inject it over whatever a client sent. Anything
 * else is a client of the socket it came in on (src/http/client-address.ts).
 * Deployed, nothing is wired: the hostname and CF-Connecting-IP decide.
 */
import type { Env } from "../env.ts";
import { constantTimeEqual } from "../trust/encoding.ts";
import { deploymentOf } from "./deployment.ts";

/** The header that carries the launcher's per-launch secret (BNG_WIRING_SECRET) from its relay and public sockets. */
export const WIRING_HEADER = "x-bng-wiring";

/** Whether a request came through the launcher's own wiring: the local fleet, its secret compared in constant time. */
export function isWired(headers: Headers, env: Env): boolean {
  const secret = env.BNG_WIRING_SECRET;
  if (deploymentOf(env) !== "local" || !secret) return false;
  const sent = headers.get(WIRING_HEADER);
  return sent !== null && constantTimeEqual(sent, secret);
}
