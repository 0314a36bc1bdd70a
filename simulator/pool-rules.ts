/**
 * The rules a set of address pools obeys, in one place for the three that
 * judge pools: the profile schema (shipped pools), the simulation's pool
 * hot-apply (`Gateway.setPools`) and the configuration validator
 * (`addressPools`). Each problem names its pool, the field and, for lists,
 * the element at fault, so every caller can point at it in its own terms.
 */
import { isPrivateIpv4, parsePrefix, prefixContains, prefixesOverlap, prefixSpan, type Prefix } from "./prefix.ts";

/** Largest static-allocation offset, in blocks from a subnet's start (keeps the per-subnet block table small). */
export const MAX_STATIC_OFFSET = 1 << 20;
/** Pools one appliance runs: the session table's pool columns are int16. */
export const MAX_POOLS = 1024;
/** Subnets one pool holds: the session table's subnet columns are one byte. */
export const MAX_SUBNETS = 256;
/** Blocks one subnet holds, as a power of two (ordinals are JavaScript integers, holders materialised lazily). */
export const MAX_BLOCK_BITS = 40;

export type PoolFamily = "ipv4" | "ipv6-wan" | "ipv6-pd";

/** A pool as configuration sets it: the spec's AddressPool without its live counts. */
export interface PoolSettings {
  name: string;
  family: PoolFamily;
  /** null = the default table. */
  vrf: string | null;
  delegationLength: number;
  description: string;
  /** In preference order. */
  subnets: { prefix: string; announce: boolean }[];
  exclude: string[];
}

/** A block held for a named user from the start (the profile's statics, e.g. a NOC probe). */
export interface StaticAllocation {
  prefix: string;
  username: string;
}

/** A pool as the simulation runs it: settings plus the profile's static allocations inside it. */
export type PoolDefinition = PoolSettings & { static: StaticAllocation[] };

/** The block length that suits a family: 32 for IPv4, 64 for IPv6 WAN, 48-64 for a delegated prefix. */
export function delegationFits(family: PoolFamily, length: number): boolean {
  if (family === "ipv4") return length === 32;
  if (family === "ipv6-wan") return length === 64;
  return length >= 48 && length <= 64;
}

/** The address family of a pool family. */
export const familyOf = (family: PoolFamily): 4 | 6 => (family === "ipv4" ? 4 : 6);

/** One broken rule: the pool (index), its field, the list element when the field is a list, and why. */
export interface PoolIssue {
  pool: number;
  field: "name" | "delegationLength" | "subnets" | "announce" | "exclude" | "static";
  element?: number;
  /**
   * `cgn`: the CGN rule (translated pools hold private space, never announced), which callers may attribute to the CGN
   * side.
   */
  rule: "shape" | "overlap" | "cgn";
  message: string;
  /** An overlap between two pools, said from the other pool's side: a caller may blame the one that changed. */
  counterpart?: { pool: number; element: number; message: string };
}

/**
 * Every broken rule of `pools`. `cgnVrfs`: VRFs whose IPv4 sessions on-box
 * CGN translates (their IPv4 pools hold RFC 1918 / RFC 6598 space and are
 * never announced). Statics are checked when given.
 */
export function poolIssues(
  pools: readonly (PoolSettings & { static?: readonly StaticAllocation[] })[],
  cgnVrfs: ReadonlySet<string>,
): PoolIssue[] {
  const issues: PoolIssue[] = [];
  const issue = (
    pool: number,
    field: PoolIssue["field"],
    element: number | undefined,
    message: string,
    rule: PoolIssue["rule"] = "shape",
  ) => issues.push({ pool, field, ...(element === undefined ? {} : { element }), rule, message });
  if (pools.length > MAX_POOLS) issue(MAX_POOLS, "name", undefined, `at most ${MAX_POOLS} address pools`);
  const names = new Set<string>();
  const parsed: { pool: number; vrf: string; prefix: Prefix; text: string }[] = [];
  pools.forEach((pool, i) => {
    if (names.has(pool.name)) issue(i, "name", undefined, `duplicate pool name '${pool.name}'`);
    names.add(pool.name);
    const vrf = pool.vrf ?? "default";
    const family = familyOf(pool.family);
    const fits = delegationFits(pool.family, pool.delegationLength);
    if (!fits)
      issue(
        i,
        "delegationLength",
        undefined,
        `does not suit family ${pool.family} (ipv4: 32, ipv6-wan: 64, ipv6-pd: 48-64)`,
      );
    if (pool.subnets.length === 0) issue(i, "subnets", undefined, "at least one subnet");
    if (pool.subnets.length > MAX_SUBNETS) issue(i, "subnets", MAX_SUBNETS, `at most ${MAX_SUBNETS} subnets per pool`);
    const mine: Prefix[] = [];
    pool.subnets.forEach((s, j) => {
      const prefix = parsePrefix(s.prefix);
      if (prefix === null) return issue(i, "subnets", j, `${s.prefix} is not a prefix with its host bits zero`);
      if (prefix.family !== family) return issue(i, "subnets", j, `${s.prefix} is not an IPv${family} prefix`);
      if (fits && prefix.length > pool.delegationLength)
        return issue(
          i,
          "subnets",
          j,
          `${s.prefix} is longer than delegationLength (/${pool.delegationLength}): a subnet holds whole blocks`,
        );
      if (fits && pool.delegationLength - prefix.length > MAX_BLOCK_BITS)
        return issue(
          i,
          "subnets",
          j,
          `${s.prefix} holds more than 2^${MAX_BLOCK_BITS} blocks of /${pool.delegationLength}`,
        );
      const clash = mine.findIndex((q) => prefixesOverlap(q, prefix));
      if (clash >= 0)
        return issue(
          i,
          "subnets",
          j,
          `${s.prefix} overlaps ${pool.subnets[clash]?.prefix}, another subnet of the pool`,
          "overlap",
        );
      mine.push(prefix);
      parsed.push({ pool: i, vrf, prefix, text: s.prefix });
      if (pool.family === "ipv4" && cgnVrfs.has(vrf)) {
        if (!isPrivateIpv4(prefix))
          issue(i, "subnets", j, `${s.prefix}: a CGN-translated pool holds RFC 1918 / RFC 6598 space`, "cgn");
        if (s.announce) issue(i, "announce", j, `${s.prefix}: a CGN-translated pool is never announced`, "cgn");
      }
    });
    pool.exclude.forEach((e, j) => {
      const prefix = parsePrefix(e);
      if (prefix === null) return issue(i, "exclude", j, `${e} is not an address or a prefix with its host bits zero`);
      if (prefix.family !== family) return issue(i, "exclude", j, `${e} is not an IPv${family} address or prefix`);
      if (mine.length > 0 && !mine.some((s) => prefixContains(s, prefix)))
        issue(i, "exclude", j, `${e} lies outside every subnet of the pool`);
    });
    (pool.static ?? []).forEach((st, j) => {
      const prefix = parsePrefix(st.prefix);
      if (prefix === null) return;
      const subnet = mine.find((s) => prefixContains(s, prefix));
      if (prefix.length !== pool.delegationLength) issue(i, "static", j, "must be one delegationLength block");
      else if (subnet === undefined) issue(i, "static", j, "outside every subnet of the pool");
      else if ((prefix.base - subnet.base) / prefixSpan(prefix) >= BigInt(MAX_STATIC_OFFSET))
        issue(i, "static", j, `must lie within the first ${MAX_STATIC_OFFSET} blocks of its subnet`);
    });
  });
  // Two pools of one VRF must not hand out the same address (a WAN /64 inside a delegated prefix would route to
  // two subscribers); pools in different VRFs may (CGN inside space is reused).
  for (let a = 0; a < parsed.length; a++) {
    for (let b = a + 1; b < parsed.length; b++) {
      const x = parsed[a]!;
      const y = parsed[b]!;
      if (x.pool === y.pool || x.vrf !== y.vrf || !prefixesOverlap(x.prefix, y.prefix)) continue;
      const element = pools[y.pool]!.subnets.findIndex((s) => s.prefix === y.text);
      issue(
        y.pool,
        "subnets",
        element,
        `${y.text} overlaps ${x.text} of pool '${pools[x.pool]!.name}' (same VRF '${x.vrf}')`,
        "overlap",
      );
      issues[issues.length - 1]!.counterpart = {
        pool: x.pool,
        element: pools[x.pool]!.subnets.findIndex((s) => s.prefix === x.text),
        message: `${x.text} overlaps ${y.text} of pool '${pools[y.pool]!.name}' (same VRF '${x.vrf}')`,
      };
    }
  }
  return issues;
}

/**
 * The pools as the simulation runs them: each carries the profile's static
 * allocations of the pool of the same name that still fit it (one block of
 * its delegation length, inside one of its subnets, not excluded, within the
 * static offset limit). A static whose subnet is gone is no longer held.
 */
export function withStatics(
  settings: readonly PoolSettings[],
  statics: (name: string) => readonly StaticAllocation[],
): PoolDefinition[] {
  return settings.map((pool) => {
    const subnets = pool.subnets.map((s) => parsePrefix(s.prefix)).filter((p): p is Prefix => p !== null);
    const exclude = pool.exclude.map((e) => parsePrefix(e)).filter((p): p is Prefix => p !== null);
    const kept = statics(pool.name).filter((st) => {
      const prefix = parsePrefix(st.prefix);
      if (prefix === null || prefix.length !== pool.delegationLength) return false;
      const subnet = subnets.find((s) => prefixContains(s, prefix));
      if (!subnet || exclude.some((e) => prefixesOverlap(e, prefix))) return false;
      return (prefix.base - subnet.base) / prefixSpan(prefix) < BigInt(MAX_STATIC_OFFSET);
    });
    // The spec's AddressPool says null for the default table: `default` is written as null.
    return {
      ...structuredClone(pool),
      vrf: pool.vrf === "default" ? null : pool.vrf,
      static: kept.map((st) => ({ ...st })),
    };
  });
}
