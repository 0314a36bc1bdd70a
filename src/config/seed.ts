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
 * | vrfs                       | profile: `vrfs` other than `default`, table ids 100, 101, … in order       |
 * | radius.servers             | profile: `aaa.servers` as `host:port` with their weights (no secrets: the  |
 * |                            | profile holds none, so they start unset)                                    |
 * | addressPools               | profile: `pools`, in order, without their statics (appliance facts that     |
 * |                            | follow the pool of their name)                                              |
 * | cgn.maxBindings, maxFlows  | profile: `cgn.maxBindings`, `cgn.maxFlows`                                  |
 * | cgn.groups                 | profile: `cgn.groups`, their configured half (what runs is then the same)   |
 * | gre.listeners, gre.circuits| nothing: a listener's local address is an underlay fact neither the fleet    |
 * |                            | file nor the profile holds, so a fresh appliance has no GRE circuits       |
 * | everything else            | the registry's defaults (no IPsec, BGP neighbors, sinks or rules)          |
 *
 * Seeding happens once; afterwards the stored document is the source of
 * truth and the fleet file's later edits do not reach it.
 */
import type { ApplianceDefinition } from "../../fleet-config/schema.ts";
import type { Profile } from "../../simulator/index.ts";
import { addressPoolItems } from "./address-pools.ts";
import { cgnGroupItems } from "./cgn.ts";
import { defaultDocument, type ConfigDocument } from "./document.ts";

/** First table id given to the profile's VRFs. */
export const SEED_TABLE_BASE = 100;

export interface SeedSources {
  definition: ApplianceDefinition;
  /** The listener origin the launcher serves, e.g. `https://127.0.0.1:8443`. */
  listener: string;
  peers: { name: string; url: string; credential: string | null; timeoutMs: number }[];
  profile: Profile;
  /** The first accounts, passwords already hashed. */
  accounts: { username: string; role: string; passwordHash: string }[];
}

/** The seeded document. */
export function seedDocument(sources: SeedSources): ConfigDocument {
  const { definition, profile } = sources;
  const doc = defaultDocument();
  doc.fields["webUi.listeners"] = [sources.listener];
  doc.fields["webUi.hostname"] = definition.webUi.hostname ?? null;
  doc.fields["captures.mirrorAllowlist"] = [...definition.captureMirrorAllowlist];
  doc.fields["cgn.maxBindings"] = profile.cgn.maxBindings;
  doc.fields["cgn.maxFlows"] = profile.cgn.maxFlows;
  doc.lists["cgn.groups"] = cgnGroupItems(profile);
  doc.lists["webUi.peers"] = sources.peers.map((peer) => ({
    key: peer.name,
    values: { url: peer.url, credential: peer.credential, timeoutMs: peer.timeoutMs },
  }));
  doc.lists["login.users"] = sources.accounts.map((a) => ({ key: a.username, values: { role: a.role, password: a.passwordHash } }));
  doc.lists.vrfs = profile.vrfs
    .filter((vrf) => vrf.name !== "default")
    .map((vrf, i) => ({
      key: vrf.name,
      values: { tableId: SEED_TABLE_BASE + i, rd: null, importRt: [], exportRt: [], gatewayIp: null, gatewayIpv6: null, l2tpEndpointIp: null, originateDefaultRoute: false },
    }));
  doc.lists.addressPools = addressPoolItems(profile);
  doc.lists["radius.servers"] = profile.aaa.servers.map((server) => ({
    key: server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`,
    values: { weight: Math.min(server.weight, 0xffff), secret: null },
  }));
  return doc;
}
