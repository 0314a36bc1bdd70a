/** Alarms: the active list, a manual clear, a test notification and the alert sinks' delivery state. */
import { alarms } from "../../src/schemas/alarms.ts";
import { notification } from "../../simulator/alert-fanout.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { serves } from "./serves.ts";

export function alarmPorts(core: Pick<ApplianceCore, "dataPlane" | "name">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: serves(alarms.list, () => dataPlane().model.alarms.list()),
    // The alarm's clear (and its notification's sentUtc) and the audit entry carry one instant, the act's.
    clear: serves(alarms.clear, (caller, { body }) => {
      const { id, instance } = body;
      const plane = dataPlane();
      return plane.atInstant(plane.eventInstant(), () => {
        const result = plane.model.clearAlarm(id, instance);
        plane.log("notice", "audit.alarm.clear", { id, instance, cleared: result.cleared, actor: actor(caller) });
        return result;
      });
    }),
    // A synthetic alert through the real fan-out, answered with the notification the sinks receive. The body is
    // optional (the contract's `bodyOptional`): an empty one tests a major alarm with the default text. Sent at the
    // instant of the request: the audit entry, `sentUtc` and the alarm's raise agree to the millisecond.
    test: serves(alarms.test, (caller, { body }) => {
      const plane = dataPlane();
      const severity = body?.severity ?? "major";
      const requestedBy = actor(caller);
      const nowMs = plane.eventInstant();
      plane.log("notice", "audit.alarm.test", { severity, actor: requestedBy }, nowMs);
      const alarm = {
        id: "alert.test",
        instance: null,
        severity,
        firstRaisedUtc: new Date(nowMs).toISOString(),
        ageSeconds: 0,
        text: body?.text ?? `Test alert from ${core.name}`,
        context: { requestedBy },
      };
      const sent = notification("test", core.name, nowMs, alarm, plane.model.alarms.list().countBySeverity);
      plane.alert(sent);
      return sent;
    }),
    sinks: serves(alarms.sinks, () => ({ sinks: dataPlane().alertSinkStates() })),
  } satisfies PortsOf<"alarms">;
}
