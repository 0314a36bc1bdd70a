/**
 * Fleet: the peers this appliance's running `webUi.peers` names, and what a relay to one of them is judged by; the
 * Worker plans and makes the relay.
 */
import type { Caller } from "../../src/schemas/operation.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";

export function fleetPorts(core: Pick<ApplianceCore, "fleetPeers" | "config">) {
  return {
    appliances: () => core.fleetPeers(),
    // The peer as configured (null when `webUi.peers` names none), and the destination policy's allowlist a relay
    // outside the deployment is judged by.
    read: (_: Caller, peer: string) => ({
      configured: core.fleetPeers().find((p) => p.name === peer) ?? null,
      allowlist: core.config().outboundAllowlist(),
    }),
    // The same for each name of a fan-out read, in order.
    fanOut: (_: Caller, names: string[]) => {
      const peers = new Map(core.fleetPeers().map((p) => [p.name, p]));
      return {
        configured: names.map((name) => peers.get(name) ?? null),
        allowlist: core.config().outboundAllowlist(),
      };
    },
  } satisfies PortsOf<"fleet">;
}
