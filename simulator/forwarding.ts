/**
 * The forwarding plane's lookups, shared by the diagnostics (inject trace and
 * ping): which live session holds an address, which pool subnet covers an
 * unassigned one, and which addresses are never forwarded. Read-only over the
 * model; nothing here draws from the model's random stream.
 */
import type { Model } from "./model.ts";
import { ENCAP_PPPOE_LAC } from "./subscribers.ts";
import { parsePrefix, prefixHas, type Family, type Prefix } from "./prefix.ts";

/** An address as the lookups take it. */
export interface Address {
  family: Family;
  value: bigint;
}

/**
 * A live session holding an address: its slot and the length of the block that holds it (32, the WAN /64, the delegated
 * prefix).
 */
export interface Holder {
  slot: number;
  length: number;
}

/**
 * Addresses a router never forwards (RFC 1812 §5.3.7 martians, RFC 6890
 * special-purpose space, RFC 4291 §2.4-2.5 for IPv6): this network,
 * loopback, link-local, multicast, the reserved class E and broadcast.
 */
const MARTIANS: readonly Prefix[] = [
  "0.0.0.0/8",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "fe80::/10",
  "ff00::/8",
].map((t) => parsePrefix(t) as Prefix);

/** True for an address no data plane forwards (as a source or as a destination). */
export function isMartian(a: Address): boolean {
  return MARTIANS.some((p) => prefixHas(p, a.family, a.value));
}

/**
 * The IPv6 blocks a slot holds (WAN and delegated prefix), from its pools or, for a local subscriber, its
 * configuration.
 */
function ipv6Blocks(m: Model, slot: number): Prefix[] {
  const s = m.store;
  const out: Prefix[] = [];
  const fromPool = (poolIdx: number, subnetIdx: number, ordinal: number) => {
    const pool = poolIdx >= 0 ? m.pools[poolIdx] : undefined;
    const subnet = pool?.subnets[subnetIdx];
    if (!pool || !subnet) return;
    out.push({
      family: 6,
      base: subnet.prefix.base + (BigInt(subnet.blockOf(ordinal)) << BigInt(subnet.shift)),
      length: pool.config.delegationLength,
    });
  };
  fromPool(s.wanPool[slot] ?? -1, s.wanSubnet[slot] ?? 0, s.wanOrd[slot] ?? 0);
  fromPool(s.pdPool[slot] ?? -1, s.pdSubnet[slot] ?? 0, s.pdOrd[slot] ?? 0);
  const sub = s.sub[slot] ?? 0;
  const local = sub < 0 ? m.locals.ofSub(sub) : undefined;
  for (const hold of local ? [local.wan, local.pd] : []) {
    if (hold.kind !== "outside") continue;
    const prefix = parsePrefix(hold.text, false);
    if (prefix?.family === 6) out.push(prefix);
  }
  return out;
}

/**
 * Every live session holding an address, lowest session id first: its IPv4
 * address, or an IPv6 address inside its WAN or delegated prefix. Private
 * IPv4 may be reused in different VRFs, so there can be several.
 */
export function holdersOf(m: Model, a: Address): Holder[] {
  const s = m.store;
  const out: Holder[] = [];
  if (a.family === 4) {
    const v4 = Number(a.value);
    for (let i = 0; i < s.liveCount; i++) {
      const slot = s.live[i] ?? 0;
      if (s.v4Addr[slot] === v4) out.push({ slot, length: 32 });
    }
  } else {
    for (let i = 0; i < s.liveCount; i++) {
      const slot = s.live[i] ?? 0;
      if ((s.wanPool[slot] ?? -1) < 0 && (s.pdPool[slot] ?? -1) < 0 && (s.sub[slot] ?? 0) >= 0) continue;
      const block = ipv6Blocks(m, slot).find((p) => prefixHas(p, 6, a.value));
      if (block) out.push({ slot, length: block.length });
    }
  }
  return out.sort((x, y) => (s.id[x.slot] ?? 0) - (s.id[y.slot] ?? 0));
}

/** The VRF name of a live slot (`default` = the global table). */
export function vrfOf(m: Model, slot: number): string {
  return m.vrfNames[m.store.vrf[slot] ?? 0] ?? "default";
}

/**
 * The session a packet to an address inside a VRF (case-insensitive name) is routed to, or null. Not a LAC
 * session: a LAC switches its PPP into the tunnel and has no route to the address the LNS gave it.
 */
export function holderIn(m: Model, vrf: string, a: Address): Holder | null {
  const name = vrf.toLowerCase();
  return (
    holdersOf(m, a).find((h) => m.store.encap[h.slot] !== ENCAP_PPPOE_LAC && vrfOf(m, h.slot).toLowerCase() === name) ??
    null
  );
}

/**
 * The pool subnet of a VRF covering an address no session holds: the BNG
 * installs each pool subnet as a discard route, so traffic to an unassigned
 * address dies here instead of looping toward the default route.
 */
export function poolSubnetIn(m: Model, vrf: string, a: Address): Prefix | null {
  const name = vrf.toLowerCase();
  for (const pool of m.pools) {
    if ((pool.config.vrf ?? "default").toLowerCase() !== name) continue;
    for (const subnet of pool.subnets) if (prefixHas(subnet.prefix, a.family, a.value)) return subnet.prefix;
  }
  return null;
}

/**
 * The data-plane port id of a slot's access port, or -1 for an LNS-terminated session (it arrives over an L2TP tunnel).
 */
export function portIdOf(m: Model, slot: number): number {
  const port = m.store.port[slot] ?? -1;
  return port >= 0 ? (m.profile.ports[port]?.portId ?? -1) : -1;
}
