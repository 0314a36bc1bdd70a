/**
 * Routing configuration, the wire contract (designed: the spec names "routing
 * configuration operations" without showing them): one read, the global
 * settings by merge, BGP neighbors one by one, and the static route table as
 * a whole, over the `bgp.*`, `routing.*` and `igp.*` keys of the
 * configuration. The BGP password is write-only: reads say whether one is set.
 */
import { z } from "zod";
import { AFI_SAFIS, IGP_PROTOCOLS } from "../../simulator/vocabulary.ts";
import { CommitResult, ConfigCommitResult } from "./commit.ts";
import { operation } from "./contract.ts";
import { KeyedList, configInt } from "./keyed-list.ts";

const section = "Routing";
const base = "/api/v1/routing/config";
const Comment = z
  .string()
  .max(1024)
  .nullable()
  .optional()
  .meta({ description: "commit comment, recorded in the configuration history" });
const AfiSafi = z.enum(AFI_SAFIS);

const neighbors = new KeyedList({
  list: "bgp.neighbors",
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

export const Neighbor = z
  .object({
    address: z.string(),
    ...neighbors.rowFields(),
    addressFamilies: z
      .array(AfiSafi)
      .meta({ description: "in force: as configured, or the unicast family of the address when none is" }),
    passwordConfigured: z.boolean().meta({ description: "whether a TCP MD5 password is set (it is never returned)" }),
  })
  .meta({ id: "BgpNeighborConfig" });
export type BgpNeighborConfig = z.output<typeof Neighbor>;

const staticRoutes = new KeyedList({
  list: "routing.staticRoutes",
  body: { distance: "1-255; absent or null = 1", announce: null, description: "at most 255 characters" },
  row: {
    nextHop: "gateway address, or `blackhole`",
    announce: "advertised in BGP (unicast for `default`, the VRF's VPN family otherwise)",
  },
});

// The item key `<vrf>:<prefix>` is shown (and written) as its two parts.
const StaticRoute = z
  .object({
    vrf: z.string().meta({ description: "a configured VRF or `default`" }),
    prefix: z.string(),
    ...staticRoutes.rowFields(),
  })
  .meta({ id: "StaticRoute" });

const interfaces = new KeyedList({
  list: "igp.interfaces",
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
    effectiveRouterId: z.string().meta({
      description:
        "the router id in force: the configured one, else the highest IPv4 address of " +
        "the IGP interfaces, else 0.0.0.0",
    }),
    neighbors: z.array(Neighbor).meta({ description: "`bgp.neighbors`, in configuration order" }),
    staticRoutes: z.array(StaticRoute).meta({ description: "`routing.staticRoutes`, in configuration order" }),
    igp: z
      .object({ protocol: z.enum(IGP_PROTOCOLS), interfaces: z.array(IgpInterface) })
      .meta({ description: "`igp.protocol` and `igp.interfaces`" }),
  })
  .meta({ id: "RoutingConfig" });

// One entry of the PATCH's whole interface list: its comment is the PATCH's.
const { comment: _comment, ...interfaceFields } = interfaces.bodyFields("replace");
const IgpInterfaceWrite = z
  .strictObject({ name: z.string().meta({ description: "interface name (1-15 characters)" }), ...interfaceFields })
  .meta({ id: "IgpInterfaceWrite" });

const RoutingSettings = z
  .strictObject({
    localAs: configInt("bgp.localAs")
      .nullable()
      .optional()
      .meta({ description: "uint32, 1 or more; null = none (refused while neighbors exist)" }),
    routerId: z.string().nullable().optional().meta({ description: "an IPv4 address; null = derived" }),
    igp: z
      .strictObject({
        protocol: z.enum(IGP_PROTOCOLS).optional(),
        interfaces: z
          .array(IgpInterfaceWrite)
          .max(256)
          .optional()
          .meta({ description: "the whole interface list: interfaces left out are removed" }),
      })
      .optional(),
    comment: Comment,
  })
  .meta({
    id: "RoutingSettings",
    description:
      "a merge: absent members stay as they are, null returns one to its default; a " +
      "given `igp.interfaces` replaces the list",
  });

const neighborFields = {
  ...neighbors.bodyFields("replace"),
  addressFamilies: z
    .array(AfiSafi)
    .max(4)
    .nullable()
    .optional()
    .meta({ description: "absent, null or empty = the unicast family of the address" }),
};
const NeighborCreate = z
  .object({
    address: z.string().min(1).max(255).meta({ description: "the neighbor's IPv4 or IPv6 address: its key" }),
    ...neighborFields,
  })
  .meta({
    id: "BgpNeighborCreate",
    description: "shapes are checked here (400), values by configuration validation (422)",
  });
const NeighborUpdate = z
  .object({
    address: z.string().optional().meta({ description: "ignored: the URL's address wins" }),
    ...neighborFields,
  })
  .meta({
    id: "BgpNeighborUpdate",
    description:
      "a full replacement: attributes left out return to their defaults, except the password, which stays unless given",
  });

// One route of the whole table: its comment is the PUT's.
const { comment: _routeComment, ...staticRouteFields } = staticRoutes.bodyFields("replace");
const StaticRouteWrite = z
  .strictObject({
    vrf: z
      .string()
      .min(1)
      .max(63)
      .default("default")
      .meta({ description: "a configured VRF or `default` (the default)" }),
    prefix: z.string().min(1).max(64).meta({ description: "destination prefix, host bits zero" }),
    ...staticRouteFields,
    nextHop: z.string().min(1).max(64).meta({ description: "gateway address of the prefix's family, or `blackhole`" }),
  })
  .meta({ id: "StaticRouteWrite" });
const StaticRoutes = z
  .strictObject({ routes: z.array(StaticRouteWrite).max(4096), comment: Comment })
  .meta({ id: "StaticRouteTable", description: "the whole table: routes left out are removed" });

const AddressParams = z.object({ address: z.string().min(1).max(255) });

/** The three keyed lists as the section writes and reads them. */
export const routingConfigLists = { neighbors, staticRoutes, interfaces };

const VALIDATION =
  "422 when configuration validation rejects, every rejected value listed " +
  "(`#/lists/bgp.neighbors/<address>/…`): an address that does not parse (or is " +
  "another neighbor's in another spelling), an AS of 0, a hold time of 1-2, a " +
  "keepalive not below the hold time, an unknown address family, or no " +
  "`bgp.localAs` (`#/fields/bgp.localAs`).";
const HOT =
  "Committed through the configuration pipeline and applied at once: the session " +
  "of a new or changed neighbor starts from Idle now and reaches Established " +
  "within 5-45 s of simulated time.";

/** The section's operations. */
export const routingConfig = {
  get: operation({
    method: "GET",
    path: base,
    section,
    summary: "Routing configuration: local AS, router id, BGP neighbors, static routes, IGP",
    description:
      "The configuration's `bgp.*`, `routing.*` and `igp.*` keys in one document (GET " +
      "/api/v1/config holds the same). The BGP password is never returned: " +
      "`passwordConfigured` says whether one is set.",
    fp: true,
    response: { description: "RoutingConfig", schema: RoutingConfig },
    examples: {
      response: {
        localAs: 64500,
        routerId: "10.0.0.2",
        effectiveRouterId: "10.0.0.2",
        neighbors: [
          {
            address: "10.0.255.1",
            remoteAs: 64500,
            description: "route reflector rr1",
            bfd: true,
            addressFamilies: ["ipv4Unicast", "ipv6Unicast"],
            holdTime: 90,
            keepAlive: 30,
            shutdown: false,
            passwordConfigured: false,
          },
          {
            address: "10.0.255.2",
            remoteAs: 64500,
            description: "route reflector rr2",
            bfd: true,
            addressFamilies: ["ipv4Unicast", "ipv6Unicast"],
            holdTime: 90,
            keepAlive: 30,
            shutdown: false,
            passwordConfigured: false,
          },
        ],
        staticRoutes: [
          {
            vrf: "default",
            prefix: "10.250.0.0/16",
            nextHop: "10.1.2.1",
            distance: 1,
            announce: false,
            description: "NOC management network via uplink0",
          },
        ],
        igp: {
          protocol: "ospf",
          interfaces: [
            {
              name: "lo",
              address: "10.0.0.2/32",
              area: "0.0.0.0",
              level: "level-2",
              cost: 1,
              passive: true,
              helloSeconds: 10,
              deadSeconds: 40,
            },
            {
              name: "uplink0",
              address: "10.1.2.0/31",
              area: "0.0.0.0",
              level: "level-2",
              cost: 10,
              passive: false,
              helloSeconds: 10,
              deadSeconds: 40,
            },
          ],
        },
      },
    },
  }),
  update: operation({
    method: "PATCH",
    path: base,
    section,
    summary: "Change the global routing settings: local AS, router id, IGP protocol and interfaces",
    description:
      "A merge: absent members stay, null returns one to its default, a given " +
      "`igp.interfaces` replaces the whole interface list (in the given order). One " +
      "commit, hot-applied: a new local AS or router id restarts every BGP session, a " +
      "new protocol or router id re-forms every adjacency. " +
      ("Unknown members are refused (400). 422 when validation rejects, every rejected " +
        "value listed: `#/fields/bgp.localAs`, `#/fields/routing.routerId`, " +
        "`#/lists/igp.interfaces/<name>/…` (an address that does not parse or is another " +
        "interface's, a dead interval not above the hello interval, an area that is not " +
        "an OSPF area id)."),
    body: RoutingSettings,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [412, 422],
    examples: {
      body: { localAs: 64500, routerId: "10.0.0.2", comment: "router id pinned to the loopback" },
      response: {
        status: "committed",
        committedUtc: "2026-11-26T20:35:13.529Z",
        version: 19,
        restartRequired: false,
        changedPaths: [],
      },
    },
  }),
  createNeighbor: operation({
    method: "POST",
    path: `${base}/bgp/neighbors`,
    section,
    summary: "Add a BGP neighbor",
    description: `409 when a neighbor of that address exists. ${HOT} ${VALIDATION}`,
    body: NeighborCreate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    examples: {
      body: {
        address: "10.0.255.3",
        remoteAs: 64500,
        description: "route reflector rr3",
        bfd: true,
        addressFamilies: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn"],
        comment: "third route reflector",
      },
      response: {
        status: "committed",
        name: "10.0.255.3",
        committedUtc: "2026-11-26T20:35:12.335Z",
        version: 8,
        restartRequired: false,
      },
      errors: { 409: "bgp.neighbors '10.0.255.3' already exists" },
    },
  }),
  replaceNeighbor: operation({
    method: "PUT",
    path: `${base}/bgp/neighbors/{address}`,
    section,
    summary: "Replace a BGP neighbor's settings",
    description:
      `A full replacement (the password stays unless given); the URL's address wins ` +
      `over the body's. 404 for an unknown neighbor (PUT does not ` +
      `create). ${HOT} ${VALIDATION}`,
    params: AddressParams,
    body: NeighborUpdate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    examples: {
      params: { address: "10.0.255.3" },
      body: {
        remoteAs: 64500,
        description: "route reflector rr3",
        bfd: true,
        addressFamilies: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn"],
        holdTime: 90,
        keepAlive: 30,
      },
      response: {
        status: "committed",
        name: "10.0.255.3",
        committedUtc: "2026-11-26T20:35:13.449Z",
        version: 17,
        restartRequired: false,
      },
      errors: { 404: "no bgp.neighbors item '10.0.255.3'" },
    },
  }),
  removeNeighbor: operation({
    method: "DELETE",
    path: `${base}/bgp/neighbors/{address}`,
    section,
    summary: "Remove a BGP neighbor",
    description:
      "404 for an unknown neighbor. The session is torn down at once; with the last " +
      "neighbor (and no GRE customer session) BGP stops: the summary then reads " +
      "`reachable` false. The optional `comment` query parameter goes to the history.",
    params: AddressParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    examples: {
      params: { address: "10.0.255.3" },
      query: { comment: "rr3 decommissioned" },
      response: {
        status: "committed",
        name: "10.0.255.3",
        committedUtc: "2026-11-26T20:35:13.879Z",
        version: 28,
        restartRequired: false,
      },
      errors: { 404: "no bgp.neighbors item '10.0.255.3'" },
    },
  }),
  replaceStaticRoutes: operation({
    method: "PUT",
    path: `${base}/static-routes`,
    section,
    summary: "Replace the static route table",
    description:
      "The whole table, in the given order: routes left out are removed. A route is " +
      "keyed by its VRF and prefix (`routing.staticRoutes` item `<vrf>:<prefix>`); the " +
      "same one twice is refused (400). One commit, hot-applied: the VRF route tables " +
      "and, for `announce` routes, the BGP advertisements follow at once. " +
      ("422 when validation rejects, every rejected value listed under " +
        "`#/lists/routing.staticRoutes/<vrf>:<prefix>/…`: a prefix with host bits set, a " +
        "VRF that is not configured, a next hop of the other family, a distance outside 1-255."),
    body: StaticRoutes,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [412, 422],
    examples: {
      body: {
        routes: [
          {
            vrf: "default",
            prefix: "10.250.0.0/16",
            nextHop: "10.1.2.1",
            distance: 1,
            announce: false,
            description: "NOC management network via uplink0",
          },
          {
            vrf: "default",
            prefix: "10.251.0.0/16",
            nextHop: "10.1.2.3",
            distance: 1,
            announce: false,
            description: "lab network via uplink1",
          },
        ],
        comment: "lab network reachable",
      },
      response: {
        status: "committed",
        committedUtc: "2026-11-26T20:35:13.509Z",
        version: 18,
        restartRequired: false,
        changedPaths: [
          "#/lists/routing.staticRoutes/default:10.251.0.0~116",
          "#/lists/routing.staticRoutes/default:10.251.0.0~116/nextHop",
        ],
      },
    },
  }),
};
