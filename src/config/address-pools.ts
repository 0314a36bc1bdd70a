/**
 * Address pools in the configuration: the keyed list `addressPools` (key:
 * the pool name AAA returns), its conversion to the pools the simulation
 * runs, and the rules that need more than one item or the active document.
 *
 * | child            | form                                                                                    |
 * |------------------|-----------------------------------------------------------------------------------------|
 * | family           | `ipv4`, `ipv6-wan` or `ipv6-pd`; fixed once the pool exists (422 on a change)           |
 * | vrf              | a configured VRF or `default`; null = `default` (GET /address-pools shows null)         |
 * | delegationLength | 32 (ipv4), 64 (ipv6-wan), 48-64 (ipv6-pd); null = 32 or 64 by family                   |
 * | description      | free text                                                                               |
 * | subnets          | list mode, in preference order; each element `<prefix>` or `<prefix> announce`          |
 * | exclude          | list mode; addresses or prefixes, each inside one of the pool's subnets                  |
 *
 * `announce` rides on the subnet's own element (`198.18.0.0/22 announce`)
 * rather than in a second list, so a subnet and its announce flag can never
 * disagree and the preference order is one list.
 *
 * The pools are hot-applied (pool-reconfigure.ts in the simulator says what
 * each change does to the sessions). The profile's static allocations (a NOC
 * probe's addresses) are appliance facts: they follow the pool of their name
 * while one of its subnets holds them. Statically addressed subscribers are
 * configured as local subscribers; a pool change that would refuse one of
 * their addresses (an exclude over it, a delegation it no longer matches) is
 * refused here, naming the subscriber; removing the subnet that holds one is
 * not (its session keeps its address, outside the pools, as the spec's
 * `static` says: "not disconnected if its subnet is removed").
 */
import {
  poolIssues,
  withStatics,
  type PoolDefinition,
  type PoolFamily,
  type PoolSettings,
} from "../../simulator/pool-rules.ts";
import type { Profile } from "../../simulator/profile.ts";
import { parsePrefix } from "../../simulator/prefix.ts";
import type { ConfigDocument, ConfigItem, Value } from "./types.ts";

export const POOLS_LIST = "addressPools";

const FAMILIES: readonly PoolFamily[] = ["ipv4", "ipv6-wan", "ipv6-pd"];

/** A subnet element: a prefix with its host bits zero, then ` announce` when the subnet is announced. */
export function isPoolSubnet(text: string): boolean {
  const match = /^(\S+)( announce)?$/.exec(text);
  return match !== null && match[1]!.includes("/") && parsePrefix(match[1]!, true) !== null;
}

/** A subnet element as the spec's subnet: prefix and announce flag. */
export function subnetOf(element: string): { prefix: string; announce: boolean } {
  const announce = element.endsWith(" announce");
  return { prefix: announce ? element.slice(0, -" announce".length) : element, announce };
}

/** A subnet as its element. */
export const subnetElement = (s: { prefix: string; announce: boolean }): string =>
  s.announce ? `${s.prefix} announce` : s.prefix;

const str = (value: Value | undefined): string | null => (typeof value === "string" ? value : null);
const list = (value: Value | undefined): string[] => (Array.isArray(value) ? value : []);

/** The family's block length when `delegationLength` is null (none for a delegated prefix: it must be given). */
const defaultLength = (family: string | null): number | null =>
  family === "ipv4" ? 32 : family === "ipv6-wan" ? 64 : null;

/** The rules within one pool the shared pool rules cannot see (the registry's `checkItem`). */
export function addressPoolItemProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  if (values.family === "ipv6-pd" && values.delegationLength === null)
    return [{ child: "delegationLength", detail: "required for an ipv6-pd pool: the delegated prefix length, 48-64" }];
  return [];
}

/** The seeded `addressPools`: the profile's pools, in order. */
export function addressPoolItems(profile: Profile): ConfigItem[] {
  return profile.pools.map((p) => ({
    key: p.name,
    values: {
      family: p.family,
      vrf: p.vrf,
      delegationLength: p.delegationLength,
      description: p.description,
      subnets: p.subnets.map(subnetElement),
      exclude: [...p.exclude],
    },
  }));
}

/** The pools of a document as the simulation takes them, in order. */
export function poolSettingsOf(items: readonly ConfigItem[]): PoolSettings[] {
  return items.map(({ key, values }) => {
    const family = (FAMILIES as readonly string[]).includes(String(values.family))
      ? (values.family as PoolFamily)
      : "ipv4";
    const vrf = str(values.vrf);
    return {
      name: key,
      family,
      vrf: vrf === "default" ? null : vrf,
      delegationLength:
        typeof values.delegationLength === "number" ? values.delegationLength : (defaultLength(family) ?? 0),
      description: str(values.description) ?? "",
      subnets: list(values.subnets).map(subnetOf),
      exclude: list(values.exclude),
    };
  });
}

/** The pools of a document with the profile's statics, as the simulation would run them. */
export function poolDefinitionsOf(doc: Pick<ConfigDocument, "lists">, profile: Profile | undefined): PoolDefinition[] {
  return withStatics(
    poolSettingsOf(doc.lists[POOLS_LIST] ?? []),
    (name) => profile?.pools.find((p) => p.name === name)?.static ?? [],
  );
}

/** Reports a problem of a pool (its item, or a child), or of the list as a whole (key undefined). */
export type PoolReport = (key: string | undefined, child: string | undefined, detail: string) => void;

const CHILD_OF = {
  name: undefined,
  delegationLength: "delegationLength",
  subnets: "subnets",
  announce: "subnets",
  exclude: "exclude",
  static: undefined,
} as const;

/**
 * Rules across pools and against the active document: the shared pool rules
 * (pool-rules.ts: fit, overlap within a pool and between pools of one VRF,
 * excludes inside the subnets, limits) and a family fixed once created. A
 * VRF may be left without an IPv4 pool: its subscribers then fail to come up
 * (`no-pool`), as on a box whose RADIUS names a VRF with no pool. The CGN rule (a translated VRF's IPv4 pool holds
 * private space, never
 * announced) is reported here for a pool that changed; for an unchanged one
 * it is the CGN group's change that breaks it, and the CGN checks say so.
 */
export function addressPoolChecks(doc: ConfigDocument, before: ConfigDocument, report: PoolReport): void {
  const items = doc.lists[POOLS_LIST] ?? [];
  const old = new Map((before.lists[POOLS_LIST] ?? []).map((item) => [item.key, item.values]));
  const changed = (item: ConfigItem) => JSON.stringify(old.get(item.key) ?? null) !== JSON.stringify(item.values);
  // A family change is refused below; the other rules judge the pool as the family it keeps.
  const settings = poolSettingsOf(
    items.map((item) => {
      const was = old.get(item.key)?.family;
      return typeof was === "string" && was !== item.values.family
        ? { key: item.key, values: { ...item.values, family: was } }
        : item;
    }),
  );
  const translated = new Set((doc.lists["cgn.groups"] ?? []).flatMap((g) => list(g.values.insideVrfs)));
  for (const issue of poolIssues(settings, translated)) {
    const item = items[issue.pool];
    if (!item) {
      report(undefined, undefined, issue.message);
      continue;
    }
    if (issue.rule === "cgn" && !changed(item)) continue;
    // A missing family is the registry's to report (`required`), and a missing PD length the item rule's.
    if (!(FAMILIES as readonly string[]).includes(String(item.values.family))) continue;
    if (issue.field === "delegationLength" && item.values.delegationLength === null) continue;
    // Two pools overlapping: said on the one that changed (the later one when both did).
    const other = issue.counterpart ? items[issue.counterpart.pool] : undefined;
    if (issue.counterpart && other && !changed(item) && changed(other))
      report(other.key, "subnets", issue.counterpart.message);
    else report(item.key, CHILD_OF[issue.field], issue.message);
  }
  for (const item of items) {
    const was = old.get(item.key)?.family;
    if (typeof was === "string" && typeof item.values.family === "string" && was !== item.values.family) {
      report(item.key, "family", `fixed once the pool exists (it is ${was}): delete the pool and create another`);
    }
  }
}

/** The child of a pool a placement refusal points at. */
export function refusingChild(
  cause: "delegation" | "excluded" | "static" | "offset",
  delegationChanged: boolean,
): string {
  if (cause === "excluded") return "exclude";
  return cause === "delegation" && delegationChanged ? "delegationLength" : "subnets";
}
