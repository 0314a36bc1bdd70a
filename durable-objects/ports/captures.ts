/** Packet captures: the list, and a capture started or stopped on a session (both audited). */
import { captures } from "../../src/schemas/captures.ts";
import { refuse } from "../../src/schemas/outcome.ts";
import { parseAddress, parsePrefix, prefixHas } from "../../simulator/prefix.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

/** Whether the running `captures.mirrorAllowlist` lets mirrored traffic go to `address`; an empty one lets all. */
const allowed = (allowlist: readonly string[], address: NonNullable<ReturnType<typeof parseAddress>>) =>
  allowlist.length === 0 ||
  allowlist.some((entry) => {
    const prefix = parsePrefix(entry, false);
    return prefix !== null && prefixHas(prefix, address.family, address.value);
  });

export function capturePorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(captures.list, () => dataPlane().model.captures.list()),
    start: serves(captures.start, (caller, { params, body }) => {
      const plane = dataPlane();
      const sessionId = params.id;
      const { destinationIp, maxPackets, maxDurationSeconds } = body;
      const address = parseAddress(destinationIp.trim());
      if (!address)
        return refuse("invalid", `destinationIp '${destinationIp}' is not an IP address`, {
          pointer: "#/destinationIp",
        });
      if (!allowed(plane.captureAllowlist, address))
        return refuse("forbidden", `destination ${destinationIp} is not on the capture mirror allowlist`);
      const started = plane.model.startCapture(sessionId, destinationIp, maxPackets, maxDurationSeconds);
      if (!started.ok) return refusalFor(started, { sessionId });
      plane.log("notice", "audit.capture.start", {
        sessionId,
        destinationIp,
        maxPackets,
        maxDurationSeconds,
        actor: actor(caller),
      });
      return started.capture;
    }),
    stop: serves(captures.stop, (caller, { params }) => {
      const sessionId = params.id;
      const stopped = dataPlane().model.stopCapture(sessionId);
      if (!stopped.ok) return refusalFor(stopped, { sessionId });
      dataPlane().log("notice", "audit.capture.stop", { sessionId, actor: actor(caller) });
      return { status: "stopped" as const, sessionId };
    }),
  } satisfies PortsOf<"captures">;
}
