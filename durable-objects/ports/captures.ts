/** Packet captures: the list, and a capture started or stopped on a session. */
import { captures } from "../../src/schemas/captures.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { answerIn, serves } from "./serves.ts";

export function capturePorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(captures.list, () => dataPlane().model.captures.list()),
    start: serves(captures.start, (caller, { params, body }) =>
      answerIn(
        dataPlane().startCapture(
          params.id,
          body.destinationIp,
          body.maxPackets,
          body.maxDurationSeconds,
          actor(caller),
        ),
        "capture",
      ),
    ),
    stop: serves(captures.stop, (caller, { params }) => {
      const stopped = dataPlane().stopCapture(params.id, actor(caller));
      return stopped.ok ? { status: "stopped" as const, sessionId: stopped.sessionId } : stopped;
    }),
  } satisfies PortsOf<"captures">;
}
