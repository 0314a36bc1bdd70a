/**
 * IPsec: the IKE daemon's peers and SAs (the spec's IpsecStatus and
 * IpsecPeerStatus), derived at the simulated instant from `ipsec.enabled` and
 * `ipsec.peers` (simulator/ipsec.ts). The spec counts these two operations in
 * no section of its table; they are tagged `IPsec`. Pre-shared keys are never
 * part of any answer. An unreachable daemon is not an error (spec Errors 3).
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { unwrap } from "../http/refusal.ts";
import { IpsecPeerStatus, IpsecStatus } from "../schemas/ipsec.ts";

const section = "IPsec";
const MODEL =
  "Driven by the configuration, hot-applied: `ipsec.enabled` false reads every configured peer `DOWN`; enabling it, or loading a new or changed connection (`ipsec.peers`), initiates it: `DOWN` for 1-3 s of simulated time, `CONNECTING` for the IKE exchanges (IKEv2 1-5 s, IKEv1 3-10 s), then `ESTABLISHED` with one installed child SA. " +
  "The IKE and child SAs rekey after 90-100 % of their configured lifetimes (`rekeyInSeconds` counts down with the clock); the child SA's byte and packet counters grow with time and start again at each rekey. " +
  "About one hour in twenty a remote goes silent for 1-10 minutes; after 120 s dead-peer detection deletes the SA and the connection reads `CONNECTING` until the remote answers. " +
  "A connection deleted while its SA is up keeps the SA, listed with `configured` false, until its IKE SA would next rekey, at most 5 minutes; disabling IPsec tears every SA down at once. " +
  "An IPv6 remote needs `ipsec.localAddress` of that family (else it stays `DOWN` and `lastError` says why). " +
  "A daemon that cannot be queried (scenario `fail-daemon` `ipsec`) answers 200 with `reachable` false, every configured peer `UNKNOWN`. Pre-shared keys are never returned.";

export const ipsecRoutes = [
  route({
    method: "GET",
    path: "/api/v1/ipsec",
    section,
    summary: "IPsec status: one row per configured peer, a peer with no SA as `DOWN`",
    description: MODEL,
    fp: true,
    response: { description: "IpsecStatus", schema: IpsecStatus },
    handle: (ctx) => ctx.appliance.stub.ipsec().status(),
  }),
  route({
    method: "GET",
    path: "/api/v1/ipsec/peers/{name}",
    section,
    summary: "One IPsec peer (connection) with its IKE and child SAs",
    description: `404 when no peer of that name is configured and no SA carries it (a deleted connection's SA is found while it lives). ${MODEL}`,
    fp: true,
    params: z.object({ name: z.string().min(1).max(255).meta({ description: "connection name" }) }),
    response: { description: "IpsecPeerStatus", schema: IpsecPeerStatus },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.ipsec().peer(ctx.params.name)).peer,
  }),
];
