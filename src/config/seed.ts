/**
 * The first configuration of a fresh appliance, from the facts the twin
 * already holds about it. Where a fact lives decides where it is seeded from:
 *
 * | key                        | seeded from                                                                 |
 * |----------------------------|-----------------------------------------------------------------------------|
 * | webUi.listeners            | fleet file: the appliance's `webUi.listener`, as the launcher serves it    |
 * | webUi.hostname             | fleet file: `webUi.hostname` (null when absent)                            |
 * | webUi.peers                | fleet file: `webUi.peers`, url and credential resolved as the proxy does   |
 * | login.users                | `admin` (super-user) with BNG_ADMIN_PASSWORD; an appliance whose accounts   |
 * |                            | predate the key keeps them                                                  |
 * | captures.mirrorAllowlist   | fleet file: `captureMirrorAllowlist`                                       |
 * | alarms.webhookAllowlist    | loopback on the local fleet (BNG_LOCAL_FLEET), else empty                   |
 * | vrfs                       | profile: `vrfs` other than `default`, table ids 100, 101, … in order       |
 * | radius.servers             | profile: `aaa.servers` as `host:port` with their weights, simulated (no    |
 * |                            | secrets: the profile holds none, so they start unset)                       |
 * | addressPools               | profile: `pools`, in order, without their statics (appliance facts that     |
 * |                            | follow the pool of their name)                                              |
 * | cgn.maxBindings, maxFlows  | profile: `cgn.maxBindings`, `cgn.maxFlows`                                  |
 * | cgn.groups                 | profile: `cgn.groups`, their configured half (what runs is then the same)   |
 * | gre.listeners, gre.circuits| nothing (but on the local fleet, below): a listener's local address is an   |
 * |                            | underlay fact neither the fleet file nor the profile holds                  |
 * | bgp.localAs, routing.*,    | a typical edge attachment, numbered from the fleet seed (n = 1 + seed mod   |
 * | igp.*, bgp.neighbors       | 200): AS 64500 (RFC 5398), router id 10.0.0.n on loopback `lo`, OSPF area 0 |
 * |                            | on two /31 uplinks 10.1.n.0/31 and 10.1.n.2/31, and iBGP (BFD on) to the     |
 * |                            | route reflectors 10.0.255.1 and 10.0.255.2 for ipv4Unicast, ipv6Unicast and |
 * |                            | ipv4Vpn: so a fresh appliance's routing reads like a box in service         |
 * | on the local fleet only:   | the demo's in-service configuration (src/config/seed-demo.ts): VRF RDs and  |
 * | vrfs rd/RTs, static route, | route targets, a static route to the NOC, two IPsec peers, a GRE listener   |
 * | ipsec.*, gre.*, source-VRF | on the loopback with two circuits, a source-VRF rule, an IPoE and a PPPoE   |
 * | rule, local subscribers    | local subscriber; deployed appliances keep the registry's defaults          |
 * | everything else            | the registry's defaults (no IPsec, static routes, sinks or rules)          |
 *
 * Seeding happens once; afterwards the stored document is the source of
 * truth and the fleet file's later edits do not reach it.
 */
import type { ApplianceDefinition } from "../../fleet-config/schema.ts";
import type { Profile } from "../../simulator/index.ts";
import { addressPoolItems } from "./address-pools.ts";
import { cgnGroupItems } from "./cgn.ts";
import { defaultDocument } from "./document.ts";
import { addDemoConfiguration } from "./seed-demo.ts";
import type { ConfigDocument } from "./types.ts";
import type { ConfiguredPeer } from "../schemas/fleet.ts";

/** First table id given to the profile's VRFs. */
export const SEED_TABLE_BASE = 100;

export interface SeedSources {
  definition: ApplianceDefinition;
  /** The listener origin the launcher serves, e.g. `https://127.0.0.1:8443`. */
  listener: string;
  peers: ConfiguredPeer[];
  profile: Profile;
  /** The first accounts, passwords already hashed. */
  accounts: { username: string; role: string; passwordHash: string }[];
  /** Served by the local launcher (a developer's machine), not deployed. */
  localFleet: boolean;
}

/** What a local fleet lets webhooks reach besides public addresses: a developer's receiver on this machine. */
export const LOCAL_WEBHOOK_ALLOWLIST = ["127.0.0.0/8", "::1"];

/** The seeded document. */
export function seedDocument(sources: SeedSources): ConfigDocument {
  const { definition, profile } = sources;
  const doc = defaultDocument();
  doc.fields["webUi.listeners"] = [sources.listener];
  doc.fields["webUi.hostname"] = definition.webUi.hostname ?? null;
  doc.fields["captures.mirrorAllowlist"] = [...definition.captureMirrorAllowlist];
  if (sources.localFleet) doc.fields["alarms.webhookAllowlist"] = [...LOCAL_WEBHOOK_ALLOWLIST];
  doc.fields["cgn.maxBindings"] = profile.cgn.maxBindings;
  doc.fields["cgn.maxFlows"] = profile.cgn.maxFlows;
  doc.lists["cgn.groups"] = cgnGroupItems(profile);
  doc.lists["webUi.peers"] = sources.peers.map((peer) => ({
    key: peer.name,
    values: { url: peer.url, credential: peer.credential, timeoutMs: peer.timeoutMs },
  }));
  doc.lists["login.users"] = sources.accounts.map((a) => ({
    key: a.username,
    values: { role: a.role, password: a.passwordHash },
  }));
  doc.lists.vrfs = profile.vrfs
    .filter((vrf) => vrf.name !== "default")
    .map((vrf, i) => ({
      key: vrf.name,
      values: {
        tableId: SEED_TABLE_BASE + i,
        rd: null,
        importRt: [],
        exportRt: [],
        gatewayIp: null,
        gatewayIpv6: null,
        l2tpEndpointIp: null,
        originateDefaultRoute: false,
      },
    }));
  doc.lists.addressPools = addressPoolItems(profile);
  doc.lists["radius.servers"] = profile.aaa.servers.map((server) => ({
    key: server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`,
    values: { weight: Math.min(server.weight, 0xffff), secret: null, transport: "simulated", accountingPort: null },
  }));
  // The appliance's number in the seeded addressing (router id 10.0.0.n, uplinks 10.1.n.0/31 and 10.1.n.2/31).
  const n = 1 + (definition.seed % 200);
  seedRouting(doc, n);
  if (sources.localFleet) addDemoConfiguration(doc, profile, n);
  return doc;
}

/** The local AS of a seeded appliance (a documentation ASN, RFC 5398). */
export const SEED_LOCAL_AS = 64500;
/** The seeded route reflectors. */
export const SEED_ROUTE_REFLECTORS = ["10.0.255.1", "10.0.255.2"] as const;

function seedRouting(doc: ConfigDocument, n: number): void {
  doc.fields["bgp.localAs"] = SEED_LOCAL_AS;
  doc.fields["routing.routerId"] = `10.0.0.${n}`;
  doc.fields["igp.protocol"] = "ospf";
  const igp = (address: string, passive: boolean) => ({
    address,
    area: "0.0.0.0",
    level: "level-2",
    cost: passive ? 1 : 10,
    passive,
    helloSeconds: 10,
    deadSeconds: 40,
  });
  doc.lists["igp.interfaces"] = [
    { key: "lo", values: igp(`10.0.0.${n}/32`, true) },
    { key: "uplink0", values: igp(`10.1.${n}.0/31`, false) },
    { key: "uplink1", values: igp(`10.1.${n}.2/31`, false) },
  ];
  doc.lists["bgp.neighbors"] = SEED_ROUTE_REFLECTORS.map((address, i) => ({
    key: address,
    values: {
      remoteAs: SEED_LOCAL_AS,
      description: `route reflector rr${i + 1}`,
      bfd: true,
      addressFamilies: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn"],
      password: null,
      holdTime: 90,
      keepAlive: 30,
      shutdown: false,
    },
  }));
}
