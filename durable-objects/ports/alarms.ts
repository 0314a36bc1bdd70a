/** Alarms: the active list, a manual clear, a test notification and the alert sinks' delivery state. */
import { alarms } from "../../src/schemas/alarms.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { serves } from "./serves.ts";

export function alarmPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(alarms.list, () => dataPlane().model.alarms.list()),
    clear: serves(alarms.clear, (caller, { body }) => dataPlane().clearAlarm(body.id, body.instance, actor(caller))),
    // The body is optional (the contract's `bodyOptional`): an empty one tests a major alarm with the default text.
    test: serves(alarms.test, (caller, { body }) =>
      dataPlane().alertTest(body?.severity ?? "major", body?.text ?? null, actor(caller)),
    ),
    sinks: serves(alarms.sinks, () => ({ sinks: dataPlane().alertSinkStates() })),
  } satisfies PortsOf<"alarms">;
}
