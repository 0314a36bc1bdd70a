/** Diagnostics: a traced test frame, and a ping from the forwarding plane in a configured VRF. */
import { diagnostics } from "../../src/schemas/diagnostics.ts";
import type { InjectRequest, PingRequest } from "../../src/schemas/diagnostics.ts";
import { refuse } from "../../src/schemas/outcome.ts";
import type { z } from "zod";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

/**
 * Pings from the forwarding plane in a VRF the configuration names (or the global table), sourced from the VRF's own
 * addresses.
 */
function ping(core: Pick<ApplianceCore, "config" | "dataPlane">, request: z.output<typeof PingRequest>) {
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
  const pinged = core
    .dataPlane()
    .model.ping({ destination, vrf: item?.key ?? "default", count, size, dontFragment, timeoutMs, local });
  return pinged.ok ? pinged.result : refusalFor(pinged, { destination });
}

/**
 * Traces a synthetic frame through the pipeline under the running source-VRF rules. A dry run changes nothing;
 * `emit: true` transmits the frame if it reaches the egress (its port counts it), and is audited either way.
 */
function inject(core: Pick<ApplianceCore, "dataPlane">, request: InjectRequest, actor: string) {
  const plane = core.dataPlane();
  const traced = plane.model.inject(request, plane.steering);
  if (!traced.ok) {
    const ports = plane.model.profile.ports.map((p) => p.portId);
    return refusalFor(traced, { port: request.port, ports, source: request.source, destination: request.destination });
  }
  const { result } = traced;
  if (request.emit === true) {
    const last = result.steps[result.steps.length - 1];
    if (result.emitted && last) plane.model.countEmitted(last.a, result.frameBytes);
    plane.log("notice", "audit.diagnostics.inject", {
      port: request.port,
      source: request.source,
      destination: request.destination,
      frameBytes: result.frameBytes,
      emitted: result.emitted,
      egressPortId: result.emitted ? (last?.a ?? null) : null,
      lastStage: last?.stage ?? null,
      verdict: last?.verdict ?? null,
      actor,
    });
  }
  return result;
}

export function diagnosticsPorts(core: Pick<ApplianceCore, "config" | "dataPlane">) {
  return {
    inject: serves(diagnostics.inject, (caller, { body }) => inject(core, body, actor(caller))),
    ping: serves(diagnostics.ping, (_, { body }) => ping(core, body)),
  } satisfies PortsOf<"diagnostics">;
}
