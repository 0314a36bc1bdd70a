/**
 * The configuration document: typed values for every key of the registry,
 * their text form on the wire (ConfigValues), the pointers that name them in
 * 422 answers and the history, and the difference between two documents.
 *
 * Pointers are JSON Pointers (RFC 6901) into the document as GET /config
 * shows it, with keyed-list items addressed by key rather than index:
 * `#/fields/webUi.hostname`, `#/lists/vrfs/cust-a` (an item),
 * `#/lists/vrfs/cust-a/tableId` (a child).
 */
import { CONFIG_KEYS, REDACTED, isIntegerType, type FieldSpec, type ListKey } from "./registry.ts";
import type { ConfigDocument, Value } from "./types.ts";
import type { ConfigChange, ConfigValues } from "../schemas/config.ts";

/** A rejected value and why. */
export interface ConfigError {
  pointer: string;
  detail: string;
}

const escape = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** The pointer of a field, a list, a list item or an item's child. */
export const fieldPointer = (path: string): string => `#/fields/${escape(path)}`;
export const listPointer = (list: string, key?: string, child?: string): string =>
  `#/lists/${escape(list)}${key === undefined ? "" : `/${escape(key)}`}` +
  `${child === undefined ? "" : `/${escape(child)}`}`;

const copy = (value: Value): Value => (Array.isArray(value) ? [...value] : value);

/** A new item's children: defaults, null where a value is required. */
export function itemDefaults(list: ListKey): Record<string, Value> {
  return Object.fromEntries(Object.entries(list.children).map(([child, spec]) => [child, copy(spec.default)]));
}

/** Every field at its default and every list empty. */
export function defaultDocument(): ConfigDocument {
  const doc: ConfigDocument = { fields: {}, lists: {} };
  for (const key of CONFIG_KEYS) {
    if (key.kind === "field") doc.fields[key.path] = copy(key.default);
    else doc.lists[key.path] = [];
  }
  return doc;
}

/**
 * A stored document fitted to the current registry: keys it no longer knows
 * are dropped, keys added since take their defaults (so an older history
 * version can still be rolled back to).
 */
export function normalise(stored: Partial<ConfigDocument>): ConfigDocument {
  const doc = defaultDocument();
  for (const key of CONFIG_KEYS) {
    if (key.kind === "field") {
      if (stored.fields && key.path in stored.fields) doc.fields[key.path] = copy(stored.fields[key.path] ?? null);
    } else {
      doc.lists[key.path] = (stored.lists?.[key.path] ?? []).map((item) => ({
        key: item.key,
        values: Object.fromEntries(
          Object.keys(key.children).map((child) => [child, copy(item.values[child] ?? key.children[child]!.default)]),
        ),
      }));
    }
  }
  return doc;
}

/** A deep copy, for a candidate to edit. */
export const cloneDocument = (doc: ConfigDocument): ConfigDocument => structuredClone(doc);

export type Decoded = { ok: true; value: Value } | { ok: false; detail: string };

/** Splits list-mode text: elements separated by newlines or commas, blanks dropped. */
const splitList = (input: string | string[]): string[] =>
  (Array.isArray(input) ? input : input.split(/[\r\n,]+/))
    .map((element) => element.trim())
    .filter((element) => element !== "");

function decodeScalar(spec: FieldSpec, raw: string): Decoded {
  let candidate: unknown = spec.secret ? raw : raw.trim();
  if (isIntegerType(spec.type)) {
    // A sign is read, so a negative value is told its range rather than its syntax.
    if (!/^-?\d+$/.test(raw.trim())) return { ok: false, detail: `must be a decimal integer (${spec.type})` };
    candidate = Number(raw.trim());
  } else if (spec.type === "boolean") {
    const lower = raw.trim().toLowerCase();
    if (lower !== "true" && lower !== "false") return { ok: false, detail: "must be true or false" };
    candidate = lower === "true";
  }
  const parsed = spec.schema.safeParse(candidate);
  return parsed.success
    ? { ok: true, value: parsed.data as Value }
    : { ok: false, detail: parsed.error.issues[0]?.message ?? "invalid" };
}

/**
 * Reads a written value. null clears the field back to its default; an empty
 * string clears a field whose default is null; list-mode fields take
 * newline- or comma-separated elements (or an array) and replace the list.
 */
export function decode(spec: FieldSpec, input: string | string[] | null): Decoded {
  if (input === null) return { ok: true, value: copy(spec.default) };
  if (spec.listMode) {
    const elements = [...new Set(splitList(input))];
    const problems: string[] = [];
    for (const element of elements) {
      const result = decodeScalar(spec, element);
      if (!result.ok) problems.push(`'${element}': ${result.detail}`);
    }
    return problems.length > 0 ? { ok: false, detail: problems.join("; ") } : { ok: true, value: elements };
  }
  if (Array.isArray(input)) return { ok: false, detail: "takes one value, not a list" };
  if (input.trim() === "" && spec.default === null) return { ok: true, value: null };
  return decodeScalar(spec, input);
}

/** Checks a stored value against its spec (seeded and rolled-back documents pass the same checks as writes). */
export function check(spec: FieldSpec, value: Value): string | null {
  if (value === null) return null;
  const elements = spec.listMode ? (Array.isArray(value) ? value : null) : [value];
  if (elements === null) return "must be a list";
  for (const element of elements) {
    const parsed = spec.schema.safeParse(element);
    if (!parsed.success)
      return spec.listMode
        ? `'${String(element)}': ${parsed.error.issues[0]?.message}`
        : (parsed.error.issues[0]?.message ?? "invalid");
  }
  return null;
}

/** `scheme://user:password@host…` with its user part (up to the authority's last `@`) as the placeholder. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/;

/**
 * A URL with any user part replaced by `********`: SMTP and bus URLs may
 * carry `user:password@`, and GET /config, the history and the fleet proxy
 * are open to read-only accounts.
 */
export const redactUserinfo = (url: string): string => url.replace(USERINFO, `$1${REDACTED}@`);

/** True when a written URL is a redacted read sent back: its user part is the placeholder. */
export const hasRedactedUserinfo = (url: string): boolean => USERINFO.exec(url)?.[2] === REDACTED;

/**
 * The text form of a value: lists newline-joined, booleans and numbers as written; secrets and URL user parts redacted
 * unless `reveal`.
 */
export function encode(spec: FieldSpec, value: Value, reveal = false): string | null {
  if (value === null) return null;
  if (spec.secret && !reveal) return REDACTED;
  if (spec.type === "url" && !reveal) {
    if (Array.isArray(value)) return value.map(redactUserinfo).join("\n");
    if (typeof value === "string") return redactUserinfo(value);
  }
  if (Array.isArray(value)) return value.join("\n");
  return String(value);
}

/** GET /config: every field and list item in text form, secrets redacted. */
export function renderValues(doc: ConfigDocument): ConfigValues {
  const values: ConfigValues = { fields: {}, lists: {} };
  for (const key of CONFIG_KEYS) {
    if (key.kind === "field") {
      values.fields[key.path] = encode(key, doc.fields[key.path] ?? null);
    } else {
      values.lists[key.path] = (doc.lists[key.path] ?? []).map((item) => ({
        key: item.key,
        values: Object.fromEntries(
          Object.entries(key.children).map(([child, spec]) => [child, encode(spec, item.values[child] ?? null)]),
        ),
      }));
    }
  }
  return values;
}

export interface ConfigDiff {
  /** Fields and item children whose value differs (items added or removed list their non-null children). */
  changes: ConfigChange[];
  /** Every changed field, item and child, as pointers. */
  changedPaths: string[];
  /** The registry paths touched, for the apply mode and the hot-apply event. */
  keys: string[];
}

const same = (a: Value, b: Value) => JSON.stringify(a) === JSON.stringify(b);

/** What changed from one document to another. */
export function diff(before: ConfigDocument, after: ConfigDocument): ConfigDiff {
  const result: ConfigDiff = { changes: [], changedPaths: [], keys: [] };
  const note = (spec: FieldSpec, pointer: string, a: Value, b: Value) => {
    if (same(a, b)) return false;
    result.changes.push({ pointer, before: encode(spec, a), after: encode(spec, b) });
    result.changedPaths.push(pointer);
    return true;
  };
  for (const key of CONFIG_KEYS) {
    let touched = false;
    if (key.kind === "field") {
      touched = note(key, fieldPointer(key.path), before.fields[key.path] ?? null, after.fields[key.path] ?? null);
    } else {
      const old = new Map((before.lists[key.path] ?? []).map((item) => [item.key, item.values]));
      const now = new Map((after.lists[key.path] ?? []).map((item) => [item.key, item.values]));
      for (const itemKey of new Set([...old.keys(), ...now.keys()])) {
        const a = old.get(itemKey);
        const b = now.get(itemKey);
        if (!a || !b) {
          result.changedPaths.push(listPointer(key.path, itemKey));
          touched = true;
        }
        for (const [child, spec] of Object.entries(key.children)) {
          if (note(spec, listPointer(key.path, itemKey, child), a?.[child] ?? null, b?.[child] ?? null)) touched = true;
        }
      }
      // Reordering alone is a change too (RADIUS servers are tried in order).
      if (!touched && [...old.keys()].join("\n") !== [...now.keys()].join("\n")) {
        result.changedPaths.push(listPointer(key.path));
        touched = true;
      }
    }
    if (touched) result.keys.push(key.path);
  }
  return result;
}
