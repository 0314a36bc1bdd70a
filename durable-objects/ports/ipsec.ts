/**
 * IPsec: the IKE daemon's peers and SAs (the spec's IpsecStatus and IpsecPeerStatus), derived at the simulated instant
 * from `ipsec.enabled` and `ipsec.peers`. Pre-shared keys are never part of any answer; an unreachable daemon is not an
 * error (spec Errors 3).
 */
import { ipsec } from "../../src/schemas/ipsec.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { answerIn, serves } from "./serves.ts";

export function ipsecPorts(core: Pick<ApplianceCore, "ipsec">) {
  return {
    status: serves(ipsec.status, () => core.ipsec().status()),
    peer: serves(ipsec.peer, (_, { params }) => answerIn(core.ipsec().peer(params.name), "peer")),
  } satisfies PortsOf<"ipsec">;
}
