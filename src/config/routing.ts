/**
 * Routing and IPsec in the configuration: the syntax of their values, the
 * rules across keys, and their conversion into what the control-plane models
 * (simulator/routing.ts, igp.ts, ipsec.ts) read. Pure; the registry, the
 * validator and the appliance's routing and IPsec stores call it.
 *
 * | key                   | what                                                                        |
 * |-----------------------|-----------------------------------------------------------------------------|
 * | bgp.localAs           | `router bgp <AS>`; required while bgp.neighbors has items                  |
 * | routing.routerId      | BGP and IGP router id; null = the highest IPv4 address of igp.interfaces    |
 * | bgp.neighbors         | key: the address; remoteAs, addressFamilies, password, timers, shutdown     |
 * | routing.staticRoutes  | key: `<vrf>:<prefix>`; nextHop (an address or `blackhole`), distance, announce |
 * | igp.protocol          | `none`, `ospf`, `isis`                                                      |
 * | igp.interfaces        | key: the interface; address, area / level, cost, passive, timers            |
 * | ipsec.enabled         | hot: enabling initiates the peers, disabling tears the SAs down             |
 * | ipsec.localAddress    | this end's IKE address; null = routing.routerId                             |
 * | ipsec.peers           | key: the connection name; remote, ids, PSK, proposals, selectors, lifetimes |
 */
import { z } from "zod";
import { PROPOSAL_NAMES, type IpsecPeerConfig } from "../../simulator/ipsec.ts";
import type { IgpInterfaceConfig } from "../../simulator/igp.ts";
import type { AfiSafi, IgpProtocol } from "../../simulator/vocabulary.ts";
import { formatIpv4, parseAddress, parseIpv4, parsePrefix } from "../../simulator/prefix.ts";
import type { BgpNeighborConfig, StaticRoute } from "../../simulator/routing.ts";
import type { ConfigDocument, ConfigItem, Value } from "./types.ts";
import { parseInterfaceAddress } from "./gre.ts";

export const NEIGHBORS_LIST = "bgp.neighbors";
export const STATIC_ROUTES_LIST = "routing.staticRoutes";
export const IGP_INTERFACES_LIST = "igp.interfaces";
export const IPSEC_PEERS_LIST = "ipsec.peers";

/** IKE and ESP proposals in strongSwan's syntax: comma-separated proposals of '-'-joined algorithm keywords. */
export const PROPOSAL = z
  .string()
  .max(255, "at most 255 characters")
  .refine(
    (text) =>
      text.split(",").every(
        (p) =>
          p.trim() !== "" &&
          p
            .trim()
            .split("-")
            .every((token) => Object.hasOwn(PROPOSAL_NAMES, token)),
      ),
    `strongSwan proposals: algorithm keywords joined by '-', proposals by ','; known ` +
      `keywords: ${Object.keys(PROPOSAL_NAMES).join(", ")}`,
  );

/** An OSPF area id: a dotted quad or a uint32. */
export const isOspfArea = (text: string): boolean =>
  parseIpv4(text) !== null || (/^\d{1,10}$/.test(text) && Number(text) <= 0xffffffff);

/** A static route's key `<vrf>:<prefix>` split at its first ':' (VRF names hold none). */
export function parseStaticRouteKey(key: string): { vrf: string; prefix: string } | null {
  const colon = key.indexOf(":");
  if (colon < 1) return null;
  const vrf = key.slice(0, colon);
  const prefix = key.slice(colon + 1);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(vrf) || !prefix.includes("/") || parsePrefix(prefix, true) === null)
    return null;
  return { vrf, prefix };
}

export const isStaticRouteKey = (key: string): boolean => parseStaticRouteKey(key) !== null;

/** The rules within one neighbor (the registry's `checkItem`). */
export function neighborItemProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const hold = values.holdTime;
  const keep = values.keepAlive;
  if (typeof hold === "number" && typeof keep === "number" && hold > 0 && keep >= hold)
    return [{ child: "keepAlive", detail: `must be below holdTime (${hold}); a third of it is usual` }];
  return [];
}

/** The rules within one IGP interface (the registry's `checkItem`). */
export function igpInterfaceProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const hello = values.helloSeconds;
  const dead = values.deadSeconds;
  if (typeof hello === "number" && typeof dead === "number" && dead <= hello)
    return [{ child: "deadSeconds", detail: `must be above helloSeconds (${hello}); four times it is usual` }];
  return [];
}

type Report = (
  list: string | null,
  key: string | undefined,
  child: string | undefined,
  detail: string,
  field?: string,
) => void;

/**
 * The rules across keys: the local AS neighbors need, distinct neighbor addresses, static routes' VRFs and next hops.
 */
export function routingChecks(doc: ConfigDocument, report: Report): void {
  const neighbors = doc.lists[NEIGHBORS_LIST] ?? [];
  if (neighbors.length > 0 && doc.fields["bgp.localAs"] === null)
    report(null, undefined, undefined, "required while bgp.neighbors has neighbors (`router bgp <AS>`)", "bgp.localAs");
  const seen = new Map<string, string>();
  for (const n of neighbors) {
    const a = parseAddress(n.key);
    if (!a) continue;
    const canonical = `${a.family}:${a.value}`;
    const other = seen.get(canonical);
    if (other !== undefined) report(NEIGHBORS_LIST, n.key, undefined, `the same address as neighbor '${other}'`);
    else seen.set(canonical, n.key);
  }
  const vrfs = new Set(["default", ...(doc.lists.vrfs ?? []).map((v) => v.key)]);
  for (const route of doc.lists[STATIC_ROUTES_LIST] ?? []) {
    const parsed = parseStaticRouteKey(route.key);
    if (!parsed) continue;
    if (!vrfs.has(parsed.vrf))
      report(
        STATIC_ROUTES_LIST,
        route.key,
        undefined,
        `no vrfs item '${parsed.vrf}' is configured (nor is it 'default'); delete the route with the VRF`,
      );
    const hop = route.values.nextHop;
    const family = parsePrefix(parsed.prefix, true)?.family;
    if (typeof hop === "string" && hop !== "blackhole" && parseAddress(hop)?.family !== family) {
      report(
        STATIC_ROUTES_LIST,
        route.key,
        "nextHop",
        `must be an IPv${family} address like the prefix (or blackhole)`,
      );
    }
  }
}

const str = (value: Value | undefined): string | null => (typeof value === "string" ? value : null);
const num = (value: Value | undefined, fallback: number): number => (typeof value === "number" ? value : fallback);
const list = (value: Value | undefined): string[] => (Array.isArray(value) ? value : []);

/**
 * The router id in force: `routing.routerId`, else the highest IPv4 address of igp.interfaces (as FRR picks), else
 * 0.0.0.0.
 */
export function routerIdOf(doc: Pick<ConfigDocument, "fields" | "lists">): string {
  const configured = str(doc.fields["routing.routerId"]);
  if (configured) return configured;
  let best = -1;
  for (const item of doc.lists[IGP_INTERFACES_LIST] ?? []) {
    const a = typeof item.values.address === "string" ? parseInterfaceAddress(item.values.address) : null;
    if (a?.family === 4 && Number(a.value) > best) best = Number(a.value);
  }
  return best < 0 ? "0.0.0.0" : formatIpv4(best);
}

/** A neighbor's address families: as configured, or the unicast family of its address. */
export function familiesOf(address: string, configured: string[]): AfiSafi[] {
  if (configured.length > 0) return [...new Set(configured)] as AfiSafi[];
  return [parseAddress(address)?.family === 6 ? "ipv6Unicast" : "ipv4Unicast"];
}

/** `bgp.neighbors` as the routing model reads them (provisioning instants from the store). */
export function neighborsOf(
  items: readonly ConfigItem[],
  provisioned: (item: ConfigItem) => number,
): BgpNeighborConfig[] {
  return items.map((item) => ({
    address: item.key,
    remoteAs: num(item.values.remoteAs, 0),
    description: str(item.values.description),
    bfd: item.values.bfd === true,
    addressFamilies: familiesOf(item.key, list(item.values.addressFamilies)),
    holdTime: num(item.values.holdTime, 90),
    keepAlive: num(item.values.keepAlive, 30),
    shutdown: item.values.shutdown === true,
    provisionedMs: provisioned(item),
  }));
}

/** `routing.staticRoutes` as the routing model reads them. */
export function staticRoutesOf(items: readonly ConfigItem[]): StaticRoute[] {
  return items.flatMap((item) => {
    const parsed = parseStaticRouteKey(item.key);
    if (!parsed) return [];
    const hop = str(item.values.nextHop);
    return [
      {
        vrf: parsed.vrf,
        prefix: parsed.prefix,
        nextHop: hop === "blackhole" ? null : hop,
        distance: num(item.values.distance, 1),
        announce: item.values.announce === true,
      },
    ];
  });
}

/** `igp.protocol`. */
export const igpProtocolOf = (doc: Pick<ConfigDocument, "fields">): IgpProtocol =>
  (str(doc.fields["igp.protocol"]) as IgpProtocol | null) ?? "none";

/** `igp.interfaces` as the IGP model reads them. */
export function igpInterfacesOf(
  items: readonly ConfigItem[],
  provisioned: (item: ConfigItem) => number,
): IgpInterfaceConfig[] {
  return items.map((item) => {
    const area = str(item.values.area) ?? "0.0.0.0";
    return {
      name: item.key,
      address: str(item.values.address) ?? "",
      // Areas are shown dotted, as OSPF implementations print them.
      area: /^\d+$/.test(area) ? formatIpv4(Number(area)) : area,
      level: (str(item.values.level) ?? "level-2") as IgpInterfaceConfig["level"],
      cost: num(item.values.cost, 10),
      passive: item.values.passive === true,
      helloSeconds: num(item.values.helloSeconds, 10),
      deadSeconds: num(item.values.deadSeconds, 40),
      provisionedMs: provisioned(item),
    };
  });
}

/** `ipsec.peers` as the IPsec model reads them (the PSK stays behind). */
export function ipsecPeersOf(
  items: readonly ConfigItem[],
  provisioned: (item: ConfigItem) => number,
): IpsecPeerConfig[] {
  return items.map((item) => ({
    name: item.key,
    remoteAddress: str(item.values.remoteAddress) ?? "",
    localId: str(item.values.localId),
    remoteId: str(item.values.remoteId),
    ikeVersion: item.values.ikeVersion === 1 ? 1 : 2,
    ikeProposal: str(item.values.ikeProposal) ?? "aes256gcm16-prfsha384-ecp384",
    espProposal: str(item.values.espProposal) ?? "aes256gcm16-ecp384",
    localTs: list(item.values.localTs),
    remoteTs: list(item.values.remoteTs),
    ikeLifetimeSeconds: num(item.values.ikeLifetimeSeconds, 14_400),
    childLifetimeSeconds: num(item.values.childLifetimeSeconds, 3_600),
    provisionedMs: provisioned(item),
  }));
}

/**
 * A stable digest of an item's values (secrets included, never stored in
 * clear): when it changes, the session, adjacency or connection restarts.
 */
export function fingerprintOf(values: unknown): string {
  const text = JSON.stringify(values);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}:${text.length}`;
}
