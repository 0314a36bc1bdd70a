/**
 * A form for one API operation, its fields read from the operation's request
 * schema in the served OpenAPI document (so from the server's zod schema).
 * It is offered only to a role that meets the operation's floor; every 400 or
 * 422 field error is shown beside its field.
 */
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { api, ApiError } from "../api.ts";
import { can } from "../session.ts";
import { operationFor, resolve, type JsonSchema } from "../openapi.ts";
import { ProblemNote } from "./problem.tsx";
import { JsonView, labelOf } from "./json-view.tsx";

type Value = string | boolean;

interface Field {
  name: string;
  where: "body" | "query" | "path";
  schema: JsonSchema;
  required: boolean;
  /** Whether the schema allows null: a required nullable field left empty is sent as null. */
  nullable: boolean;
  kind: "text" | "secret" | "number" | "boolean" | "select" | "json";
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

function fieldsOf(method: string, path: string): Field[] {
  const op = operationFor(method, path);
  if (!op) return [];
  const body = resolve(op.body ?? undefined);
  const required = new Set(body.required ?? []);
  const bodyFields: Field[] = Object.entries(body.properties ?? {}).map(([name, raw]) => {
    const schema = resolve(raw);
    const t = typeOf(schema);
    const kind: Field["kind"] = schema.enum
      ? "select"
      : t === "boolean"
        ? "boolean"
        : t === "integer" || t === "number"
          ? "number"
          : t === "string"
            ? /password|secret|credential|psk|token/i.test(name) ? "secret" : "text"
            : "json";
    const nullable = (raw.anyOf ?? raw.oneOf ?? []).some((m) => m.type === "null") || (Array.isArray(raw.type) && raw.type.includes("null"));
    return { name, where: "body", schema, required: required.has(name), nullable, kind };
  });
  const queryFields: Field[] = op.parameters
    .filter((p) => p.in === "query")
    .map((p) => ({ name: p.name, where: "query", schema: resolve(p.schema), required: p.required === true, nullable: false, kind: typeOf(resolve(p.schema)) === "boolean" ? "boolean" : "text" }));
  const pathFields: Field[] = [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => ({ name: m[1]!, where: "path", schema: {}, required: true, nullable: false, kind: "text" }));
  return [...pathFields, ...bodyFields, ...queryFields];
}

export interface ActionFormProps {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path after /api/v1, parameters filled in. */
  path: string;
  title: string;
  /** Initial values by field name. */
  initial?: Record<string, Value>;
  /** Fields not to show (fixed by the page). */
  hide?: string[];
  /** Values always sent (e.g. the id the page is about). */
  fixed?: Record<string, unknown>;
  confirm?: string;
  submitLabel?: string;
  onDone?: (result: unknown) => void;
  showResult?: boolean;
  children?: ComponentChildren;
}

export function ActionForm(props: ActionFormProps) {
  const { method, path, title } = props;
  const [values, setValues] = useState<Record<string, Value>>(props.initial ?? {});
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  if (!can(method, path)) return null;
  const fields = fieldsOf(method, path).filter((f) => !props.hide?.includes(f.name) && !(props.fixed && f.name in props.fixed));
  const formId = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, "-");

  async function submit(event: Event) {
    event.preventDefault();
    if (props.confirm && !window.confirm(props.confirm)) return;
    const body: Record<string, unknown> = { ...props.fixed };
    const query: Record<string, string> = {};
    let target = path;
    const local: { pointer: string; detail: string }[] = [];
    for (const f of fields) {
      const v = values[f.name];
      if (f.kind === "boolean") {
        if (v !== undefined) (f.where === "body" ? body : query)[f.name] = f.where === "body" ? v === true : String(v === true);
        continue;
      }
      if (v === undefined || v === "") {
        if (f.where === "body" && f.required && f.nullable) body[f.name] = null;
        continue;
      }
      if (f.where === "path") target = target.replace(new RegExp(`\\{${f.name}\\+?\\}`), encodeURIComponent(String(v)));
      else if (f.where === "query") query[f.name] = String(v);
      else if (f.kind === "number") body[f.name] = Number(v);
      else if (f.kind === "json") {
        try {
          body[f.name] = JSON.parse(String(v));
        } catch {
          local.push({ pointer: `#/${f.name}`, detail: "is not valid JSON" });
        }
      } else body[f.name] = v;
    }
    if (local.length) {
      setError(new ApiError(0, { detail: "Some fields need attention", errors: local.map((e) => ({ in: "body" as const, ...e })) }, null));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const hasBody = method !== "DELETE" || Object.keys(body).length > 0;
      const answer = await api<unknown>(target, { method, query, ...(hasBody ? { body } : {}) });
      setResult(answer);
      props.onDone?.(answer);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    } finally {
      setBusy(false);
    }
  }

  const errorFor = (name: string) => error?.fieldErrors.filter((e) => e.pointer === `#/${name}` || e.pointer.startsWith(`#/${name}/`)) ?? [];
  const unplaced = error ? error.fieldErrors.filter((e) => !fields.some((f) => errorFor(f.name).includes(e))) : [];

  return (
    <form class="action" onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`}>{title}</h3>
      {props.children}
      {fields.map((f) => {
        const id = `${formId}-${f.name}`;
        const errs = errorFor(f.name);
        const describedBy = errs.length ? `${id}-error` : undefined;
        const label = `${labelOf(f.name)}${f.required && !f.nullable ? " *" : ""}`;
        const v = values[f.name];
        const set = (x: Value) => setValues({ ...values, [f.name]: x });
        return (
          <div class={errs.length ? "field invalid" : "field"} key={f.name}>
            {f.kind === "boolean" ? (
              <label class="check">
                <input id={id} type="checkbox" checked={v === true} onChange={(e) => set(e.currentTarget.checked)} aria-describedby={describedBy} /> {label}
              </label>
            ) : (
              <>
                <label for={id}>{label}</label>
                {f.kind === "select" ? (
                  <select id={id} value={String(v ?? "")} onChange={(e) => set(e.currentTarget.value)} aria-describedby={describedBy} required={f.required}>
                    <option value="">{f.required ? "choose…" : "(default)"}</option>
                    {f.schema.enum!.map((o) => (
                      <option key={String(o)} value={String(o)}>
                        {String(o)}
                      </option>
                    ))}
                  </select>
                ) : f.kind === "json" ? (
                  <textarea id={id} rows={3} value={String(v ?? "")} onInput={(e) => set(e.currentTarget.value)} placeholder="JSON" aria-describedby={describedBy} />
                ) : (
                  <input
                    id={id}
                    type={(f.kind === "number" ? "number" : f.kind === "secret" ? "password" : "text") as "text"}
                    value={String(v ?? "")}
                    onInput={(e) => set(e.currentTarget.value)}
                    required={f.required && !f.nullable}
                    aria-describedby={describedBy}
                    aria-invalid={errs.length > 0}
                  />
                )}
              </>
            )}
            {f.schema.description && <small class="hint">{f.schema.description}</small>}
            {errs.length > 0 && (
              <small class="field-error" id={`${id}-error`}>
                {errs.map((e) => e.detail).join("; ")}
              </small>
            )}
          </div>
        );
      })}
      {error && (unplaced.length > 0 || error.fieldErrors.length === 0) && <ProblemNote error={new ApiError(error.status, { ...error.problem, errors: unplaced.map((e) => ({ in: "body" as const, ...e })) }, null)} />}
      <button type="submit" disabled={busy}>
        {busy ? "Working…" : (props.submitLabel ?? title)}
      </button>
      {props.showResult !== false && result !== undefined && (
        <div class="result" role="status">
          <JsonView value={result} compact />
        </div>
      )}
    </form>
  );
}
