/**
 * An operation's request as fields a person types: read from the
 * operation's request schema in the served OpenAPI document (so from the
 * server's zod schema), each member given the input that fits how people
 * write it, and turned back into the JSON the API takes. Pure: no DOM.
 */
import type { OperationRef } from "../api.ts";
import { operationFor, resolve, type JsonSchema } from "../openapi.ts";
import { plainSentence } from "../pages/config-model.ts";

export type FieldKind = "text" | "secret" | "number" | "boolean" | "select" | "list" | "object" | "records" | "json";

export interface Field {
  name: string;
  where: "body" | "query" | "path";
  schema: JsonSchema;
  required: boolean;
  /** Whether the schema allows null: a nullable field left empty is sent as null. */
  nullable: boolean;
  kind: FieldKind;
  /**
   * An `object` field's members (scalars, lists and lists of records: one level, as a fieldset); a `records` field's,
   * per row (scalars and lists).
   */
  members?: Field[];
}

/**
 * What a form holds per field: text as typed, a checkbox's state, an object's members by name, a list of records' rows.
 */
export type Value = string | boolean | { [member: string]: Value } | Value[];
/** One row of a `records` field, its members by name. */
export type RecordValue = { [member: string]: Value };

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);
const nullableOf = (raw: JsonSchema) =>
  (raw.anyOf ?? raw.oneOf ?? []).some((m) => m.type === "null") ||
  (Array.isArray(raw.type) && raw.type.includes("null"));
/** A union whose members are all strings (an IPv4 or IPv6 address, a name or an address) is typed as one text. */
const isStringUnion = (s: JsonSchema) => {
  const members = (s.anyOf ?? s.oneOf ?? []).map(resolve).filter((m) => m.type !== "null");
  return members.length > 0 && members.every((m) => typeOf(m) === "string");
};
const isScalarSchema = (s: JsonSchema) =>
  ["string", "integer", "number", "boolean"].includes(typeOf(s) ?? "") || !!s.enum || isStringUnion(s);
const isScalarList = (s: JsonSchema) => typeOf(s) === "array" && !!s.items && isScalarSchema(resolve(s.items));
/** An object whose members a row of inputs can hold: scalars, and lists of scalars typed one per line. */
const isRecordSchema = (s: JsonSchema) =>
  typeOf(s) === "object" &&
  !!s.properties &&
  Object.values(s.properties).every((p) => isScalarSchema(resolve(p)) || isScalarList(resolve(p)));
const isRecordList = (s: JsonSchema) => typeOf(s) === "array" && !!s.items && isRecordSchema(resolve(s.items));

function kindOf(name: string, schema: JsonSchema): FieldKind {
  if (schema.enum) return "select";
  const t = typeOf(schema);
  if (t === "boolean") return "boolean";
  if (t === "integer" || t === "number") return "number";
  if (t === "string" || isStringUnion(schema))
    return /password|secret|credential|psk|token/i.test(name) ? "secret" : "text";
  if (isScalarList(schema)) return "list";
  // A list of records (static routes, auto-learn entries): one row of inputs per record, not JSON.
  if (isRecordList(schema)) return "records";
  // An object of such members (CGN timeouts; the IGP: its protocol and its interfaces as rows) is a fieldset of them.
  if (
    t === "object" &&
    schema.properties &&
    Object.values(schema.properties)
      .map(resolve)
      .every((p) => isScalarSchema(p) || isScalarList(p) || isRecordList(p))
  )
    return "object";
  return "json";
}

/**
 * A union that also takes a list of records (an OIDC role map: `[{group, role}]` or `{group: role}`) is typed as that
 * list.
 */
function preferRecords(s: JsonSchema): JsonSchema {
  const list = (s.anyOf ?? s.oneOf ?? []).map(resolve).find(isRecordList);
  return list ? { ...list, description: s.description ?? list.description } : s;
}

function fieldOf(name: string, raw: JsonSchema, where: Field["where"], required: boolean): Field {
  const schema = preferRecords(resolve(raw));
  const kind = kindOf(name, schema);
  const field: Field = { name, where, schema, required, nullable: nullableOf(raw), kind };
  const shape = kind === "object" ? schema : kind === "records" ? resolve(schema.items) : undefined;
  if (shape) {
    const inner = new Set(shape.required ?? []);
    field.members = Object.entries(shape.properties ?? {}).map(([member, s]) =>
      fieldOf(member, s, where, inner.has(member)),
    );
  }
  return field;
}

/**
 * The fields of an operation: the path parameters the page does not give
 * (`given`), then body members, then query parameters. A body member named
 * like a path parameter the person types is left out (the URL's wins).
 */
export function fieldsOf(operation: Pick<OperationRef, "method" | "path">, given: readonly string[] = []): Field[] {
  const op = operationFor(operation);
  if (!op) return [];
  const named = [...operation.path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => m[1]!);
  const pathFields: Field[] = named
    .filter((name) => !given.includes(name))
    .map((name) => ({ name, where: "path", schema: {}, required: true, nullable: false, kind: "text" }));
  const inPath = new Set(pathFields.map((f) => f.name));
  const body = resolve(op.body ?? undefined);
  const required = new Set(body.required ?? []);
  const bodyFields = Object.entries(body.properties ?? {})
    .filter(([name]) => !inPath.has(name))
    .map(([name, raw]) => fieldOf(name, raw, "body", required.has(name)));
  const queryFields = op.parameters
    .filter((p) => p.in === "query")
    .map((p) => fieldOf(p.name, p.schema ?? {}, "query", p.required === true));
  return [...pathFields, ...bodyFields, ...queryFields];
}

/** A list typed one per line or comma separated, as the pages show lists. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);

/** An object's members as the form holds them. */
function membersFromJson(members: Field[], current: unknown): RecordValue {
  const record = (current ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    members.flatMap((m) => {
      const v = valueFromJson(m, record[m.name]);
      return v === undefined ? [] : [[m.name, v]];
    }),
  );
}

/** A new row of a `records` field: the defaults its members declare. */
export function newRecord(field: Field): RecordValue {
  return Object.fromEntries(
    (field.members ?? []).flatMap((m) =>
      m.schema.default === undefined ? [] : [[m.name, valueFromJson(m, m.schema.default)!]],
    ),
  );
}

/** The text a form starts from for a current value: lists one per line, objects by member, records row by row. */
export function valueFromJson(field: Field, current: unknown): Value | undefined {
  if (current === undefined) return undefined;
  if (field.kind === "boolean") return current === true;
  if (field.kind === "list") return Array.isArray(current) ? current.map(String).join("\n") : "";
  if (field.kind === "object") return membersFromJson(field.members ?? [], current);
  if (field.kind === "records")
    return Array.isArray(current) ? current.map((row) => membersFromJson(field.members ?? [], row)) : [];
  if (field.kind === "json") return current === null ? "" : JSON.stringify(current, null, 2);
  if (current === null) return "";
  return String(current);
}

type Problem = { pointer: string; detail: string };

/**
 * One field's JSON value from what was typed; `undefined` = leave it out. Problems found here (not a number, not JSON)
 * are pushed to `problems`.
 */
export function jsonOf(field: Field, value: Value | undefined, pointer: string, problems: Problem[]): unknown {
  switch (field.kind) {
    case "boolean":
      // A checkbox is always an answer: unticked is false (a required flag left unticked saves "off", not nothing).
      return value === undefined && !field.required ? undefined : value === true;
    case "object": {
      const record = (typeof value === "object" ? value : {}) as Record<string, Value>;
      const out: Record<string, unknown> = {};
      for (const m of field.members ?? []) {
        const v = jsonOf(m, record[m.name], `${pointer}/${m.name}`, problems);
        if (v !== undefined) out[m.name] = v;
      }
      return Object.keys(out).length === 0 && !field.required ? (field.nullable ? null : undefined) : out;
    }
    case "records": {
      if (!Array.isArray(value)) return field.required ? [] : undefined;
      // Every row is sent, a blank one too: the API's refusal then stands beside its empty fields, where the row can be
      // removed.
      return value.map((row, i) => {
        const record = (typeof row === "object" && !Array.isArray(row) ? row : {}) as RecordValue;
        const out: Record<string, unknown> = {};
        for (const m of field.members ?? []) {
          // A member left empty is left out (the API reads absent and null alike).
          const v = jsonOf(m, record[m.name], `${pointer}/${i}/${m.name}`, problems);
          if (v !== undefined && v !== null) out[m.name] = v;
        }
        return out;
      });
    }
    default: {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "") return field.nullable && field.where === "body" ? null : undefined;
      if (field.kind === "number") {
        // Typed as people write numbers: `3,500`, `3 500` and `3_500` are 3500.
        const n = Number(text.replace(/[\s_,]/g, ""));
        if (!Number.isFinite(n)) problems.push({ pointer, detail: "is not a number" });
        return n;
      }
      if (field.kind === "list") {
        const items = splitList(text);
        const itemType = typeOf(resolve(field.schema.items));
        if (itemType === "integer" || itemType === "number") {
          const numbers = items.map(Number);
          if (numbers.some((n) => !Number.isFinite(n)))
            problems.push({ pointer, detail: "holds something that is not a number" });
          return numbers;
        }
        return items;
      }
      if (field.kind === "json") {
        try {
          return JSON.parse(text);
        } catch {
          problems.push({ pointer, detail: "is not valid JSON" });
          return undefined;
        }
      }
      return text;
    }
  }
}

/**
 * A schema's description as help for a person, in a sentence (ui/pages/config-model.ts, plainSentence): "absent or null
 * = X" reads "Empty: X", no status codes or paths.
 */
export const hintOf = (schema: JsonSchema): string | undefined =>
  schema.description ? plainSentence(schema.description) || undefined : undefined;
