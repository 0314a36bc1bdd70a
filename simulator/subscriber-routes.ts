/**
 * The routes live sessions put in their VRF's table: each session's IPv4
 * address (/32), IPv6 WAN prefix and delegated prefix, on the session's own
 * interface (`ipoe<id>` or `ppp<id>`, as accel-ppp names them). Read straight
 * from the session table's columns, so a table of 128,000 sessions costs one
 * pass and no per-session objects beyond the routes themselves.
 */
import type { Model } from "./model.ts";
import { parsePrefix } from "./prefix.ts";
import type { SubscriberRoute } from "./routing.ts";

/** Every live session's routes in `vrf` (`default` = the global table), of one family or both. */
export function subscriberRoutes(m: Model, vrf: string, family: 4 | 6 | null = null): SubscriberRoute[] {
  const v = m.vrfNames.indexOf(vrf);
  const out: SubscriberRoute[] = [];
  if (v < 0) return out;
  const s = m.store;
  const six = (text: string | null | undefined, iface: string) => {
    const p = text ? parsePrefix(text, false) : null;
    if (p) out.push({ family: p.family, base: p.base, length: p.length, interface: iface });
  };
  for (let i = 0; i < s.liveCount; i++) {
    const slot = s.live[i] ?? -1;
    if (slot < 0 || s.vrf[slot] !== v) continue;
    const iface = `${s.encap[slot] === 0 ? "ipoe" : "ppp"}${s.id[slot] ?? 0}`;
    const addr = s.v4Addr[slot] ?? 0;
    if (family !== 6 && addr !== 0) out.push({ family: 4, base: BigInt(addr), length: 32, interface: iface });
    if (family === 4) continue;
    const local = (s.sub[slot] ?? 0) < 0 ? m.locals.ofSub(s.sub[slot] ?? 0) : undefined;
    const wan = s.wanPool[slot] ?? -1;
    const wanPool = wan >= 0 ? m.pools[wan] : undefined;
    if (wanPool) out.push({ family: 6, base: wanPool.blockBase(s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0), length: wanPool.config.delegationLength, interface: iface });
    else if (local?.wan.kind === "outside") six(local.wan.text, iface);
    const pd = s.pdPool[slot] ?? -1;
    const pdPool = pd >= 0 ? m.pools[pd] : undefined;
    if (pdPool) out.push({ family: 6, base: pdPool.blockBase(s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0), length: pdPool.config.delegationLength, interface: iface });
    else if (local?.pd.kind === "outside") six(local.pd.text, iface);
  }
  return out;
}
