/** CGN: the bindings page, the status, and a binding identified to its subscriber. */
import { cgn } from "../../src/schemas/cgn.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { BindingQuery } from "../../simulator/cgn.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor, encoded } from "./caller.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

export function cgnPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    // A page of bindings crosses as the JSON text it is sent as: a string crosses RPC far cheaper than the objects.
    bindings: (_: Caller, query: BindingQuery) => encoded(dataPlane().model.cgn.bindings(query)),
    status: serves(cgn.status, () => dataPlane().cgnStatus()),
    // Identify events per port block come from the model; the act is audited.
    identify: serves(cgn.identify, (caller, { params, body }) => {
      const { bindingIndex } = params;
      const { subscriberId } = body;
      const identified = dataPlane().model.identifyBinding(bindingIndex, subscriberId);
      if (!identified.ok) return refusalFor(identified, { bindingIndex });
      dataPlane().log("notice", "audit.cgn.identify", { bindingIndex, subscriberId, actor: actor(caller) });
      return identified.binding;
    }),
  } satisfies PortsOf<"cgn">;
}
