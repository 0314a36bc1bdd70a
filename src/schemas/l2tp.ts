/**
 * L2TP, the wire contract: the tunnel list row, a tunnel's sessions and the tunnel detail, and the section's
 * operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";

const int32 = z.int32();
const Tunnel16 = z.int().min(1).max(65535);

export const L2tpTunnel = z
  .object({
    direction: z
      .enum(["downstream", "upstream"])
      .meta({ description: "`downstream` = from a LAC, terminated here; `upstream` = to a wholesale LNS" }),
    localTunnelId: Tunnel16.meta({ description: "this end's tunnel id (16-bit, non-zero), the `{id}` of the detail" }),
    // RFC 2661 §5.8: the peer assigns its id in SCCRP, so an unanswered handshake has none yet.
    peerTunnelId: z
      .int()
      .min(0)
      .max(65535)
      .meta({ description: "the peer's tunnel id; 0 while the peer has not answered the handshake (`wait-ctl`)" }),
    peerIp: z.string().nullable(),
    peerHostname: z.string().nullable().meta({ description: "Host Name AVP" }),
    peerVendor: z.string().nullable().meta({ description: "Vendor Name AVP" }),
    state: z.enum(["idle", "wait-ctl", "established", "closed"]),
    sessions: int32.meta({ description: "live sessions riding the tunnel" }),
  })
  .meta({ id: "L2tpTunnel" });
export type L2tpTunnel = z.output<typeof L2tpTunnel>;

export const L2tpTunnelSession = z
  .object({
    id: z.int().min(0).meta({ description: "the session's id in the sessions list" }),
    username: z.string(),
    encap: z.enum(["pppoe-lac", "l2tp"]),
    ipv4: z.string(),
    ipv6: z.string().meta({ description: "as the session list shows it; empty when the session has no IPv6" }),
    localSessionId: Tunnel16.meta({ description: "this end's L2TP session id, unique within the tunnel" }),
    peerSessionId: Tunnel16,
    uptimeSeconds: z.number(),
  })
  .meta({ id: "L2tpTunnelSession" });
export type L2tpTunnelSession = z.output<typeof L2tpTunnelSession>;

export const L2tpTunnelDetail = L2tpTunnel.extend({
  found: z.literal(true),
  peerPort: int32.nullable(),
  localEndpoint: z.string().nullable().meta({ description: "this end's `address:port`" }),
  vrfName: z.string().nullable().meta({ description: "VRF the tunnel runs in; null = global table" }),
  createdUtc: z.iso.datetime().nullable(),
  uptimeSeconds: z.number().nullable().meta({ description: "since the tunnel was established; null once closed" }),
  lastActivityUtc: z.iso
    .datetime()
    .nullable()
    .meta({ description: "the last session setup or teardown on the tunnel" }),
  sessionList: z.array(L2tpTunnelSession).meta({ description: "the sessions riding the tunnel, newest first" }),
}).meta({ id: "L2tpTunnelDetail" });
export type L2tpTunnelDetail = z.output<typeof L2tpTunnelDetail>;

export const L2tpTunnelList = z.object({ tunnels: z.array(L2tpTunnel) }).meta({ id: "L2tpTunnelList" });
export type L2tpTunnelList = z.output<typeof L2tpTunnelList>;

const TunnelId = z.object({
  id: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .meta({ description: "local tunnel id (integer)" }),
});

const LIFECYCLE =
  "Tunnels open on demand: the first session for a peer opens one " +
  "(SCCRQ/SCCRP/SCCCN: `wait-ctl`, completed within the same 10-second step when " +
  "the peer answers) and it is `established` while it carries sessions. " +
  ("A peer that does not answer (twin scenario `fail-l2tp-peer`) leaves the " +
    "handshake in `wait-ctl` (no sessions, `uptimeSeconds` null, upstream " +
    "`peerTunnelId` 0) while SCCRQ is retransmitted; its sessions fail setup " +
    "meanwhile, and after 31 s (RFC 2661 §5.8's schedule) the tunnel is `closed` " +
    "with reason `no-response`. ") +
  ("With its last session it goes `idle`; a new session brings it back to " +
    "`established`; after `l2tp.idleTimeoutSeconds` (profile, default 300) without a " +
    "session it is `closed` (StopCCN, logged as `l2tp.tunnel.down`), listed for " +
    "`l2tp.closedRetentionSeconds` (default 60), then gone (404). ") +
  ("A peer with more than `l2tp.maxSessionsPerTunnel` (default 2000) sessions gets " +
    "a further tunnel. Every `pppoe-lac` session rides exactly one upstream tunnel " +
    "and every `l2tp` session one downstream tunnel, so each direction's `sessions` " +
    "sum to the sessions summary's `byEncap`. ") +
  ("Peers are the profile's (`l2tp.lnsPeers`, `l2tp.lacPeers`, per realm); a realm " +
    "naming none gets two derived ones (`lns-1.<realm>`, `lac-1.<realm>`, …); a " +
    "subscriber always returns to the same peer. A reseed (reboot) starts with no tunnels.");

/** The section's operations. */
export const l2tp = {
  tunnels: operation({
    method: "GET",
    path: "/api/v1/l2tp/tunnels",
    section: "L2TP",
    summary: "L2TP tunnels, downstream first, then by local tunnel id",
    description: LIFECYCLE,
    fp: true,
    response: { description: "the tunnels", schema: L2tpTunnelList },
    examples: {
      response: {
        tunnels: [
          {
            direction: "downstream",
            localTunnelId: 11374,
            peerTunnelId: 46933,
            peerIp: "203.0.113.12",
            peerHostname: "lac-1.wholesale-b.example",
            peerVendor: "Juniper Networks, Inc.",
            state: "established",
            sessions: 20,
          },
          {
            direction: "downstream",
            localTunnelId: 11376,
            peerTunnelId: 9882,
            peerIp: "203.0.113.10",
            peerHostname: "lac-1.wholesale-a.example",
            peerVendor: "Cisco Systems, Inc.",
            state: "established",
            sessions: 25,
          },
        ],
      },
    },
  }),
  tunnel: operation({
    method: "GET",
    path: "/api/v1/l2tp/tunnels/{id}",
    section: "L2TP",
    summary: "One L2TP tunnel in detail, with the sessions it carries",
    description: "404 for an unknown (or forgotten closed) tunnel; 400 for an id that is not a non-negative integer.",
    fp: true,
    params: TunnelId,
    response: { description: "L2tpTunnelDetail", schema: L2tpTunnelDetail },
    errors: [404],
    examples: {
      params: { id: 11374 },
      response: {
        direction: "downstream",
        localTunnelId: 11374,
        peerTunnelId: 46933,
        peerIp: "203.0.113.12",
        peerHostname: "lac-1.wholesale-b.example",
        peerVendor: "Juniper Networks, Inc.",
        state: "established",
        sessions: 20,
        found: true,
        peerPort: 1701,
        localEndpoint: "192.0.2.1:1701",
        vrfName: null,
        createdUtc: "2026-11-26T20:35:00.000Z",
        uptimeSeconds: 10,
        lastActivityUtc: "2026-11-26T20:35:00.000Z",
        sessionList: [
          {
            id: 1956,
            username: "sub0001140@wholesale-b.example",
            encap: "l2tp",
            ipv4: "10.128.1.32",
            ipv6: "",
            localSessionId: 27148,
            peerSessionId: 35736,
            uptimeSeconds: 10,
          },
          {
            id: 1910,
            username: "sub0000244@wholesale-b.example",
            encap: "l2tp",
            ipv4: "10.128.1.23",
            ipv6: "",
            localSessionId: 27147,
            peerSessionId: 27817,
            uptimeSeconds: 10,
          },
        ],
      },
      errors: { 404: "no L2TP tunnel with local tunnel id 1137411374374" },
    },
  }),
};
