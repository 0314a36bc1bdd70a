/** L2TP: the tunnels carrying the appliance's LAC (upstream) and LNS (downstream) sessions. */
import { z } from "zod";
import { route } from "../http/route.ts";
import { L2tpTunnelDetail, L2tpTunnelList } from "../schemas/l2tp.ts";
import { unwrap } from "../http/refusal.ts";

const TunnelId = z.object({
  id: z.coerce.number().int().min(0).max(2 ** 31 - 1).meta({ description: "local tunnel id (integer)" }),
});

const LIFECYCLE =
  "Tunnels open on demand: the first session for a peer opens one (SCCRQ/SCCRP/SCCCN: `wait-ctl`, completed within the same 10-second step when the peer answers) and it is `established` while it carries sessions. " +
  "A peer that does not answer (twin scenario `fail-l2tp-peer`) leaves the handshake in `wait-ctl` (no sessions, `uptimeSeconds` null, upstream `peerTunnelId` 0) while SCCRQ is retransmitted; its sessions fail setup meanwhile, and after 31 s (RFC 2661 §5.8's schedule) the tunnel is `closed` with reason `no-response`. " +
  "With its last session it goes `idle`; a new session brings it back to `established`; after `l2tp.idleTimeoutSeconds` (profile, default 300) without a session it is `closed` (StopCCN, logged as `l2tp.tunnel.down`), listed for `l2tp.closedRetentionSeconds` (default 60), then gone (404). " +
  "A peer with more than `l2tp.maxSessionsPerTunnel` (default 2000) sessions gets a further tunnel. Every `pppoe-lac` session rides exactly one upstream tunnel and every `l2tp` session one downstream tunnel, so each direction's `sessions` sum to the sessions summary's `byEncap`. " +
  "Peers are the profile's (`l2tp.lnsPeers`, `l2tp.lacPeers`, per realm); a realm naming none gets two derived ones (`lns-1.<realm>`, `lac-1.<realm>`, …); a subscriber always returns to the same peer. A reseed (reboot) starts with no tunnels.";

export const l2tpRoutes = [
  route({
    method: "GET",
    path: "/api/v1/l2tp/tunnels",
    section: "L2TP",
    summary: "L2TP tunnels, downstream first, then by local tunnel id",
    description: LIFECYCLE,
    fp: true,
    response: { description: "the tunnels", schema: L2tpTunnelList },
    handle: (ctx) => ctx.appliance.stub.dataPlane().l2tpTunnels(),
  }),
  route({
    method: "GET",
    path: "/api/v1/l2tp/tunnels/{id}",
    section: "L2TP",
    summary: "One L2TP tunnel in detail, with the sessions it carries",
    description: "404 for an unknown (or forgotten closed) tunnel; 400 for an id that is not a non-negative integer.",
    fp: true,
    params: TunnelId,
    response: { description: "L2tpTunnelDetail", schema: L2tpTunnelDetail },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().l2tpTunnel(ctx.params.id)).tunnel,
  }),
];
