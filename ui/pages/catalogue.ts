/**
 * The API's sections as pages: what each reads and which changes it offers,
 * named by the contract's operations. Forms take their fields from the
 * operations' request schemas.
 */
import { contract } from "bngfleet:contract";
import type { SectionSpec } from "./generic.tsx";

export const SECTIONS: Record<string, SectionSpec> = {
  pools: {
    title: "Address pools",
    reads: [{ title: "Pools", operation: contract.addressPools.list }],
    lookups: [{ title: "Allocations of a pool", operation: contract.addressPools.allocations, param: "name" }],
  },
  cgn: {
    title: "CGN",
    reads: [
      { title: "Status", operation: contract.cgn.status },
      { title: "IP groups", operation: contract.cgnConfig.groups },
      { title: "Settings", operation: contract.cgnConfig.settings },
      { title: "Bindings (first page)", operation: contract.cgn.bindings, query: { limit: "50" } },
    ],
    actions: [
      { operation: contract.cgn.identify, title: "Name the subscriber of an anonymous binding" },
      { operation: contract.cgnConfig.putGroup, title: "Create or replace an IP group" },
      { operation: contract.cgnConfig.deleteGroup, title: "Delete an IP group", confirm: "Delete this CGN group?" },
      { operation: contract.cgnConfig.putSettings, title: "Change CGN settings", prefill: contract.cgnConfig.settings },
    ],
  },
  routing: {
    title: "Routing",
    reads: [
      { title: "BGP summary", operation: contract.routing.bgpSummary },
      { title: "IGP", operation: contract.routing.igp },
      { title: "Global route table", operation: contract.routing.vrfRoutes, params: { vrf: "default" }, query: { limit: "50" } },
      { title: "Routing configuration", operation: contract.routingConfig.get },
    ],
    lookups: [
      { title: "BGP neighbor", operation: contract.routing.bgpNeighbor, param: "address" },
      { title: "Routes exchanged with a neighbor (advertised or received)", operation: contract.routing.neighborRoutes, param: "address" },
      { title: "A VRF's route table", operation: contract.routing.vrfRoutes, param: "vrf" },
    ],
    actions: [
      { operation: contract.routingConfig.update, title: "Change routing settings" },
      { operation: contract.routingConfig.createNeighbor, title: "Add a BGP neighbor" },
      { operation: contract.routingConfig.removeNeighbor, title: "Remove a BGP neighbor", confirm: "Remove this BGP neighbor?" },
      { operation: contract.routingConfig.replaceStaticRoutes, title: "Replace the static route table" },
    ],
  },
  l2tp: { title: "L2TP tunnels", reads: [{ title: "Tunnels", operation: contract.l2tp.tunnels }], lookups: [{ title: "Tunnel detail", operation: contract.l2tp.tunnel, param: "id" }] },
  ipsec: { title: "IPsec", reads: [{ title: "Peers", operation: contract.ipsec.status }], lookups: [{ title: "Peer detail", operation: contract.ipsec.peer, param: "name" }] },
  gre: {
    title: "GRE circuits",
    reads: [
      { title: "Status", operation: contract.greCircuits.status },
      { title: "Listeners", operation: contract.greCircuits.listeners },
      { title: "Circuits", operation: contract.greCircuits.list },
    ],
    actions: [
      { operation: contract.greCircuits.putListener, title: "Create or replace a listener" },
      { operation: contract.greCircuits.removeListener, title: "Delete a listener", confirm: "Delete this listener?" },
      { operation: contract.greCircuits.create, title: "Create a circuit" },
      { operation: contract.greCircuits.remove, title: "Delete a circuit", confirm: "Delete this circuit?" },
    ],
  },
  vrfs: {
    title: "VRFs and source-VRF rules",
    reads: [
      { title: "VRFs", operation: contract.vrfs.list },
      { title: "Source-VRF rules", operation: contract.sourceVrfRules.list },
    ],
    actions: [
      { operation: contract.vrfs.create, title: "Create a VRF" },
      { operation: contract.vrfs.remove, title: "Delete a VRF", confirm: "Delete this VRF?" },
      { operation: contract.sourceVrfRules.create, title: "Create a source-VRF rule" },
      { operation: contract.sourceVrfRules.remove, title: "Delete a source-VRF rule", confirm: "Delete this rule?" },
    ],
  },
  "local-subscribers": {
    title: "Local subscribers",
    reads: [{ title: "Local subscribers", operation: contract.localSubscribers.list }],
    actions: [
      { operation: contract.localSubscribers.createIpoe, title: "Add an IPoE subscriber" },
      { operation: contract.localSubscribers.removeIpoe, title: "Remove an IPoE subscriber", confirm: "Remove this subscriber?" },
      { operation: contract.localSubscribers.createPppoe, title: "Add a PPPoE subscriber" },
      { operation: contract.localSubscribers.removePppoe, title: "Remove a PPPoE subscriber", confirm: "Remove this subscriber?" },
    ],
  },
  radius: { title: "RADIUS servers", reads: [{ title: "Servers", operation: contract.radius.servers }] },
  licensing: {
    title: "Licensing",
    reads: [
      { title: "Licence", operation: contract.licensing.status },
      { title: "Telemetry preview", operation: contract.licensing.telemetry },
    ],
    actions: [
      { operation: contract.licensing.activate, title: "Activate" },
      { operation: contract.licensing.renew, title: "Renew now" },
    ],
  },

  users: {
    title: "Users",
    reads: [{ title: "Accounts", operation: contract.users.list }, { title: "Browser sessions", operation: contract.browserSessions.list }],
    actions: [
      { operation: contract.users.create, title: "Create an account" },
      { operation: contract.users.update, title: "Change an account's role" },
      { operation: contract.users.setPassword, title: "Set an account's password" },
      { operation: contract.users.resetTotp, title: "Reset an account's TOTP" },
      { operation: contract.users.unlock, title: "Unlock an account" },
      { operation: contract.users.remove, title: "Delete an account", confirm: "Delete this account?" },
    ],
  },
  oidc: {
    title: "OIDC providers",
    reads: [{ title: "Providers", operation: contract.providers.listOidc }],
    actions: [
      { operation: contract.providers.putOidc, title: "Create or replace a provider" },
      { operation: contract.providers.deleteOidc, title: "Delete a provider", confirm: "Delete this provider?" },
    ],
  },
  "passkey-policy": {
    title: "Passkey policy",
    reads: [{ title: "Policy", operation: contract.providers.getPasskeyPolicy }],
    actions: [{ operation: contract.providers.putPasskeyPolicy, title: "Change the policy", prefill: contract.providers.getPasskeyPolicy }],
  },
};
