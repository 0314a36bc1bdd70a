/**
 * Formatting a session's addresses from the store: a leaf at run time (the model is a type here), so the lifecycle, the
 * session queries and the local sessions share it without an import cycle.
 */
import type { Model } from "./model.ts";

/**
 * The session's IPv6 text: the WAN prefix, else the delegated prefix, else null (a local subscriber's may lie outside
 * every pool).
 */
export function ipv6Text(m: Model, slot: number): string | null {
  const s = m.store;
  const wan = s.wanPool[slot] ?? -1;
  if (wan >= 0) return m.pools[wan]?.text(s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0) ?? null;
  const local = (s.sub[slot] ?? 0) < 0 ? m.locals.ofSub(s.sub[slot] ?? 0) : undefined;
  if (local?.wan.kind === "outside") return local.wan.text;
  const pd = s.pdPool[slot] ?? -1;
  if (pd >= 0) return m.pools[pd]?.text(s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0) ?? null;
  return local?.pd.kind === "outside" ? local.pd.text : null;
}

/** Where the wholesale partners' LNSs number their subscribers: 10.192.0.0/10 (RFC 1918), a /14 per realm. */
const LNS_SPACE = 0x0ac00000;
const LNS_REALM_BITS = 18;

/**
 * The IPv4 address a LAC session's LNS assigned (IPCP, through the tunnel), as the LAC learns it: from the
 * partner's space, not a local pool, stable per subscriber (an LNS's RADIUS usually gives a wholesale
 * subscriber its address). The LAC holds no pool block for it and routes nothing to it.
 */
export function lacLearnedIpv4(realm: number, sub: number): number {
  const room = (1 << LNS_REALM_BITS) - 3;
  return (LNS_SPACE + ((realm & 15) << LNS_REALM_BITS) + 2 + (sub % room)) >>> 0;
}
