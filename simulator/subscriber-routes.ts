/**
 * The routes live sessions put in their VRF's table: each session's IPv4
 * address (/32), IPv6 WAN prefix and delegated prefix, on the session's own
 * interface (`ipoe<id>` or `ppp<id>`, as accel-ppp names them). Read from
 * the pools' holder tables and the session table's columns, so a table of
 * 128,000 sessions costs one pass and no per-session objects beyond the
 * routes themselves.
 */
import type { Model } from "./model.ts";
import { parsePrefix } from "./prefix.ts";
import type { SubscriberRoute } from "./routing.ts";

/**
 * Every live session's routes in `vrf` (`default` = the global table), of
 * one family or both, in table order but for local subscribers' (appended):
 * read from the pools' holder tables, subnet by subnet in address order, so
 * a sort (rib.ts SortedSubscriberRoutes, a merge sort) finds the runs
 * already in order. The appliance pages subscriber-route-index.ts instead,
 * which reads the same tables without building these objects.
 */
export function subscriberRoutes(m: Model, vrf: string, family: 4 | 6 | null = null): SubscriberRoute[] {
  const v = m.vrfNames.indexOf(vrf);
  const out: SubscriberRoute[] = [];
  if (v < 0) return out;
  const s = m.store;
  const iface = (slot: number) => `${s.encap[slot] === 0 ? "ipoe" : "ppp"}${s.id[slot] ?? 0}`;
  // Every pool, not only the VRF's: a session's own VRF decides, as it did when each session was read in turn.
  const subnets = m.pools
    .filter((pool) => (pool.config.family === "ipv4" ? family !== 6 : family !== 4))
    .flatMap((pool) =>
      pool.subnets.map((_, si) => ({
        pool,
        si,
        family: pool.config.family === "ipv4" ? 4 : 6,
        base: pool.subnetPrefix(si).base,
      })),
    )
    .sort((a, b) => a.family - b.family || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
  for (const { pool, si } of subnets) {
    const kind = pool.config.family;
    pool.committedBetween(si, [0, Number.MAX_SAFE_INTEGER], (slot) => {
      if (s.alive[slot] !== 1 || s.vrf[slot] !== v || (s.sub[slot] ?? 0) < 0) return;
      if (kind === "ipv4") {
        if (s.v4Pool[slot] === pool.index && (s.v4Addr[slot] ?? 0) !== 0)
          out.push({ family: 4, base: BigInt(s.v4Addr[slot] ?? 0), length: 32, interface: iface(slot) });
        return;
      }
      const own = kind === "ipv6-wan" ? s.wanPool[slot] === pool.index : s.pdPool[slot] === pool.index;
      if (!own) return;
      const [subnet, ordinal] =
        kind === "ipv6-wan"
          ? [s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0]
          : [s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0];
      out.push({
        family: 6,
        base: pool.blockBase(subnet, ordinal),
        length: pool.config.delegationLength,
        interface: iface(slot),
      });
    });
  }
  // Configured local subscribers hold their pool blocks as static (no slot in the holder tables), or lie outside the
  // pools.
  for (const e of m.locals.entries) {
    const slot = e.slot;
    if (slot < 0 || s.alive[slot] !== 1 || s.vrf[slot] !== v) continue;
    localRoutes(m, slot, family, iface(slot), out);
  }
  return out;
}

/** A local subscriber's session's routes, read from its columns and configuration. */
export function localRoutes(m: Model, slot: number, family: 4 | 6 | null, iface: string, out: SubscriberRoute[]): void {
  const s = m.store;
  const six = (text: string | null | undefined) => {
    const p = text ? parsePrefix(text, false) : null;
    if (p) out.push({ family: p.family, base: p.base, length: p.length, interface: iface });
  };
  const addr = s.v4Addr[slot] ?? 0;
  if (family !== 6 && addr !== 0) out.push({ family: 4, base: BigInt(addr), length: 32, interface: iface });
  if (family === 4) return;
  const local = m.locals.ofSub(s.sub[slot] ?? 0);
  const wan = s.wanPool[slot] ?? -1;
  const wanPool = wan >= 0 ? m.pools[wan] : undefined;
  if (wanPool)
    out.push({
      family: 6,
      base: wanPool.blockBase(s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0),
      length: wanPool.config.delegationLength,
      interface: iface,
    });
  else if (local?.wan.kind === "outside") six(local.wan.text);
  const pd = s.pdPool[slot] ?? -1;
  const pdPool = pd >= 0 ? m.pools[pd] : undefined;
  if (pdPool)
    out.push({
      family: 6,
      base: pdPool.blockBase(s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0),
      length: pdPool.config.delegationLength,
      interface: iface,
    });
  else if (local?.pd.kind === "outside") six(local.pd.text);
}
