/**
 * Routing configuration (designed: the spec names "routing configuration
 * operations" without showing them). One read, and writes that all run the
 * configuration pipeline (validation with 422 listing every rejected value,
 * history, hot-apply): the global settings (local AS, router id, the IGP) by
 * merge, BGP neighbors one by one, and the static route table as a whole.
 * Mutations under `/routing/config` are super-user (the spec's common rule).
 * The BGP password is write-only: reads say whether one is set.
 */
import { z } from "zod";
import type { ConfigItem } from "../config/types.ts";
import type { EditValue } from "../config/edit.ts";
import { IGP_INTERFACES_LIST, NEIGHBORS_LIST, STATIC_ROUTES_LIST, familiesOf, parseStaticRouteKey, routerIdOf } from "../config/routing.ts";
import { StatusError } from "../http/problem.ts";
import { route } from "../http/route.ts";
import { CommitResult, ConfigCommitResult, commitMeta, commitResult, configCommitResult } from "../schemas/commit.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, tagConfigRead } from "../http/config-version.ts";
import { formatPrefix, parsePrefix } from "../../simulator/prefix.ts";
import { AFI_SAFIS, IGP_PROTOCOLS } from "../../simulator/vocabulary.ts";
import { KeyedList } from "./keyed-list.ts";

const section = "Routing";
const base = "/api/v1/routing/config";
const Comment = z.string().max(1024).nullable().optional().meta({ description: "commit comment, recorded in the configuration history" });
const nullableInt = z.int().nullable().optional();
const AfiSafi = z.enum(AFI_SAFIS);

const neighbors = new KeyedList({
  list: NEIGHBORS_LIST,
  body: {
    remoteAs: "uint32, 1 or more; equal to the local AS = iBGP",
    description: "free text, at most 255 characters; absent or null = none",
    bfd: null,
    password: "TCP MD5 password (RFC 2385), write-only; absent = unchanged (none on create), null = none",
    holdTime: "0 or 3-65535; absent or null = 90",
    keepAlive: "below holdTime; absent or null = 30",
    shutdown: "administratively down (`Idle (Admin)`)",
  },
});

const Neighbor = z
  .object({
    address: z.string(),
    ...neighbors.rowFields(),
    addressFamilies: z.array(AfiSafi).meta({ description: "in force: as configured, or the unicast family of the address when none is" }),
    passwordConfigured: z.boolean().meta({ description: "whether a TCP MD5 password is set (it is never returned)" }),
  })
  .meta({ id: "BgpNeighborConfig" });

const staticRoutes = new KeyedList({
  list: STATIC_ROUTES_LIST,
  body: { distance: "1-255; absent or null = 1", announce: null, description: "at most 255 characters" },
  row: { nextHop: "gateway address, or `blackhole`", announce: "advertised in BGP (unicast for `default`, the VRF's VPN family otherwise)" },
});

// The item key `<vrf>:<prefix>` is shown (and written) as its two parts.
const StaticRoute = z
  .object({ vrf: z.string().meta({ description: "a configured VRF or `default`" }), prefix: z.string(), ...staticRoutes.rowFields() })
  .meta({ id: "StaticRoute" });

const interfaces = new KeyedList({
  list: IGP_INTERFACES_LIST,
  body: {
    address: "`address/length`, e.g. 10.1.2.0/31",
    area: "OSPF area, dotted quad or decimal; absent or null = 0.0.0.0",
    level: "IS-IS circuit type; absent or null = level-2",
    cost: "1-16777215; absent or null = 10",
    passive: null,
    helloSeconds: "absent or null = 10",
    deadSeconds: "above helloSeconds; absent or null = 40",
  },
  row: { address: "`address/length`", area: "OSPF area id", level: "IS-IS circuit type" },
});

const IgpInterface = z.object({ name: z.string(), ...interfaces.rowFields() }).meta({ id: "IgpInterfaceConfig" });

export const RoutingConfig = z
  .object({
    localAs: z.int().nullable().meta({ description: "`bgp.localAs`" }),
    routerId: z.string().nullable().meta({ description: "`routing.routerId` as configured; null = derived" }),
    effectiveRouterId: z.string().meta({ description: "the router id in force: the configured one, else the highest IPv4 address of the IGP interfaces, else 0.0.0.0" }),
    neighbors: z.array(Neighbor).meta({ description: "`bgp.neighbors`, in configuration order" }),
    staticRoutes: z.array(StaticRoute).meta({ description: "`routing.staticRoutes`, in configuration order" }),
    igp: z.object({ protocol: z.enum(IGP_PROTOCOLS), interfaces: z.array(IgpInterface) }).meta({ description: "`igp.protocol` and `igp.interfaces`" }),
  })
  .meta({ id: "RoutingConfig" });

// One entry of the PATCH's whole interface list: its comment is the PATCH's.
const { comment: _comment, ...interfaceFields } = interfaces.bodyFields("replace");
const IgpInterfaceWrite = z
  .strictObject({ name: z.string().meta({ description: "interface name (1-15 characters)" }), ...interfaceFields })
  .meta({ id: "IgpInterfaceWrite" });

const RoutingSettings = z
  .strictObject({
    localAs: nullableInt.meta({ description: "uint32, 1 or more; null = none (refused while neighbors exist)" }),
    routerId: z.string().nullable().optional().meta({ description: "an IPv4 address; null = derived" }),
    igp: z
      .strictObject({
        protocol: z.enum(IGP_PROTOCOLS).optional(),
        interfaces: z.array(IgpInterfaceWrite).max(256).optional().meta({ description: "the whole interface list: interfaces left out are removed" }),
      })
      .optional(),
    comment: Comment,
  })
  .meta({ id: "RoutingSettings", description: "a merge: absent members stay as they are, null returns one to its default; a given `igp.interfaces` replaces the list" });

const neighborFields = {
  ...neighbors.bodyFields("replace"),
  addressFamilies: z.array(AfiSafi).max(4).nullable().optional().meta({ description: "absent, null or empty = the unicast family of the address" }),
};
const NeighborCreate = z
  .object({ address: z.string().min(1).max(255).meta({ description: "the neighbor's IPv4 or IPv6 address: its key" }), ...neighborFields })
  .meta({ id: "BgpNeighborCreate", description: "shapes are checked here (400), values by configuration validation (422)" });
const NeighborUpdate = z
  .object({ address: z.string().optional().meta({ description: "ignored: the URL's address wins" }), ...neighborFields })
  .meta({ id: "BgpNeighborUpdate", description: "a full replacement: attributes left out return to their defaults, except the password, which stays unless given" });

// One route of the whole table: its comment is the PUT's.
const { comment: _routeComment, ...staticRouteFields } = staticRoutes.bodyFields("replace");
const StaticRouteWrite = z
  .strictObject({
    vrf: z.string().min(1).max(63).default("default").meta({ description: "a configured VRF or `default` (the default)" }),
    prefix: z.string().min(1).max(64).meta({ description: "destination prefix, host bits zero" }),
    ...staticRouteFields,
    nextHop: z.string().min(1).max(64).meta({ description: "gateway address of the prefix's family, or `blackhole`" }),
  })
  .meta({ id: "StaticRouteWrite" });
const StaticRoutes = z
  .strictObject({ routes: z.array(StaticRouteWrite).max(4096), comment: Comment })
  .meta({ id: "StaticRouteTable", description: "the whole table: routes left out are removed" });

const AddressParams = z.object({ address: z.string().min(1).max(255) });

const text = (value: number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** `routing.staticRoutes` keys, `<vrf>:<prefix>` with the prefix in canonical form (so two spellings of one prefix are one route). */
function staticRouteKey(r: { vrf: string; prefix: string }): string {
  const p = parsePrefix(r.prefix.trim(), true);
  return `${r.vrf}:${p && r.prefix.includes("/") ? formatPrefix(p) : r.prefix}`;
}

const neighborRow = (item: ConfigItem): z.infer<typeof Neighbor> => ({
  address: item.key,
  ...neighbors.rowValues(item),
  addressFamilies: familiesOf(item.key, strings(item.values.addressFamilies)),
  passwordConfigured: KeyedList.secretSet(item, "password"),
});

const VALIDATION =
  "422 when configuration validation rejects, every rejected value listed (`#/lists/bgp.neighbors/<address>/…`): an address that does not parse (or is another neighbor's in another spelling), an AS of 0, a hold time of 1-2, a keepalive not below the hold time, an unknown address family, or no `bgp.localAs` (`#/fields/bgp.localAs`).";
const HOT = "Committed through the configuration pipeline and applied at once: the session of a new or changed neighbor starts from Idle now and reaches Established within 5-45 s of simulated time.";

export const routingConfigRoutes = [
  route({
    method: "GET",
    path: base,
    section,
    summary: "Routing configuration: local AS, router id, BGP neighbors, static routes, IGP",
    description: "The configuration's `bgp.*`, `routing.*` and `igp.*` keys in one document (GET /api/v1/config holds the same). The BGP password is never returned: `passwordConfigured` says whether one is set.",
    fp: true,
    response: { description: "RoutingConfig", schema: RoutingConfig },
    handle: async (ctx) => {
      tagConfigRead(ctx);
      const config = ctx.appliance.stub.config();
      const [neighborItems, statics, interfaceItems, localAs, routerId, protocol] = await Promise.all([
        config.items(NEIGHBORS_LIST),
        config.items(STATIC_ROUTES_LIST),
        config.items(IGP_INTERFACES_LIST),
        config.field("bgp.localAs"),
        config.field("routing.routerId"),
        config.field("igp.protocol"),
      ]);
      return {
        localAs: typeof localAs === "number" ? localAs : null,
        routerId: str(routerId),
        effectiveRouterId: routerIdOf({ fields: { "routing.routerId": routerId }, lists: { [IGP_INTERFACES_LIST]: interfaceItems } }),
        neighbors: neighborItems.map(neighborRow),
        staticRoutes: statics.flatMap(({ key, values: v }) => {
          const parsed = parseStaticRouteKey(key);
          return parsed ? [{ vrf: parsed.vrf, prefix: parsed.prefix, ...staticRoutes.rowValues({ key, values: v }) }] : [];
        }),
        igp: {
          protocol: (str(protocol) ?? "none") as (typeof IGP_PROTOCOLS)[number],
          interfaces: interfaceItems.map((item) => ({ name: item.key, ...interfaces.rowValues(item) })),
        },
      };
    },
  }),
  route({
    method: "PATCH",
    path: base,
    section,
    summary: "Change the global routing settings: local AS, router id, IGP protocol and interfaces",
    description:
      "A merge: absent members stay, null returns one to its default, a given `igp.interfaces` replaces the whole interface list (in the given order). One commit, hot-applied: a new local AS or router id restarts every BGP session, a new protocol or router id re-forms every adjacency. " +
      "Unknown members are refused (400). 422 when validation rejects, every rejected value listed: `#/fields/bgp.localAs`, `#/fields/routing.routerId`, `#/lists/igp.interfaces/<name>/…` (an address that does not parse or is another interface's, a dead interval not above the hello interval, an area that is not an OSPF area id).",
    body: RoutingSettings,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [412, 422],
    handle: async (ctx) => {
      const fields: Record<string, EditValue> = {};
      if (ctx.body.localAs !== undefined) fields["bgp.localAs"] = text(ctx.body.localAs);
      if (ctx.body.routerId !== undefined) fields["routing.routerId"] = ctx.body.routerId;
      if (ctx.body.igp?.protocol !== undefined) fields["igp.protocol"] = ctx.body.igp.protocol;
      const lists: Record<string, { key: string; fields: Record<string, EditValue> }[]> = {};
      const given = ctx.body.igp?.interfaces;
      if (given !== undefined) {
        const dup = given.findIndex((i, n) => given.findIndex((j) => j.name === i.name) !== n);
        if (dup >= 0) throw new StatusError(400, `invalid request: body igp/interfaces/${dup}/name: interface '${given[dup]!.name}' is given twice`, { errors: [{ in: "body", pointer: `#/igp/interfaces/${dup}/name`, detail: "given twice" }] });
        lists[IGP_INTERFACES_LIST] = given.map((i) => ({ key: i.name, fields: interfaces.children(i, "replace") }));
      }
      const summary = committed(ctx, await ctx.appliance.stub.config().replaceSection(fields, lists, commitMeta(ctx, "routing", ctx.body.comment)));
      return configCommitResult(summary);
    },
  }),
  route({
    method: "POST",
    path: `${base}/bgp/neighbors`,
    section,
    summary: "Add a BGP neighbor",
    description: `409 when a neighbor of that address exists. ${HOT} ${VALIDATION}`,
    body: NeighborCreate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    handle: neighbors.put("create", "bgp-neighbor", (ctx) => String(ctx.body.address)),
  }),
  route({
    method: "PUT",
    path: `${base}/bgp/neighbors/{address}`,
    section,
    summary: "Replace a BGP neighbor's settings",
    description: `A full replacement (the password stays unless given); the URL's address wins over the body's. 404 for an unknown neighbor (PUT does not create). ${HOT} ${VALIDATION}`,
    params: AddressParams,
    body: NeighborUpdate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    handle: neighbors.put("replace", "bgp-neighbor", (ctx) => ctx.params.address!),
  }),
  route({
    method: "DELETE",
    path: `${base}/bgp/neighbors/{address}`,
    section,
    summary: "Remove a BGP neighbor",
    description: "404 for an unknown neighbor. The session is torn down at once; with the last neighbor (and no GRE customer session) BGP stops: the summary then reads `reachable` false. The optional `comment` query parameter goes to the history.",
    params: AddressParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    handle: neighbors.remove("bgp-neighbor", "address"),
  }),
  route({
    method: "PUT",
    path: `${base}/static-routes`,
    section,
    summary: "Replace the static route table",
    description:
      "The whole table, in the given order: routes left out are removed. A route is keyed by its VRF and prefix (`routing.staticRoutes` item `<vrf>:<prefix>`); the same one twice is refused (400). One commit, hot-applied: the VRF route tables and, for `announce` routes, the BGP advertisements follow at once. " +
      "422 when validation rejects, every rejected value listed under `#/lists/routing.staticRoutes/<vrf>:<prefix>/…`: a prefix with host bits set, a VRF that is not configured, a next hop of the other family, a distance outside 1-255.",
    body: StaticRoutes,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [412, 422],
    handle: async (ctx) => {
      const keys = ctx.body.routes.map(staticRouteKey);
      const dup = keys.findIndex((k, n) => keys.indexOf(k) !== n);
      if (dup >= 0) throw new StatusError(400, `invalid request: body routes/${dup}: the route ${keys[dup]} is given twice`, { errors: [{ in: "body", pointer: `#/routes/${dup}/prefix`, detail: `${keys[dup]} is given twice` }] });
      const items = ctx.body.routes.map((r, n) => ({
        key: keys[n]!,
        fields: staticRoutes.children(r, "replace"),
      }));
      const summary = committed(ctx, await ctx.appliance.stub.config().replaceSection({}, { [STATIC_ROUTES_LIST]: items }, commitMeta(ctx, "static-routes", ctx.body.comment)));
      return configCommitResult(summary);
    },
  }),
];
