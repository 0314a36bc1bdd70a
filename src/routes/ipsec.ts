/**
 * IPsec: the IKE daemon's peers and SAs (the spec's IpsecStatus and
 * IpsecPeerStatus), derived at the simulated instant from `ipsec.enabled` and
 * `ipsec.peers` (simulator/ipsec.ts). The spec counts these two operations in
 * no section of its table; they are tagged `IPsec`. Pre-shared keys are never
 * part of any answer. An unreachable daemon is not an error (spec Errors 3).
 */
import { inWorker } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { ipsec } from "../schemas/ipsec.ts";

export const ipsecRoutes = [
  inWorker(ipsec.status, (ctx) => ctx.port.ipsec.status()),
  inWorker(ipsec.peer, async (ctx) => unwrap(await ctx.port.ipsec.peer(ctx.params.name)).peer),
];
