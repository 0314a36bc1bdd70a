/**
 * A local fleet spread over several workerd processes (`BNG_SHARDS`, for a
 * fleet whose bring-up outgrows one core: workerd runs an isolate on one
 * thread). Each appliance is served by one process alone: two processes
 * opening one Durable Object's SQLite file would corrupt it. So the fleet
 * proxy reaches a member served by another process over that process's
 * loopback socket, naming the appliance as a listener does; the launcher
 * passes those sockets in `BNG_SHARD_PEERS` (scripts/fleet.ts). Deployed,
 * one Worker serves every appliance and this never applies.
 */
import type { Env } from "../env.ts";
import { deploymentOf } from "./deployment.ts";
import { APPLIANCE_HEADER } from "./listener.ts";
import { peerHeaders, type PeerGet } from "./definition.ts";
import { outboundFetch } from "../config/destinations.ts";
import { LOCAL_WEBHOOK_ALLOWLIST } from "../config/seed.ts";

/** Each bindings object's map, parsed once: every request asks (the addressed appliance must be this process's). */
const parsed = new WeakMap<Env, Record<string, string>>();

/** The loopback origin of the process serving `appliance`, when that is not this one. */
export function otherShard(env: Env, appliance: string): string | null {
  if (deploymentOf(env) !== "local" || !env.BNG_SHARD_PEERS) return null;
  let origins = parsed.get(env);
  if (origins === undefined) parsed.set(env, (origins = JSON.parse(env.BNG_SHARD_PEERS) as Record<string, string>));
  return Object.hasOwn(origins, appliance) ? origins[appliance]! : null;
}

/**
 * A fleet proxy's GET to an appliance of another process: only the path,
 * query and the relay's own headers (the peer credential, Accept) go, with
 * the appliance named as the listener would, and the relay's deadline; no
 * client address, as for an in-process fleet call. The launcher's origin
 * goes through the destination policy like any peer, with the allowance the
 * local fleet seeds (loopback), so the wiring can only ever reach this host.
 */
export function fetchFromShard(origin: string, appliance: string, get: PeerGet, timeoutMs: number): Promise<Response> {
  const url = new URL(get.target);
  const headers = { ...peerHeaders(get), [APPLIANCE_HEADER]: appliance };
  return outboundFetch(`${origin}${url.pathname}${url.search}`, "peer", LOCAL_WEBHOOK_ALLOWLIST, { method: "GET", headers, signal: AbortSignal.timeout(timeoutMs) });
}
