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
import type { ConfigItem } from "../config/document.ts";
import type { EditValue } from "../config/edit.ts";
import { REDACTED } from "../config/registry.ts";
import { IGP_INTERFACES_LIST, NEIGHBORS_LIST, STATIC_ROUTES_LIST, familiesOf, parseStaticRouteKey, routerIdOf } from "../config/routing.ts";
import { StatusError } from "../http/problem.ts";
import { route } from "../http/route.ts";
import { CommitResult, ConfigCommitResult, commitMeta, commitResult, configCommitResult } from "../schemas/commit.ts";
import { unwrap } from "../schemas/outcome.ts";
import { IGP_PROTOCOLS } from "../../simulator/igp.ts";
import { formatPrefix, parsePrefix } from "../../simulator/prefix.ts";
import { AFI_SAFIS } from "../../simulator/routing.ts";

const section = "Routing";
const base = "/api/v1/routing/config";
const Comment = z.string().max(1024).nullable().optional().meta({ description: "commit comment, recorded in the configuration history" });
const nullableInt = z.int().nullable().optional();
const AfiSafi = z.enum(AFI_SAFIS);

const Neighbor = z
  .object({
    address: z.string(),
    remoteAs: z.int(),
    description: z.string().nullable(),
    bfd: z.boolean(),
    addressFamilies: z.array(AfiSafi).meta({ description: "in force: as configured, or the unicast family of the address when none is" }),
    passwordConfigured: z.boolean().meta({ description: "whether a TCP MD5 password is set (it is never returned)" }),
    holdTime: z.int(),
    keepAlive: z.int(),
    shutdown: z.boolean(),
  })
  .meta({ id: "BgpNeighborConfig" });

const StaticRoute = z
  .object({
    vrf: z.string().meta({ description: "a configured VRF or `default`" }),
    prefix: z.string(),
    nextHop: z.string().meta({ description: "gateway address, or `blackhole`" }),
    distance: z.int(),
    announce: z.boolean().meta({ description: "advertised in BGP (unicast for `default`, the VRF's VPN family otherwise)" }),
    description: z.string(),
  })
  .meta({ id: "StaticRoute" });

const IgpInterface = z
  .object({
    name: z.string(),
    address: z.string().meta({ description: "`address/length`" }),
    area: z.string().meta({ description: "OSPF area id" }),
    level: z.enum(["level-1", "level-2", "level-1-2"]).meta({ description: "IS-IS circuit type" }),
    cost: z.int(),
    passive: z.boolean(),
    helloSeconds: z.int(),
    deadSeconds: z.int(),
  })
  .meta({ id: "IgpInterfaceConfig" });

const RoutingConfig = z
  .object({
    localAs: z.int().nullable().meta({ description: "`bgp.localAs`" }),
    routerId: z.string().nullable().meta({ description: "`routing.routerId` as configured; null = derived" }),
    effectiveRouterId: z.string().meta({ description: "the router id in force: the configured one, else the highest IPv4 address of the IGP interfaces, else 0.0.0.0" }),
    neighbors: z.array(Neighbor).meta({ description: "`bgp.neighbors`, in configuration order" }),
    staticRoutes: z.array(StaticRoute).meta({ description: "`routing.staticRoutes`, in configuration order" }),
    igp: z.object({ protocol: z.enum(IGP_PROTOCOLS), interfaces: z.array(IgpInterface) }).meta({ description: "`igp.protocol` and `igp.interfaces`" }),
  })
  .meta({ id: "RoutingConfig" });

const IgpInterfaceWrite = z
  .strictObject({
    name: z.string().meta({ description: "interface name (1-15 characters)" }),
    address: z.string().meta({ description: "`address/length`, e.g. 10.1.2.0/31" }),
    area: z.string().nullable().optional().meta({ description: "OSPF area, dotted quad or decimal; absent or null = 0.0.0.0" }),
    level: z.enum(["level-1", "level-2", "level-1-2"]).nullable().optional().meta({ description: "IS-IS circuit type; absent or null = level-2" }),
    cost: nullableInt.meta({ description: "1-16777215; absent or null = 10" }),
    passive: z.boolean().default(false),
    helloSeconds: nullableInt.meta({ description: "absent or null = 10" }),
    deadSeconds: nullableInt.meta({ description: "above helloSeconds; absent or null = 40" }),
  })
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
  remoteAs: z.int().meta({ description: "uint32, 1 or more; equal to the local AS = iBGP" }),
  description: z.string().nullable().optional().meta({ description: "free text, at most 255 characters; absent or null = none" }),
  bfd: z.boolean().default(false),
  addressFamilies: z.array(AfiSafi).max(4).nullable().optional().meta({ description: "absent, null or empty = the unicast family of the address" }),
  password: z.string().nullable().optional().meta({ description: "TCP MD5 password (RFC 2385), write-only; absent = unchanged (none on create), null = none" }),
  holdTime: nullableInt.meta({ description: "0 or 3-65535; absent or null = 90" }),
  keepAlive: nullableInt.meta({ description: "below holdTime; absent or null = 30" }),
  shutdown: z.boolean().default(false).meta({ description: "administratively down (`Idle (Admin)`)" }),
  comment: Comment,
};
const NeighborCreate = z
  .object({ address: z.string().min(1).max(255).meta({ description: "the neighbor's IPv4 or IPv6 address: its key" }), ...neighborFields })
  .meta({ id: "BgpNeighborCreate", description: "shapes are checked here (400), values by configuration validation (422)" });
const NeighborUpdate = z
  .object({ address: z.string().optional().meta({ description: "ignored: the URL's address wins" }), ...neighborFields })
  .meta({ id: "BgpNeighborUpdate", description: "a full replacement: attributes left out return to their defaults, except the password, which stays unless given" });

const StaticRouteWrite = z
  .strictObject({
    vrf: z.string().min(1).max(63).default("default").meta({ description: "a configured VRF or `default` (the default)" }),
    prefix: z.string().min(1).max(64).meta({ description: "destination prefix, host bits zero" }),
    nextHop: z.string().min(1).max(64).meta({ description: "gateway address of the prefix's family, or `blackhole`" }),
    distance: nullableInt.meta({ description: "1-255; absent or null = 1" }),
    announce: z.boolean().default(false),
    description: z.string().nullable().optional().meta({ description: "at most 255 characters" }),
  })
  .meta({ id: "StaticRouteWrite" });
const StaticRoutes = z
  .strictObject({ routes: z.array(StaticRouteWrite).max(4096), comment: Comment })
  .meta({ id: "StaticRouteTable", description: "the whole table: routes left out are removed" });

const AddressParams = z.object({ address: z.string().min(1).max(255) });
const DeleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: "commit comment, recorded in the configuration history" }) });

const text = (value: number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown, fallback: number): number => (typeof value === "number" ? value : fallback);

function neighborChildren(body: z.output<typeof NeighborUpdate>, keepPassword: boolean): Record<string, EditValue> {
  return {
    remoteAs: String(body.remoteAs),
    description: body.description ?? null,
    bfd: String(body.bfd),
    addressFamilies: body.addressFamilies ?? [],
    // The placeholder leaves a stored secret as it is.
    password: body.password === undefined ? (keepPassword ? REDACTED : null) : body.password,
    holdTime: text(body.holdTime),
    keepAlive: text(body.keepAlive),
    shutdown: String(body.shutdown),
  };
}

const igpChildren = (i: z.output<typeof IgpInterfaceWrite>): Record<string, EditValue> => ({
  address: i.address,
  area: i.area ?? null,
  level: i.level ?? null,
  cost: text(i.cost),
  passive: String(i.passive),
  helloSeconds: text(i.helloSeconds),
  deadSeconds: text(i.deadSeconds),
});

/** `routing.staticRoutes` keys, `<vrf>:<prefix>` with the prefix in canonical form (so two spellings of one prefix are one route). */
function staticRouteKey(r: { vrf: string; prefix: string }): string {
  const p = parsePrefix(r.prefix.trim(), true);
  return `${r.vrf}:${p && r.prefix.includes("/") ? formatPrefix(p) : r.prefix}`;
}

const neighborRow = ({ key, values: v }: ConfigItem): z.infer<typeof Neighbor> => ({
  address: key,
  remoteAs: num(v.remoteAs, 0),
  description: str(v.description),
  bfd: v.bfd === true,
  addressFamilies: familiesOf(key, strings(v.addressFamilies)),
  passwordConfigured: v.password !== null && v.password !== undefined,
  holdTime: num(v.holdTime, 90),
  keepAlive: num(v.keepAlive, 30),
  shutdown: v.shutdown === true,
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
      const config = ctx.appliance.stub.config();
      const [neighbors, statics, interfaces, localAs, routerId, protocol] = await Promise.all([
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
        effectiveRouterId: routerIdOf({ fields: { "routing.routerId": routerId }, lists: { [IGP_INTERFACES_LIST]: interfaces } }),
        neighbors: neighbors.map(neighborRow),
        staticRoutes: statics.flatMap(({ key, values: v }) => {
          const parsed = parseStaticRouteKey(key);
          return parsed ? [{ vrf: parsed.vrf, prefix: parsed.prefix, nextHop: str(v.nextHop) ?? "blackhole", distance: num(v.distance, 1), announce: v.announce === true, description: str(v.description) ?? "" }] : [];
        }),
        igp: {
          protocol: (str(protocol) ?? "none") as (typeof IGP_PROTOCOLS)[number],
          interfaces: interfaces.map(({ key, values: v }) => ({
            name: key,
            address: str(v.address) ?? "",
            area: str(v.area) ?? "0.0.0.0",
            level: (str(v.level) ?? "level-2") as "level-1" | "level-2" | "level-1-2",
            cost: num(v.cost, 10),
            passive: v.passive === true,
            helloSeconds: num(v.helloSeconds, 10),
            deadSeconds: num(v.deadSeconds, 40),
          })),
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
    errors: [422],
    handle: async (ctx) => {
      const fields: Record<string, EditValue> = {};
      if (ctx.body.localAs !== undefined) fields["bgp.localAs"] = text(ctx.body.localAs);
      if (ctx.body.routerId !== undefined) fields["routing.routerId"] = ctx.body.routerId;
      if (ctx.body.igp?.protocol !== undefined) fields["igp.protocol"] = ctx.body.igp.protocol;
      const lists: Record<string, { key: string; fields: Record<string, EditValue> }[]> = {};
      const interfaces = ctx.body.igp?.interfaces;
      if (interfaces !== undefined) {
        const dup = interfaces.findIndex((i, n) => interfaces.findIndex((j) => j.name === i.name) !== n);
        if (dup >= 0) throw new StatusError(400, `invalid request: body igp/interfaces/${dup}/name: interface '${interfaces[dup]!.name}' is given twice`, { errors: [{ in: "body", pointer: `#/igp/interfaces/${dup}/name`, detail: "given twice" }] });
        lists[IGP_INTERFACES_LIST] = interfaces.map((i) => ({ key: i.name, fields: igpChildren(i) }));
      }
      const summary = unwrap(await ctx.appliance.stub.config().replaceSection(fields, lists, commitMeta(ctx.principal, "routing", ctx.body.comment)));
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
    errors: [409, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(NEIGHBORS_LIST, ctx.body.address, neighborChildren(ctx.body, false), "create", commitMeta(ctx.principal, "bgp-neighbor", ctx.body.comment)));
      return commitResult(ctx.body.address, summary);
    },
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
    errors: [404, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(NEIGHBORS_LIST, ctx.params.address, neighborChildren(ctx.body, true), "replace", commitMeta(ctx.principal, "bgp-neighbor", ctx.body.comment)));
      return commitResult(ctx.params.address, summary);
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/bgp/neighbors/{address}`,
    section,
    summary: "Remove a BGP neighbor",
    description: "404 for an unknown neighbor. The session is torn down at once; with the last neighbor (and no GRE customer session) BGP stops: the summary then reads `reachable` false. The optional `comment` query parameter goes to the history.",
    params: AddressParams,
    query: DeleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().deleteItem(NEIGHBORS_LIST, ctx.params.address, commitMeta(ctx.principal, "bgp-neighbor", ctx.query.comment)));
      return commitResult(ctx.params.address, summary);
    },
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
    errors: [422],
    handle: async (ctx) => {
      const keys = ctx.body.routes.map(staticRouteKey);
      const dup = keys.findIndex((k, n) => keys.indexOf(k) !== n);
      if (dup >= 0) throw new StatusError(400, `invalid request: body routes/${dup}: the route ${keys[dup]} is given twice`, { errors: [{ in: "body", pointer: `#/routes/${dup}/prefix`, detail: `${keys[dup]} is given twice` }] });
      const items = ctx.body.routes.map((r, n) => ({
        key: keys[n]!,
        fields: { nextHop: r.nextHop, distance: text(r.distance), announce: String(r.announce), description: r.description ?? null } as Record<string, EditValue>,
      }));
      const summary = unwrap(await ctx.appliance.stub.config().replaceSection({}, { [STATIC_ROUTES_LIST]: items }, commitMeta(ctx.principal, "static-routes", ctx.body.comment)));
      return configCommitResult(summary);
    },
  }),
];
