/** Scenario control (the twin's own API): the state, the faults in force, one action and a whole scenario file. */
import { scenario } from "../../src/schemas/scenario.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { answerIn, serves } from "./serves.ts";

export function scenarioPorts(core: Pick<ApplianceCore, "dataPlane" | "scenario" | "runScenario">) {
  return {
    state: serves(scenario.state, () => core.dataPlane().scenarioState()),
    faults: serves(scenario.faults, () => core.dataPlane().model.faults.inForce()),
    apply: serves(scenario.apply, async (caller, { body }) =>
      answerIn(await core.scenario(body, actor(caller)), "result"),
    ),
    run: serves(scenario.run, async (caller, { body }) =>
      answerIn(await core.runScenario(body, actor(caller)), "result"),
    ),
  } satisfies PortsOf<"scenario">;
}
