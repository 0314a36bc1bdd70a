/** Browser sessions: the caller's view of the sessions open (its own marked), and one ended. */
import type { Caller } from "../../../src/schemas/operation.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { actor, ownSession } from "../caller.ts";

export function browserSessionPorts(core: Pick<ApplianceCore, "identity">) {
  return {
    list: (caller: Caller) => core.identity().listSessions(ownSession(caller)),
    end: (caller: Caller, id: string) => core.identity().endSession(id, actor(caller)),
  } satisfies PortsOf<"browserSessions">;
}
