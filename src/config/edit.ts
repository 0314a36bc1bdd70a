/**
 * Applying a change to a candidate document: field writes and keyed-list
 * operations, each decoded against the registry. Every rejected value is
 * collected (the candidate keeps the old value there) so one answer can list
 * them all; only a broken expectation (create an item that exists, replace or
 * delete one that does not) stops the edit, because it is a conflict with the
 * current state rather than a bad value.
 */
import {
  cloneDocument,
  decode,
  fieldPointer,
  hasRedactedUserinfo,
  itemDefaults,
  listPointer,
  redactUserinfo,
  type ConfigError,
} from "./document.ts";
import type { ConfigDocument } from "./types.ts";
import type { z } from "zod";
import type { ConfigChangeSet } from "../schemas/config.ts";
import { REDACTED, configKey, type ListKey } from "./registry.ts";

/** A written value: text (list-mode fields split it), the elements of a list-mode field, or null to clear. */
export type EditValue = string | string[] | null;

export type Edit =
  | { op: "field"; path: string; value: EditValue }
  | {
      op: "item";
      listPath: string;
      key: string;
      delete?: boolean;
      fields?: Record<string, EditValue>;
      /** `absent`: refuse (conflict) if the item exists; `present`: refuse (not found) if it does not. */
      expect?: "absent" | "present";
      /** Start from the defaults instead of the item's current values (a full replacement). */
      replace?: boolean;
    };

export type EditOutcome =
  | { ok: true; candidate: ConfigDocument; errors: ConfigError[] }
  | { ok: false; reason: "conflict" | "not-found"; detail: string };

export interface EditOptions {
  /** Allows writing keys that a dedicated operation manages (the certificate upload). */
  managed?: boolean;
}

/** The wire ConfigChangeSet as edits: fields first, then list operations in order. */
export function changeSetEdits(change: z.output<typeof ConfigChangeSet>): Edit[] {
  return [
    ...Object.entries(change.fields ?? {}).map(([path, value]): Edit => ({ op: "field", path, value })),
    ...(change.listOps ?? []).map(
      (op): Edit => ({
        op: "item",
        listPath: op.listPath,
        key: op.key,
        delete: op.delete ?? false,
        fields: op.fields ?? {},
      }),
    ),
  ];
}

/** Applies edits to a copy of `doc`. */
export function applyEdits(doc: ConfigDocument, edits: Edit[], options: EditOptions = {}): EditOutcome {
  const candidate = cloneDocument(doc);
  const errors: ConfigError[] = [];
  for (const edit of edits) {
    if (edit.op === "field") {
      const pointer = fieldPointer(edit.path);
      const key = configKey(edit.path);
      if (!key) {
        errors.push({ pointer, detail: `unknown configuration path '${edit.path}' (see GET /api/v1/config/schema)` });
      } else if (key.kind === "list") {
        errors.push({ pointer, detail: `'${edit.path}' is a keyed list: change it with listOps` });
      } else if (key.managedBy && !options.managed && edit.value !== null) {
        errors.push({ pointer, detail: `set through ${key.managedBy}; a change set may only clear it (null)` });
      } else if (!(key.secret && edit.value === REDACTED)) {
        const decoded = decode(key, edit.value);
        if (decoded.ok) candidate.fields[edit.path] = decoded.value;
        else errors.push({ pointer, detail: decoded.detail });
      }
      continue;
    }
    const key = configKey(edit.listPath);
    if (!key || key.kind !== "list") {
      const detail = key
        ? `'${edit.listPath}' is a field, not a keyed list: set it under fields`
        : `unknown list '${edit.listPath}' (see GET /api/v1/config/schema)`;
      errors.push({ pointer: listPointer(edit.listPath), detail });
      continue;
    }
    const refused = editItem(candidate, key, edit, errors);
    if (refused) return refused;
  }
  return { ok: true, candidate, errors };
}

/** A secret whose destination changed is dropped unless this change wrote it (the placeholder does not count). */
function dropMovedSecrets(
  list: ListKey,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  written: Record<string, EditValue>,
): void {
  for (const [secret, destinations] of Object.entries(list.secretFollows ?? {})) {
    const moved = destinations.some(
      (child) => JSON.stringify(before[child] ?? null) !== JSON.stringify(after[child] ?? null),
    );
    const rewritten = secret in written && written[secret] !== REDACTED;
    if (moved && !rewritten) after[secret] = null;
  }
}

function editItem(
  candidate: ConfigDocument,
  list: ListKey,
  edit: Extract<Edit, { op: "item" }>,
  errors: ConfigError[],
): Extract<EditOutcome, { ok: false }> | null {
  const items = (candidate.lists[list.path] ??= []);
  const itemPointer = listPointer(list.path, edit.key);
  const validKey = list.key.schema.safeParse(edit.key);
  if (!validKey.success) {
    errors.push({
      pointer: itemPointer,
      detail: `${list.key.name}: ${validKey.error.issues[0]?.message ?? "invalid"}`,
    });
    return null;
  }
  const index = items.findIndex((item) => item.key === edit.key);
  const existing = index >= 0 ? items[index]! : undefined;
  if (edit.expect === "absent" && existing)
    return { ok: false, reason: "conflict", detail: `${list.path} '${edit.key}' already exists` };
  if (edit.expect === "present" && !existing)
    return { ok: false, reason: "not-found", detail: `no ${list.path} item '${edit.key}'` };
  if (edit.delete) {
    if (existing) items.splice(index, 1);
    else errors.push({ pointer: itemPointer, detail: `no ${list.path} item '${edit.key}' to delete` });
    return null;
  }
  const values = existing && !edit.replace ? { ...existing.values } : itemDefaults(list);
  for (const [child, value] of Object.entries(edit.fields ?? {})) {
    const spec = list.children[child];
    const pointer = listPointer(list.path, edit.key, child);
    if (!spec) {
      errors.push({
        pointer,
        detail: `unknown field of ${list.path} items; known: ${Object.keys(list.children).join(", ")}`,
      });
    } else if (spec.secret && value === REDACTED) {
      // The placeholder leaves the stored secret as it is, even in a replacement.
      values[child] = existing?.values[child] ?? null;
    } else if (spec.type === "url" && typeof value === "string" && hasRedactedUserinfo(value)) {
      // A URL read back with its user part redacted: the stored one stands if nothing else changed.
      const stored = existing?.values[child];
      if (typeof stored === "string" && redactUserinfo(stored) === value) values[child] = stored;
      else
        errors.push({
          pointer,
          detail:
            `'${REDACTED}@' stands for the stored user part and can only be sent back with ` +
            `the rest of the URL unchanged; write the user part in full`,
        });
    } else {
      const decoded = decode(spec, value);
      if (decoded.ok) values[child] = decoded.value;
      else errors.push({ pointer, detail: decoded.detail });
    }
  }
  if (existing) dropMovedSecrets(list, existing.values, values, edit.fields ?? {});
  if (existing) items[index] = { key: edit.key, values };
  else items.push({ key: edit.key, values });
  return null;
}
