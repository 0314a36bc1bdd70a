/**
 * Diagnostics ping: ICMP echo originated by the forwarding plane, optionally
 * inside a VRF. The outcome follows the state (a live subscriber answers from
 * a few milliseconds away, an unassigned pool address hits its discard route,
 * anything else goes up the default route) and is deterministic: the same
 * seed, simulated clock and request give the same replies. Jitter and loss
 * come from a stream seeded for the one ping, never from the model's own
 * stream, so pinging cannot change what the simulation does next.
 */
import { holderIn, isMartian, poolSubnetIn, type Address } from "./forwarding.ts";
import { PORT_MTU } from "./frame-sizes.ts";
import type { Model } from "./model.ts";
import { ENCAPS } from "./profile.ts";
import { parseAddress } from "./prefix.ts";
import { Random, hashUnit, mix32 } from "./random.ts";
import type { PingResult } from "../src/schemas/diagnostics.ts";

/** A ping as the forwarding plane runs it (the API clamps and defaults the fields). */
export interface PingRequest {
  destination: string;
  /** A VRF name the configuration knows; `default` = the global table. */
  vrf: string;
  count: number;
  /** ICMP payload bytes after the 8-byte echo header. */
  size: number;
  dontFragment: boolean;
  timeoutMs: number;
  /**
   * The appliance's own addresses in the VRF (its gateway and L2TP endpoint addresses), which answer from the control
   * plane.
   */
  local?: readonly string[];
}

export type PingOutcome = PingReply["result"];

/** One probe. */
export type PingReply = PingResult["replies"][number];

/** The route a ping took. */
export type PingRoute = PingResult["route"];

/** RFC 2516 §7: a PPPoE session's MRU is at most 1492 (8 bytes of PPPoE and PPP header in a 1500-byte frame). */
export const PPPOE_MTU = 1492;
/** An LNS-terminated session's path also carries IP, UDP, L2TP and PPP headers through the LAC's tunnel. */
export const L2TP_MTU = 1460;
/** ICMP echo header. */
const ECHO_HEADER_BYTES = 8;
/** Share of subscriber CPEs that ignore echo requests from the network side. */
const SILENT_CPE_SHARE = 0.1;
/** Share of upstream destinations that filter ICMP echo. */
const SILENT_UPSTREAM_SHARE = 0.08;
/** Chance that one upstream probe is lost. */
const UPSTREAM_LOSS = 0.01;

const SALT_SILENT = 0x51;
const SALT_RTT = 0x52;

/** Runs a ping. Refused only when the destination does not parse (the API's schema checks it first). */
export function runPing(
  m: Model,
  req: PingRequest,
): { ok: true; result: PingResult } | { ok: false; reason: "bad-destination" } {
  const destination = parseAddress(req.destination.trim());
  if (!destination) return { ok: false, reason: "bad-destination" };
  const key = addressKey(destination) ^ textKey(req.vrf.toLowerCase());
  const packetBytes = (destination.family === 4 ? 20 : 40) + ECHO_HEADER_BYTES + req.size;
  // One stream per (seed, destination, VRF, instant): repeatable, independent of the simulation's stream.
  const rng = new Random(mix32(m.seed ^ mix32(key) ^ Math.floor(m.nowMs / 1000)));

  let route: PingRoute;
  let sessionId: number | null = null;
  let pathMtu = PORT_MTU;
  // What one probe does before loss and timeout: a round trip (ms), or a fixed outcome.
  let probe: () => PingOutcome | number;
  const own = (req.local ?? [])
    .map((t) => parseAddress(t.trim()))
    .some((a) => a?.family === destination.family && a.value === destination.value);
  if (own) {
    route = "local";
    probe = () => 0.02 + 0.06 * rng.float();
  } else if (isMartian(destination)) {
    route = "martian";
    probe = () => "unreachable";
  } else {
    const holder = holderIn(m, req.vrf, destination);
    if (holder) {
      route = "subscriber";
      const id = m.store.id[holder.slot] ?? 0;
      sessionId = id;
      const encap = ENCAPS[m.store.encap[holder.slot] ?? 0] ?? "ipoe";
      pathMtu = encap === "l2tp" ? L2TP_MTU : encap === "ipoe" ? PORT_MTU : PPPOE_MTU;
      // The access line: 1-6 ms, stable per session; LNS-terminated sessions add the LAC's tunnel.
      const base = 1 + 5 * hashUnit(m.seed, id, SALT_RTT) + (encap === "l2tp" ? 8 : 0);
      const silent = hashUnit(m.seed, id, SALT_SILENT) < SILENT_CPE_SHARE;
      probe = () => (silent ? "timeout" : base + base * 0.25 * rng.float());
    } else if (poolSubnetIn(m, req.vrf, destination)) {
      // An unassigned address of a pool subnet: the subnet's discard route answers host unreachable.
      route = "discard";
      probe = () => "unreachable";
    } else {
      route = "upstream";
      // Stable per destination and VRF: mostly near, a long tail far away.
      const u = hashUnit(m.seed, key, SALT_RTT);
      const base = 3 + 180 * u * u;
      const silent = hashUnit(m.seed, key, SALT_SILENT) < SILENT_UPSTREAM_SHARE;
      probe = () => (silent || rng.chance(UPSTREAM_LOSS) ? "timeout" : base + base * 0.15 * rng.float());
    }
  }

  // Over the path MTU with DF set: every probe leaves the stack on purpose and comes back "would fragment".
  const tooBig = req.dontFragment && packetBytes > pathMtu;
  const replies: PingReply[] = [];
  for (let seq = 1; seq <= req.count; seq++) {
    const outcome = tooBig ? "would-fragment" : probe();
    if (typeof outcome === "number" && outcome <= req.timeoutMs)
      replies.push({ seq, result: "reply", rttMs: Math.round(outcome * 1000) / 1000 });
    else replies.push({ seq, result: typeof outcome === "number" ? "timeout" : outcome, rttMs: null });
  }
  const rtts = replies.flatMap((r) => (r.rttMs === null ? [] : [r.rttMs]));
  const received = rtts.length;
  return {
    ok: true,
    result: {
      destination: req.destination.trim(),
      vrf: req.vrf,
      route,
      sessionId,
      size: req.size,
      packetBytes,
      pathMtu,
      dontFragment: req.dontFragment,
      sent: req.count,
      received,
      lossPercent: Math.round(((req.count - received) / req.count) * 1000) / 10,
      rttMs:
        received === 0
          ? null
          : {
              min: Math.min(...rtts),
              avg: Math.round((rtts.reduce((a, b) => a + b, 0) / received) * 1000) / 1000,
              max: Math.max(...rtts),
            },
      replies,
    },
  };
}

/** A 32-bit key of an address (IPv6 folded). */
function addressKey(a: Address): number {
  let key = a.family === 4 ? 0x4000_0000 : 0x6000_0000;
  for (let v = a.value, i = 0; i < (a.family === 4 ? 1 : 4); i++, v >>= 32n)
    key = mix32(key ^ Number(v & 0xffff_ffffn));
  return key;
}

/** FNV-1a of a string. */
function textKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
