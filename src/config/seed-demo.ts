/**
 * What the local demo fleet (`npm start`, BNG_LOCAL_FLEET) adds to a fresh
 * appliance's seed: the configuration an operator gives a box once it is in
 * service, which no fleet-file or profile fact supplies, so that every page of
 * the web UI has something to show (issue #24). Numbered from the fleet seed
 * like the seeded routing (n = 1 + seed mod 200, router id 10.0.0.n), and
 * built only from what every valid profile has (its first port, plans and
 * realm; a VRF other than `default` where one is needed), so it validates
 * for any profile.
 *
 * Deployed appliances (and the worker tests, which count from an empty
 * section) keep these sections at the registry's defaults: there, customers,
 * tunnels and keys are the operator's to configure (docs/simulation.md, The
 * demo fleet).
 */
import type { Profile } from "../../simulator/index.ts";
import { itemDefaults } from "./document.ts";
import { configKey, type ListKey } from "./registry.ts";
import type { ConfigDocument, ConfigItem, Value } from "./types.ts";

/** An item of a list with the registry's defaults for the children not given. */
function item(list: string, key: string, values: Record<string, Value>): ConfigItem {
  return { key, values: { ...itemDefaults(configKey(list) as ListKey), ...values } };
}

/**
 * A pre-shared key or password of 32 random hex digits: never derived from the seed, which is public (the fleet file).
 * Write-only once stored.
 */
const newSecret = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Adds the demo's in-service configuration to a document whose routing is seeded already (appliance number `n`, router
 * id 10.0.0.n).
 */
export function addDemoConfiguration(doc: ConfigDocument, profile: Profile, n: number): void {
  const routerId = String(doc.fields["routing.routerId"]);
  const localAs = String(doc.fields["bgp.localAs"]);
  const customerVrf = profile.vrfs.findLast((vrf) => vrf.name !== "default")?.name ?? null;

  // L3VPN: each VRF its RD and route target, so ipv4Vpn carries its routes and the route reflectors send its remote
  // sites.
  for (const vrf of doc.lists.vrfs ?? []) {
    const id = `${localAs}:${String(vrf.values.tableId)}`;
    Object.assign(vrf.values, { rd: id, importRt: [id], exportRt: [id] });
  }
  // The NOC's management network, behind the first uplink's far end (10.1.n.1 of 10.1.n.0/31).
  doc.lists["routing.staticRoutes"] = [
    item("routing.staticRoutes", "default:10.250.0.0/16", {
      nextHop: `10.1.${n}.1`,
      description: "NOC management network via uplink0",
    }),
  ];

  // Site-to-site IPsec from the loopback (ipsec.localAddress null = the router id): the NOC over IKEv2, a partner over
  // IKEv1.
  doc.fields["ipsec.enabled"] = true;
  doc.lists["ipsec.peers"] = [
    item("ipsec.peers", "noc-vpn", {
      remoteAddress: "198.51.100.10",
      psk: newSecret(),
      localTs: [`${routerId}/32`],
      remoteTs: ["10.250.0.0/16"],
    }),
    item("ipsec.peers", "partner-mgmt", {
      remoteAddress: "vpn.partner.example",
      remoteId: "vpn.partner.example",
      ikeVersion: 1,
      psk: newSecret(),
      ikeProposal: "aes256-sha256-modp2048",
      espProposal: "aes256-sha256",
      localTs: [`${routerId}/32`],
      remoteTs: ["172.16.40.0/24"],
    }),
  ];

  // GRE from the loopback: a business customer with eBGP and BFD in the global table, a static one in the customer VRF.
  doc.lists["gre.listeners"] = [item("gre.listeners", "lo-gre", { localAddress: routerId })];
  doc.lists["gre.circuits"] = [
    item("gre.circuits", "acme-hq", {
      listenerId: "lo-gre",
      vrf: "default",
      remote: "198.51.100.20",
      localTunnelAddress: `172.31.${n}.0/31`,
      remoteTunnelAddress: `172.31.${n}.1/31`,
      description: "ACME Ltd head office (eBGP, BFD)",
      peerAsn: 64510,
      maximumPrefix: 100,
      bfd: true,
    }),
    item("gre.circuits", "globex-branch", {
      listenerId: "lo-gre",
      vrf: customerVrf ?? "default",
      remote: "198.51.100.21",
      localTunnelAddress: `172.31.${n}.2/31`,
      remoteTunnelAddress: `172.31.${n}.3/31`,
      description: "Globex branch (static routing)",
      key: 1001,
    }),
  ];

  // Traffic from a partner's NOC prefix in the customer VRF reaches the global table's services (no NAT).
  if (customerVrf !== null) {
    doc.lists.sourceVrfRules = [
      item("sourceVrfRules", "partner-noc", {
        ingestVrf: customerVrf,
        sourceSubnets: ["10.200.0.0/24"],
        targetVrf: "default",
      }),
    ];
  }

  // Local subscribers (answered without RADIUS): a business IPoE line on the first port, and a PPPoE login.
  const port = profile.ports[0]!;
  const realm =
    profile.identities.realms.find(
      (r) => r.weight > 0 && (r.encaps.includes("ipoe") || r.encaps.includes("pppoe-local")),
    ) ?? profile.identities.realms[0]!;
  const plan = profile.plans.at(-1)!.name;
  const [sVlan, vlan] = [port.vlans.svlanFirst, port.vlans.cvlanFirst];
  doc.lists["subscribers.local.ipoe"] = [
    item("subscribers.local.ipoe", `${port.portId}:${sVlan}:${vlan}`, {
      port: port.portId,
      sVlan,
      vlan,
      option82CircuitId: `demo-business-${n}`,
      vrfName: realm.vrf,
      planName: plan,
    }),
  ];
  doc.lists["subscribers.local.pppoe"] = [
    item("subscribers.local.pppoe", `noc-test@${realm.domain}`, {
      password: newSecret(),
      vrfName: realm.vrf,
      planName: plan,
    }),
  ];
}
