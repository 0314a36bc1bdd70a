/** ACME: the HTTP-01 answer for a token of the appliance's own attempt under way (RFC 8555 §8.3). */
import type { Caller } from "../../src/schemas/operation.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";

export function acmePorts(core: Pick<ApplianceCore, "acme">) {
  return {
    challenge: (_: Caller, token: string) => core.acme().challengeAnswer(token),
  } satisfies PortsOf<"acme">;
}
