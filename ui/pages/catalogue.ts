/**
 * The API's sections as pages: what each reads and which changes it offers.
 * Forms take their fields from the operations' request schemas.
 */
import type { SectionSpec } from "./generic.tsx";

export const SECTIONS: Record<string, SectionSpec> = {
  pools: {
    title: "Address pools",
    reads: [{ title: "Pools", path: "/address-pools" }],
    lookups: [{ title: "Allocations of a pool", path: "/address-pools/{name}/allocations", param: "name" }],
  },
  cgn: {
    title: "CGN",
    reads: [
      { title: "Status", path: "/cgn/status" },
      { title: "IP groups", path: "/cgn/groups" },
      { title: "Settings", path: "/cgn/settings" },
      { title: "Bindings (first page)", path: "/cgn/bindings", query: { limit: "50" } },
    ],
    actions: [
      { method: "POST", path: "/cgn/bindings/{bindingIndex}/identify", title: "Name the subscriber of an anonymous binding" },
      { method: "PUT", path: "/cgn/groups/{name}", title: "Create or replace an IP group" },
      { method: "DELETE", path: "/cgn/groups/{name}", title: "Delete an IP group", confirm: "Delete this CGN group?" },
      { method: "PUT", path: "/cgn/settings", title: "Change CGN settings", prefill: "/cgn/settings" },
    ],
  },
  routing: {
    title: "Routing",
    reads: [
      { title: "BGP summary", path: "/routing/bgp/summary" },
      { title: "IGP", path: "/routing/igp" },
      { title: "Global route table", path: "/routing/vrfs/default/routes", query: { limit: "50" } },
      { title: "Routing configuration", path: "/routing/config" },
    ],
    lookups: [
      { title: "BGP neighbor", path: "/routing/bgp/neighbor/{address}", param: "address" },
      { title: "Routes exchanged with a neighbor (advertised or received)", path: "/routing/bgp/neighbor/{address}/routes", param: "address" },
      { title: "A VRF's route table", path: "/routing/vrfs/{vrf}/routes", param: "vrf" },
    ],
    actions: [
      { method: "PATCH", path: "/routing/config", title: "Change routing settings" },
      { method: "POST", path: "/routing/config/bgp/neighbors", title: "Add a BGP neighbor" },
      { method: "DELETE", path: "/routing/config/bgp/neighbors/{address}", title: "Remove a BGP neighbor", confirm: "Remove this BGP neighbor?" },
      { method: "PUT", path: "/routing/config/static-routes", title: "Replace the static route table" },
    ],
  },
  l2tp: { title: "L2TP tunnels", reads: [{ title: "Tunnels", path: "/l2tp/tunnels" }], lookups: [{ title: "Tunnel detail", path: "/l2tp/tunnels/{id}", param: "id" }] },
  ipsec: { title: "IPsec", reads: [{ title: "Peers", path: "/ipsec" }], lookups: [{ title: "Peer detail", path: "/ipsec/peers/{name}", param: "name" }] },
  gre: {
    title: "GRE circuits",
    reads: [
      { title: "Status", path: "/gre-circuits/status" },
      { title: "Listeners", path: "/gre-circuits/listeners" },
      { title: "Circuits", path: "/gre-circuits" },
    ],
    actions: [
      { method: "PUT", path: "/gre-circuits/listeners/{id}", title: "Create or replace a listener" },
      { method: "DELETE", path: "/gre-circuits/listeners/{id}", title: "Delete a listener", confirm: "Delete this listener?" },
      { method: "POST", path: "/gre-circuits", title: "Create a circuit" },
      { method: "DELETE", path: "/gre-circuits/{id}", title: "Delete a circuit", confirm: "Delete this circuit?" },
    ],
  },
  vrfs: {
    title: "VRFs and source-VRF rules",
    reads: [
      { title: "VRFs", path: "/vrfs" },
      { title: "Source-VRF rules", path: "/source-vrf-rules" },
    ],
    actions: [
      { method: "POST", path: "/vrfs", title: "Create a VRF" },
      { method: "DELETE", path: "/vrfs/{name}", title: "Delete a VRF", confirm: "Delete this VRF?" },
      { method: "POST", path: "/source-vrf-rules", title: "Create a source-VRF rule" },
      { method: "DELETE", path: "/source-vrf-rules/{name}", title: "Delete a source-VRF rule", confirm: "Delete this rule?" },
    ],
  },
  "local-subscribers": {
    title: "Local subscribers",
    reads: [{ title: "Local subscribers", path: "/subscribers/local" }],
    actions: [
      { method: "POST", path: "/subscribers/local/ipoe", title: "Add an IPoE subscriber" },
      { method: "DELETE", path: "/subscribers/local/ipoe/{key}", title: "Remove an IPoE subscriber", confirm: "Remove this subscriber?" },
      { method: "POST", path: "/subscribers/local/pppoe", title: "Add a PPPoE subscriber" },
      { method: "DELETE", path: "/subscribers/local/pppoe/{username}", title: "Remove a PPPoE subscriber", confirm: "Remove this subscriber?" },
    ],
  },
  radius: { title: "RADIUS servers", reads: [{ title: "Servers", path: "/radius/servers" }] },
  licensing: {
    title: "Licensing",
    reads: [
      { title: "Licence", path: "/licensing" },
      { title: "Telemetry preview", path: "/licensing/telemetry" },
    ],
    actions: [
      { method: "POST", path: "/licensing/activate", title: "Activate" },
      { method: "POST", path: "/licensing/renew", title: "Renew now" },
    ],
  },

  users: {
    title: "Users",
    reads: [{ title: "Accounts", path: "/auth/users" }, { title: "Browser sessions", path: "/auth/sessions" }],
    actions: [
      { method: "POST", path: "/auth/users", title: "Create an account" },
      { method: "PATCH", path: "/auth/users/{username}", title: "Change an account's role" },
      { method: "PUT", path: "/auth/users/{username}/password", title: "Set an account's password" },
      { method: "POST", path: "/auth/users/{username}/totp/reset", title: "Reset an account's TOTP" },
      { method: "POST", path: "/auth/users/{username}/unlock", title: "Unlock an account" },
      { method: "DELETE", path: "/auth/users/{username}", title: "Delete an account", confirm: "Delete this account?" },
    ],
  },
  oidc: {
    title: "OIDC providers",
    reads: [{ title: "Providers", path: "/auth/providers/oidc" }],
    actions: [
      { method: "PUT", path: "/auth/providers/oidc/{name}", title: "Create or replace a provider" },
      { method: "DELETE", path: "/auth/providers/oidc/{name}", title: "Delete a provider", confirm: "Delete this provider?" },
    ],
  },
  "passkey-policy": {
    title: "Passkey policy",
    reads: [{ title: "Policy", path: "/auth/providers/passkey" }],
    actions: [{ method: "PUT", path: "/auth/providers/passkey", title: "Change the policy", prefill: "/auth/providers/passkey" }],
  },
};
