/**
 * CGN configuration: the groups (the `cgn.groups` keyed list) and the global caps, each read beside the running
 * groups (allocators are built at start-up, so a change waits for the next one).
 */
import { commitMeta } from "../../src/schemas/commit.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";

/** The configuration's CGN groups (their rows are built by src/config/cgn.ts, not a KeyedList). */
const CGN_GROUPS = "cgn.groups";

export function cgnConfigPorts(core: Pick<ApplianceCore, "config" | "dataPlane">) {
  const config = () => core.config();
  const running = () => core.dataPlane().runningCgn();
  const groups = keyedList(core, CGN_GROUPS, "cgn-group");
  return {
    // The configured groups beside the running ones, read at one instant.
    groups: () => ({ ...groups.items(), running: running() }),
    group: (caller: Caller, name: string) => {
      const found = groups.item(caller, name);
      return found.ok ? { ...found, running: running() } : found;
    },
    putGroup: groups.put("upsert"),
    deleteGroup: groups.remove,
    settings: () => ({
      maxBindings: Number(config().field("cgn.maxBindings")),
      maxFlows: Number(config().field("cgn.maxFlows")),
      running: running(),
      version: config().activeVersion().version,
    }),
    putSettings: (
      caller: Caller,
      fields: { maxBindings: number; maxFlows: number },
      comment: string | null | undefined,
    ) =>
      config().setFields(
        { "cgn.maxBindings": String(fields.maxBindings), "cgn.maxFlows": String(fields.maxFlows) },
        commitMeta(caller, "cgn-settings", comment),
      ),
  } satisfies PortsOf<"cgnConfig">;
}
