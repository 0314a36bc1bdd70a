/** Sessions: the list, the summary, one session and its rates (all read from the model), and the disconnect. */
import { sessions } from "../../src/schemas/sessions.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import { sessionSteering, type SessionQuery, type SteeringTable } from "../../simulator/index.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

/**
 * A session's detail as the API shows it: the model's, with the source-VRF rule (if any) that steers its traffic as
 * the data plane runs the rules (a local subscriber's session reads the same).
 */
export const steered = <S extends { vrf: string; ipv4: string; ipv6: string | null }>(
  steering: SteeringTable,
  session: S,
) => ({
  ...session,
  steering: sessionSteering(steering, session),
});

export function sessionPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: (_: Caller, query: SessionQuery) => dataPlane().model.sessions.listText(query),
    summary: serves(sessions.summary, () => dataPlane().model.sessions.summary()),
    get: serves(sessions.get, (_, { params }) => {
      const found = dataPlane().model.sessions.detail(params.id);
      return found.ok ? steered(dataPlane().steering, found.session) : refusalFor(found, { sessionId: params.id });
    }),
    rates: serves(sessions.rates, (_, { params }) => {
      const found = dataPlane().model.sessions.rates(params.id);
      return found.ok ? found.rates : refusalFor(found, { sessionId: params.id });
    }),
    // The teardown's entries and the audit entry carry one instant, the act's; its addresses, CGN binding and capture
    // are freed.
    disconnect: serves(sessions.disconnect, (caller, { params }) => {
      const plane = dataPlane();
      return plane.atInstant(plane.eventInstant(), () => {
        const ended = plane.model.disconnect(params.id, "admin-reset");
        if (!ended.ok) return refusalFor(ended, { sessionId: params.id });
        const { sessionId, username } = ended;
        plane.log("notice", "audit.session.disconnect", { sessionId, username, actor: actor(caller) });
        return { status: "disconnected" as const, sessionId };
      });
    }),
  } satisfies PortsOf<"sessions">;
}
