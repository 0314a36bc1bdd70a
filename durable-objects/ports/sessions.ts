/** Sessions: the list, the summary, one session and its rates (all read from the model), and the disconnect. */
import { sessions } from "../../src/schemas/sessions.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { SessionQuery } from "../../simulator/index.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { answerIn, serves } from "./serves.ts";

export function sessionPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    list: (_: Caller, query: SessionQuery) => dataPlane().model.sessions.listText(query),
    summary: serves(sessions.summary, () => dataPlane().model.sessions.summary()),
    get: serves(sessions.get, (_, { params }) => answerIn(dataPlane().sessionDetail(params.id), "session")),
    rates: serves(sessions.rates, (_, { params }) => answerIn(dataPlane().sessionRates(params.id), "rates")),
    disconnect: serves(sessions.disconnect, (caller, { params }) => {
      const ended = dataPlane().disconnect(params.id, actor(caller));
      return ended.ok ? { status: "disconnected" as const, sessionId: ended.sessionId } : ended;
    }),
  } satisfies PortsOf<"sessions">;
}
