/** Diagnostics: a traced test frame, and a ping from the forwarding plane in a configured VRF. */
import { diagnostics } from "../../src/schemas/diagnostics.ts";
import type { PingRequest } from "../../src/schemas/diagnostics.ts";
import { refuse } from "../../src/schemas/outcome.ts";
import type { z } from "zod";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { answerIn, serves } from "./serves.ts";

/**
 * Pings from the forwarding plane in a VRF the configuration names (or the global table), sourced from the VRF's own
 * addresses.
 */
async function ping(core: Pick<ApplianceCore, "config" | "dataPlane">, request: z.output<typeof PingRequest>) {
  const wanted = request.vrf ?? "default";
  const item = core
    .config()
    .items("vrfs")
    .find((i) => i.key.toLowerCase() === wanted.toLowerCase());
  if (!item && wanted.toLowerCase() !== "default")
    return refuse("not-found", `no VRF '${wanted}' (configured VRFs and \`default\` only)`);
  const local = item
    ? ["gatewayIp", "gatewayIpv6", "l2tpEndpointIp"]
        .map((k): unknown => item.values[k])
        .filter((v): v is string => typeof v === "string" && v !== "")
    : [];
  const { destination, count, size, dontFragment, timeoutMs } = request;
  return core
    .dataPlane()
    .ping({ destination, vrf: item?.key ?? "default", count, size, dontFragment, timeoutMs, local });
}

export function diagnosticsPorts(core: Pick<ApplianceCore, "config" | "dataPlane">) {
  return {
    inject: serves(diagnostics.inject, (caller, { body }) =>
      answerIn(core.dataPlane().inject(body, actor(caller)), "result"),
    ),
    ping: serves(diagnostics.ping, async (_, { body }) => answerIn(await ping(core, body), "result")),
  } satisfies PortsOf<"diagnostics">;
}
