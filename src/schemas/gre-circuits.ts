/**
 * GRE customer circuits, the wire contract: listeners (the shared local tunnel endpoints) and circuits (a tunnel from a
 * listener to a customer endpoint, delivered into a VRF), the `gre.listeners` and `gre.circuits` keyed lists of the
 * configuration, and the live status.
 */
import { z } from "zod";
import { CommitResult } from "./commit.ts";
import { operation } from "./contract.ts";
import { KeyedList } from "./keyed-list.ts";

const base = "/api/v1/gre-circuits";
const section = "GRE Circuits";

/** The keyed list as the section writes and reads it. */
export const greCircuitList = new KeyedList({
  list: "gre.circuits",
  body: {
    listenerId: "an existing listener's id",
    vrf: "a configured VRF or `default`",
    remote: "IPv4 or IPv6 address, of the listener's family",
    localTunnelAddress: "`address/length`, e.g. 10.255.0.1/30",
    remoteTunnelAddress: "`address/length` in the same subnet, e.g. 10.255.0.2/30",
    description: "free text, at most 255 characters; absent or null = empty",
    peerAsn: "uint32, 1 or more; absent or null = no BGP",
    maximumPrefix: "uint32, 1 or more; absent or null = no limit",
    bfd: null,
    key: "uint32 GRE key (RFC 2890); absent or null = none",
    clampMss: null,
    mtu: "576-9000; absent or null = the underlay's MTU less the 24-byte GRE overhead",
  },
  row: {
    vrf: "customer VRF (`default` = the global table)",
    remote: "customer tunnel endpoint",
    localTunnelAddress: "this end inside the tunnel, `address/length`",
    remoteTunnelAddress: "the far end inside the tunnel, `address/length`",
    peerAsn: "uint32; null = no BGP",
    maximumPrefix: "uint32; null = no limit",
    key: "uint32 GRE key; null = none",
    mtu: "576-9000; null = the underlay's MTU less 24",
  },
});

/** The keyed list as the section writes and reads it. */
export const greListenerList = new KeyedList({
  list: "gre.listeners",
  body: {
    underlayInterface: "interface name; absent or null = none (the route to each remote decides)",
    ttl: "int32 1-255; absent or null = 64",
  },
  row: { underlayInterface: "null = the route to each remote decides", ttl: "1-255" },
});

export const GreCircuit = z.object({ id: z.string(), ...greCircuitList.rowFields() }).meta({
  id: "GreCircuit",
  description: "a circuit's configuration (live state is at GET /api/v1/gre-circuits/status)",
});

const GreCircuitCreate = z
  .object({
    id: z.string().meta({ description: "immutable key; `status` and `listeners` are reserved" }),
    ...greCircuitList.bodyFields("create"),
  })
  .meta({
    id: "GreCircuitCreate",
    description: "shapes are checked here (400), values by configuration validation (422)",
  });
const GreCircuitUpdate = z
  .object({
    id: z.string().optional().meta({ description: "ignored: the URL's id wins" }),
    ...greCircuitList.bodyFields("replace"),
  })
  .meta({
    id: "GreCircuitUpdate",
    description: "a full replacement: optional attributes left out return to their defaults",
  });

export const GreListener = z
  .object({
    id: z.string(),
    ...greListenerList.rowFields(),
    circuits: z.int().min(0).meta({ description: "circuits that reference the listener" }),
  })
  .meta({ id: "GreListener", description: "a shared local tunnel endpoint" });

const GreListenerWrite = z
  .object({
    ...greListenerList.bodyFields("replace"),
    // Required, yet null is taken here so that validation names it (422) as it names every other value.
    localAddress: z.string().nullable().meta({
      description: "required key; an IPv4 or IPv6 address, unique among listeners (null is refused with 422)",
    }),
  })
  .meta({
    id: "GreListenerWrite",
    description: "absent fields take their defaults: the listener is created or replaced as a whole",
  });

const STATES = ["up", "down", "provisioning"] as const;
export const GreCircuitStatus = z
  .object({
    id: z.string(),
    vrf: z.string(),
    circuitState: z.enum(STATES).meta({
      description:
        "`up`: the tunnel is up and, when BGP is configured, the session Established; " +
        "`provisioning` after a (re)provisioning; `down` otherwise",
    }),
    tunnelState: z.enum(STATES).meta({ description: "the GRE tunnel itself" }),
    bfdState: z.enum(["up", "down", "disabled"]).meta({ description: "`disabled` when `bfd` is false" }),
    bgpState: z.enum(["Established", "Active", "Idle", "disabled"]).meta({
      description:
        "`disabled` when `peerAsn` is null; `Idle` while provisioning, after the peer " +
        "exceeded `maximumPrefix`, or while the routing daemon is down (scenario " +
        "`fail-daemon routing`: the circuit is then `down`)",
    }),
    prefixesReceived: z.int().min(0),
    lastChangeUtc: z.iso.datetime().meta({ description: "when any of the four states last changed" }),
  })
  .meta({ id: "GreCircuitStatus" });
export type GreCircuitStatus = z.output<typeof GreCircuitStatus>;

export const GreStatus = z
  .object({
    asOfUtc: z.iso.datetime().meta({ description: "the simulated instant the states are read at" }),
    circuits: z.array(GreCircuitStatus).meta({ description: "in configuration order" }),
  })
  .meta({ id: "GreStatus" });
export type GreStatus = z.output<typeof GreStatus>;

const IdParams = z.object({ id: z.string().min(1).max(255) });
const VrfQuery = z.object({
  vrf: z.string().min(1).max(255).optional().meta({ description: "only circuits in this VRF (exact name)" }),
});

const VALIDATION =
  "422 when validation rejects, every rejected value listed under " +
  "`#/lists/gre.circuits/<id>/…`: an unknown listener, a VRF that is not " +
  "configured (nor `default`), addresses that do not parse, tunnel addresses not " +
  "in one subnet (or equal, or a network/broadcast address), a remote of another " +
  "family than its listener, " +
  ("a tunnel that another circuit already runs (same listener, remote and GRE key), " +
    "a tunnel subnet overlapping another circuit's in the same VRF, or a number out " +
    "of range.");
const HOT =
  "Committed through the configuration pipeline (audited as `config.commit`) and " +
  "applied without restart; a new circuit, or one whose tunnel changed, reads " +
  "`provisioning` in the status for 20-60 s of simulated time.";
const FLOOR = "Floor `operator`: the spec's common rule (GRE circuits are not under a super-user prefix).";

/** The section's operations. */
export const greCircuits = {
  list: operation({
    method: "GET",
    path: base,
    section,
    summary: "GRE circuits (configuration only; live state is at /gre-circuits/status)",
    description:
      "In configuration order. `vrf` keeps only the circuits delivered into that VRF " +
      "(an unknown name gives an empty array).",
    query: VrfQuery,
    response: { description: "array of GreCircuit", schema: z.array(GreCircuit) },
    examples: {
      query: { vrf: "default" },
      response: [
        {
          id: "acme-hq",
          listenerId: "lo-gre",
          vrf: "default",
          remote: "198.51.100.20",
          localTunnelAddress: "172.31.2.0/31",
          remoteTunnelAddress: "172.31.2.1/31",
          description: "ACME Ltd head office (eBGP, BFD)",
          peerAsn: 64510,
          maximumPrefix: 100,
          bfd: true,
          key: null,
          clampMss: true,
          mtu: null,
        },
        {
          id: "initech-dc",
          listenerId: "lo-gre",
          vrf: "default",
          remote: "198.51.100.22",
          localTunnelAddress: "172.31.2.4/31",
          remoteTunnelAddress: "172.31.2.5/31",
          description: "Initech data centre (static routing)",
          peerAsn: null,
          maximumPrefix: null,
          bfd: false,
          key: null,
          clampMss: true,
          mtu: null,
        },
      ],
    },
  }),
  listeners: operation({
    method: "GET",
    path: `${base}/listeners`,
    section,
    summary: "GRE listeners: the shared local tunnel endpoints, with how many circuits use each",
    description:
      "The shared local tunnel endpoints (spec: usually one per box): each listener's " +
      "id, local address, underlay interface, outer TTL and how many circuits " +
      "reference it. A listener cannot be deleted while circuits reference it.",
    response: { description: "array of GreListener", schema: z.array(GreListener) },
    examples: { response: [{ id: "lo-gre", localAddress: "10.0.0.2", underlayInterface: null, ttl: 64, circuits: 3 }] },
  }),
  status: operation({
    method: "GET",
    path: `${base}/status`,
    section,
    summary: "Live state of every GRE circuit: tunnel, BFD, BGP, prefixes received, last change",
    description:
      "Read at the data plane's simulated instant (`asOfUtc`), derived from the " +
      "appliance's seed, the circuit's id and when it was last provisioned: after a " +
      "(re)provisioning the tunnel is `provisioning` for 20-60 s, then up, BGP " +
      "Established 5-30 s later (or `Idle` when the peer advertises more than " +
      "`maximumPrefix`). " +
      ("About one hour in seven a circuit flaps for 20-180 s (never in its first ten " +
        "minutes up): with BFD, BGP drops with the tunnel; without, BGP waits for its 90 " +
        "s hold timer, so a short outage keeps the session. `vrf` filters as on the list."),
    query: VrfQuery,
    response: { description: "GreStatus", schema: GreStatus },
    examples: {
      query: { vrf: "default" },
      response: {
        asOfUtc: "2026-11-26T20:35:10.000Z",
        circuits: [
          {
            id: "acme-hq",
            vrf: "default",
            circuitState: "provisioning",
            tunnelState: "provisioning",
            bfdState: "down",
            bgpState: "Idle",
            prefixesReceived: 0,
            lastChangeUtc: "2026-11-26T20:34:50.000Z",
          },
          {
            id: "initech-dc",
            vrf: "default",
            circuitState: "provisioning",
            tunnelState: "provisioning",
            bfdState: "disabled",
            bgpState: "disabled",
            prefixesReceived: 0,
            lastChangeUtc: "2026-11-26T20:35:10.000Z",
          },
        ],
      },
    },
  }),
  putListener: operation({
    method: "PUT",
    path: `${base}/listeners/{id}`,
    section,
    summary: "Create or replace a GRE listener",
    description:
      `Absent fields take their defaults (underlayInterface none, ttl 64). Changing ` +
      `the local address re-provisions every circuit that references the listener: ` +
      `their status reads \`provisioning\` and their \`lastChangeUtc\` moves. ${FLOOR} ` +
      ("422 when validation rejects, listed under `#/lists/gre.listeners/<id>/…` (an " +
        "address that does not parse or is another listener's, an interface name, a ttl " +
        "outside 1-255), or at the circuits' `remote` when the new address is of another " +
        "family than theirs."),
    params: IdParams,
    body: GreListenerWrite,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [412, 422],
    examples: {
      params: { id: "lo-gre-2" },
      body: { localAddress: "10.0.0.3", ttl: 64, comment: "second GRE listener" },
      response: {
        status: "committed",
        name: "lo-gre-2",
        committedUtc: "2026-11-26T20:35:13.372Z",
        version: 14,
        restartRequired: false,
      },
    },
  }),
  removeListener: operation({
    method: "DELETE",
    path: `${base}/listeners/{id}`,
    section,
    summary: "Delete a GRE listener",
    description:
      `404 for an unknown listener; 409 while circuits still reference it (the refusal ` +
      `names them): delete or move them first. ${FLOOR}`,
    params: IdParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 409, 412],
    examples: {
      params: { id: "lo-gre-2" },
      query: { comment: "listener unused" },
      response: {
        status: "committed",
        name: "lo-gre-2",
        committedUtc: "2026-11-26T20:35:13.781Z",
        version: 24,
        restartRequired: false,
      },
      errors: { 404: "no gre.listeners item 'lo-gre-2'" },
    },
  }),
  create: operation({
    method: "POST",
    path: base,
    section,
    summary: "Create a GRE circuit",
    description: `409 when a circuit of that id exists. ${HOT} ${VALIDATION} ${FLOOR}`,
    body: GreCircuitCreate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    examples: {
      body: {
        id: "initech-dc",
        listenerId: "lo-gre",
        vrf: "default",
        remote: "198.51.100.22",
        localTunnelAddress: "172.31.2.4/31",
        remoteTunnelAddress: "172.31.2.5/31",
        description: "Initech data centre (static routing)",
        comment: "new circuit for Initech",
      },
      response: {
        status: "committed",
        name: "initech-dc",
        committedUtc: "2026-11-26T20:35:12.206Z",
        version: 5,
        restartRequired: false,
      },
      errors: { 409: "gre.circuits 'initech-dc' already exists" },
    },
  }),
  replace: operation({
    method: "PUT",
    path: `${base}/{id}`,
    section,
    summary: "Replace a GRE circuit",
    description:
      `A full replacement; the URL's id wins over the body's. 404 for an unknown ` +
      `circuit (PUT does not create). ${HOT} ${VALIDATION} ${FLOOR}`,
    params: IdParams,
    body: GreCircuitUpdate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    examples: {
      params: { id: "initech-dc" },
      body: {
        listenerId: "lo-gre",
        vrf: "default",
        remote: "198.51.100.22",
        localTunnelAddress: "172.31.2.4/31",
        remoteTunnelAddress: "172.31.2.5/31",
        description: "Initech data centre (static routing)",
        mtu: 1476,
      },
      response: {
        status: "committed",
        name: "initech-dc",
        committedUtc: "2026-11-26T20:35:13.409Z",
        version: 15,
        restartRequired: false,
      },
      errors: { 404: "no gre.circuits item 'initech-dc'" },
    },
  }),
  remove: operation({
    method: "DELETE",
    path: `${base}/{id}`,
    section,
    summary: "Delete a GRE circuit",
    description: `404 for an unknown circuit. The optional \`comment\` query parameter goes to the history. ${FLOOR}`,
    params: IdParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    examples: {
      params: { id: "initech-dc" },
      query: { comment: "Initech circuit ceased" },
      response: {
        status: "committed",
        name: "initech-dc",
        committedUtc: "2026-11-26T20:35:13.844Z",
        version: 25,
        restartRequired: false,
      },
      errors: { 404: "no gre.circuits item 'initech-dc'" },
    },
  }),
};
