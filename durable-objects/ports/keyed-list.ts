/**
 * A keyed list of the configuration as ports: its items with the version they
 * were read at (the Worker's ETag), one item, and commits as the caller (the
 * If-Match it sent is judged in the commit).
 */
import { commitMeta, type ConfigOperation } from "../../src/schemas/commit.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { EditValue } from "../../src/config/edit.ts";
import type { ApplianceCore } from "../core.ts";

export function keyedList(core: Pick<ApplianceCore, "config">, path: string, operation: ConfigOperation) {
  const config = () => core.config();
  const version = () => config().activeVersion().version;
  const read = (key: string) => {
    const found = config().item(path, key);
    return found.ok ? { ...found, version: version() } : found;
  };
  return {
    items: () => ({ items: config().items(path), version: version() }),
    /** One item with the version it was read at (a port of its own as `item`). */
    read,
    item: (_: Caller, key: string) => read(key),
    put:
      (mode: "create" | "replace" | "update" | "upsert") =>
      (caller: Caller, key: string, fields: Record<string, EditValue>, comment: string | null) =>
        config().putItem(path, key, fields, mode, commitMeta(caller, operation, comment)),
    remove: (caller: Caller, key: string, comment: string | null) =>
      config().deleteItem(path, key, commitMeta(caller, operation, comment)),
  };
}
