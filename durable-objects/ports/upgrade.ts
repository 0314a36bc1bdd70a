/**
 * Software upgrade: the status, a package staged (its size judged in the Worker, so an oversized one never crosses)
 * and its apply (spec "System upgrade and diagnostics").
 */
import { upgrade } from "../../src/schemas/upgrade.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { answerIn, serves } from "./serves.ts";

export function upgradePorts(core: Pick<ApplianceCore, "upgrade">) {
  return {
    status: serves(upgrade.status, () => core.upgrade().status()),
    stage: (caller: Caller, bytes: Uint8Array) => core.upgrade().stage(bytes, actor(caller)),
    apply: serves(upgrade.apply, async (caller, { body }) =>
      answerIn(await core.upgrade().apply(body.id, body.drain, actor(caller)), "result"),
    ),
  } satisfies PortsOf<"upgrade">;
}
