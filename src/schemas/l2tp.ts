/** L2TP's wire shapes: the tunnel list row, a tunnel's sessions and the tunnel detail. */
import { z } from "zod";

const int32 = z.int32();
const Tunnel16 = z.int().min(1).max(65535);

export const L2tpTunnel = z
  .object({
    direction: z.enum(["downstream", "upstream"]).meta({ description: "`downstream` = from a LAC, terminated here; `upstream` = to a wholesale LNS" }),
    localTunnelId: Tunnel16.meta({ description: "this end's tunnel id (16-bit, non-zero), the `{id}` of the detail" }),
    // RFC 2661 §5.8: the peer assigns its id in SCCRP, so an unanswered handshake has none yet.
    peerTunnelId: z.int().min(0).max(65535).meta({ description: "the peer's tunnel id; 0 while the peer has not answered the handshake (`wait-ctl`)" }),
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
  lastActivityUtc: z.iso.datetime().nullable().meta({ description: "the last session setup or teardown on the tunnel" }),
  sessionList: z.array(L2tpTunnelSession).meta({ description: "the sessions riding the tunnel, newest first" }),
}).meta({ id: "L2tpTunnelDetail" });
export type L2tpTunnelDetail = z.output<typeof L2tpTunnelDetail>;

export const L2tpTunnelList = z.object({ tunnels: z.array(L2tpTunnel) }).meta({ id: "L2tpTunnelList" });
export type L2tpTunnelList = z.output<typeof L2tpTunnelList>;
