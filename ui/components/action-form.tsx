/**
 * A form for one API operation, named by its contract reference: the method,
 * the path and the role floor come from the reference; the fields still come
 * from the served OpenAPI document (./form-fields.ts), which carries the
 * request schemas as JSON Schema, since the references hold no schemas. It is
 * offered only to a role that meets the operation's floor; a form that edits
 * something starts from its current value (`prefill`); every 400 or 422
 * field error is shown beside its field, in words, and what was typed stays.
 */
import { useEffect, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { ApiError, call, pathOf, type OperationRef } from "../api.ts";
import { can } from "../session.ts";
import { labelOf, sentence, utc } from "../format.ts";
import { configPointerToField } from "../pages/config-pointers.ts";
import { problemOf, unitOf } from "../pages/config-model.ts";
import { useConfigSchema } from "../config-schema.ts";
import { ProblemNote } from "./problem.tsx";
import { JsonView } from "./json-view.tsx";
import {
  fieldsOf,
  hintOf,
  jsonOf,
  newRecord,
  valueFromJson,
  type Field,
  type RecordValue,
  type Value,
} from "./form-fields.ts";
import { resultSentence } from "./result-words.ts";

/** A value a select offers: as sent, and as a person reads it. */
export type Choice = string | { value: string; label: string };

export interface ActionFormProps {
  /** The change the form makes (`contract.<section>.<operation>`). */
  operation: OperationRef;
  /** Path parameters the page gives (the session it is about); the others are fields. */
  params?: Record<string, string | number>;
  title: string;
  /** Initial values by field name. */
  initial?: Record<string, Value>;
  /** The current values of what the form edits (a row of the page's table): the form starts from them. */
  current?: Record<string, unknown>;
  /** A GET (without parameters) whose answer holds the current values: the form starts from them. */
  prefill?: OperationRef;
  /** Fields not to show (fixed by the page). */
  hide?: string[];
  /** Values always sent (e.g. the id the page is about). */
  fixed?: Record<string, unknown>;
  /**
   * Known valid values of a field (ports, pools, VRFs, peers …): the field becomes a select of them, each with its
   * label. A member of a list of records is named `<field>/<member>` (`routes/vrf`).
   */
  choices?: Record<string, Choice[]>;
  /**
   * Values worth offering for a text field that also takes others (a next hop: `blackhole` or any address): typed, with
   * these suggested. Named as `choices`.
   */
  suggestions?: Record<string, string[]>;
  /**
   * A field's label where the member's name does not say it to a person (`maxPackets` is "Packet limit"). Named as
   * `choices`.
   */
  labels?: Record<string, string>;
  /**
   * A field's help where the schema's description speaks to API clients rather than to a person. Named as `choices`.
   */
  hints?: Record<string, string>;
  /**
   * The configuration's keyed list this resource is (`gre.circuits`): what is typed in a field named as one of its
   * values is checked as the configuration page checks it, before anything is sent.
   */
  configList?: string;
  /**
   * What one record of a list-of-records field is called (`{ routes: "route" }`): its rows read "Route 1", "Add a
   * route".
   */
  recordNames?: Record<string, string>;
  /**
   * Where a refusal's pointer belongs in the form, when the API names it otherwise (a configuration pointer,
   * `#/lists/<list>/<key>/<child>`): given the body sent, the form's pointer (`#/routes/2/nextHop`), or undefined to
   * leave it.
   */
  placeError?: (problem: { pointer: string; detail: string }, sent: Record<string, unknown>) => string | undefined;
  confirm?: string;
  submitLabel?: string;
  onDone?: (result: unknown) => void;
  showResult?: boolean;
  /** Renders a successful answer instead of the generic view. */
  renderResult?: (result: unknown) => ComponentChildren;
  children?: ComponentChildren;
}

/** The defaults the schema declares, as the form's starting values. */
function defaultsOf(fields: Field[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of fields) {
    const v = f.schema.default === undefined ? undefined : valueFromJson(f, f.schema.default);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/** The form's values for an object's current members. */
function startFrom(fields: Field[], current: Record<string, unknown>): Record<string, Value> {
  const start: Record<string, Value> = {};
  for (const f of fields) {
    const v = valueFromJson(f, current[f.name]);
    if (v !== undefined) start[f.name] = v;
  }
  return start;
}

/** A loose `call`: the form's operation is any of the contract's, its input built from the fields. */
const send = call as (
  operation: OperationRef,
  input: { params?: Record<string, unknown>; query?: Record<string, string>; body?: unknown },
) => Promise<unknown>;

/**
 * The refusal's words for one field, row or list, under it, as sentences; the control names it in `aria-describedby`.
 */
function FieldError({ id, errors }: { id: string; errors: { detail: string }[] }) {
  if (errors.length === 0) return null;
  return (
    <small class="field-error" id={id}>
      {errors.map((e) => sentence(e.detail)).join(" ")}
    </small>
  );
}

export function ActionForm(props: ActionFormProps) {
  const { operation, title } = props;
  const given = props.params ?? {};
  const allowed = can(operation);
  const fields = allowed
    ? fieldsOf(operation, Object.keys(given)).filter(
        (f) => !props.hide?.includes(f.name) && !(props.fixed && f.name in props.fixed),
      )
    : [];
  const [values, setValuesNow] = useState<Record<string, Value>>(() => ({
    ...defaultsOf(fields),
    ...(props.current ? startFrom(fields, props.current) : {}),
    ...props.initial,
  }));
  const schemaKeys = useConfigSchema();
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  // The body of the last submit: a refusal's configuration pointers are placed by what was sent.
  const [sent, setSent] = useState<Record<string, unknown>>({});
  useEffect(() => {
    if (!allowed || !props.prefill) return;
    (send(props.prefill, {}) as Promise<Record<string, unknown>>)
      .then((current) => {
        const start = startFrom(fields, current);
        setValuesNow((typed) => ({ ...start, ...typed }));
      })
      .catch((failure: unknown) => setError(failure instanceof ApiError ? failure : null));
    // The form starts from the value once; later reloads would overwrite what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.prefill, allowed]);
  // A result describes what was sent: once the person changes a value it no longer stands beside the form.
  const setValues = (update: (all: Record<string, Value>) => Record<string, Value>) => {
    setValuesNow(update);
    setResult(undefined);
  };
  if (!allowed) return null;
  // The path as the page gives it (its own parameters filled in, the typed ones still `{name}`) names the form's ids.
  const formId = `${operation.method}-${pathOf(operation, given)}`.replace(/[^a-zA-Z0-9]+/g, "-");

  /**
   * What was typed into a field that is one of the configuration list's values, checked as the configuration page
   * checks it.
   */
  function typedProblems(): { pointer: string; detail: string }[] {
    const list = props.configList ? schemaKeys?.find((k) => k.path === props.configList) : undefined;
    if (!list) return [];
    const check = (name: string, pointer: string, value: Value | undefined) => {
      const child = list.children.find((c) => c.name === name);
      if (!child || child.references || typeof value !== "string" || value.trim() === "") return [];
      const problem = problemOf(`${list.path}/${name}`, { ...child, required: false }, value);
      return problem ? [{ pointer, detail: problem }] : [];
    };
    return fields.flatMap((f) =>
      f.kind === "object"
        ? (f.members ?? []).flatMap((m) =>
            check(
              `${f.name}.${m.name}`,
              `#/${f.name}/${m.name}`,
              (values[f.name] as Record<string, Value> | undefined)?.[m.name],
            ),
          )
        : check(f.name, `#/${f.name}`, values[f.name]),
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (props.confirm && !window.confirm(props.confirm)) return;
    const body: Record<string, unknown> = { ...props.fixed };
    const query: Record<string, string> = {};
    const params: Record<string, unknown> = { ...given };
    const problems: { pointer: string; detail: string }[] = [];
    for (const f of fields) {
      const v = jsonOf(f, values[f.name], `#/${f.name}`, problems);
      if (v === undefined) continue;
      if (f.where === "path") params[f.name] = v;
      else if (f.where === "query") query[f.name] = String(v);
      else body[f.name] = v;
    }
    problems.push(...typedProblems());
    if (problems.length) {
      setError(
        new ApiError(
          0,
          {
            detail: "Some values need attention: see the fields marked above",
            errors: problems.map((e) => ({ in: "body" as const, ...e })),
          },
          null,
        ),
      );
      return;
    }
    setBusy(true);
    setSent(body);
    setError(null);
    setResult(undefined);
    try {
      const hasBody = operation.method !== "DELETE" || Object.keys(body).length > 0;
      const answer = await send(operation, { params, query, ...(hasBody ? { body } : {}) });
      setResult(answer);
      props.onDone?.(answer);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    } finally {
      setBusy(false);
    }
  }

  const nameOf = (key: string, name: string) => props.labels?.[key] ?? labelOf(name);
  const fieldErrors = error
    ? error.fieldErrors.map((e) => ({
        ...e,
        pointer:
          props.placeError?.(e, sent) ??
          configPointerToField(
            e.pointer,
            fields.map((f) => f.name),
          ) ??
          e.pointer,
      }))
    : [];
  const errorsFor = (pointer: string) =>
    fieldErrors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`));
  const placed = new Set(fields.flatMap((f) => errorsFor(`#/${f.name}`)));
  const unplaced = fieldErrors.filter((e) => !placed.has(e));

  const input = (
    f: Field,
    id: string,
    value: Value | undefined,
    set: (v: Value) => void,
    describedBy: string | undefined,
    invalid: boolean,
    key: string,
  ) => {
    const choices = props.choices?.[key];
    const suggested = props.suggestions?.[key];
    if (f.kind === "select" || choices) {
      const options = (choices ?? f.schema.enum!.map(String)).map((c) =>
        typeof c === "string" ? { value: c, label: c } : c,
      );
      return (
        <select
          id={id}
          value={String(value ?? "")}
          onChange={(e) => set(e.currentTarget.value)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          required={f.required && !f.nullable}
        >
          <option value="">{f.required && !f.nullable ? "choose…" : "(none)"}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    }
    if (f.kind === "list" || f.kind === "json") {
      return (
        <textarea
          id={id}
          rows={f.kind === "list" ? 3 : 4}
          value={String(value ?? "")}
          onInput={(e) => set(e.currentTarget.value)}
          placeholder={f.kind === "list" ? "one per line, or comma separated" : "JSON"}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      );
    }
    return (
      <>
        <input
          id={id}
          list={suggested ? `${id}-suggested` : undefined}
          type={(f.kind === "secret" ? "password" : "text") as "text"}
          inputMode={f.kind === "number" ? "numeric" : undefined}
          autoComplete={f.kind === "secret" ? "off" : undefined}
          spellcheck={false}
          value={String(value ?? "")}
          onInput={(e) => set(e.currentTarget.value)}
          required={f.required && !f.nullable}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
        {suggested && (
          <datalist id={`${id}-suggested`}>
            {suggested.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        )}
      </>
    );
  };

  /**
   * One field; a record row's member (`row`) names its list's member hints, said once above the rows, instead of its
   * own.
   */
  const fieldBlock = (
    f: Field,
    prefix: string,
    pointer: string,
    value: Value | undefined,
    set: (v: Value) => void,
    row?: { key: string; hints: string | undefined },
  ) => {
    const id = `${prefix}-${f.name}`;
    const key = row?.key ?? f.name;
    const errs = errorsFor(pointer);
    const hint = row ? undefined : (props.hints?.[key] ?? hintOf(f.schema));
    const describedBy =
      [errs.length ? `${id}-error` : "", hint ? `${id}-hint` : "", row?.hints ?? ""].filter(Boolean).join(" ") ||
      undefined;
    const unit = f.kind === "number" && !props.labels?.[key] ? unitOf(f.name) : null;
    const label = `${nameOf(key, f.name)}${unit ? ` (${unit})` : ""}${f.required && !f.nullable ? " *" : ""}`;
    if (f.kind === "object") {
      const record = (typeof value === "object" ? value : {}) as Record<string, Value>;
      return (
        <fieldset class={errs.length ? "field invalid" : "field"} key={f.name}>
          <legend>{label}</legend>
          {hint && (
            <small class="hint" id={`${id}-hint`}>
              {hint}
            </small>
          )}
          {(f.members ?? []).map((m) =>
            fieldBlock(m, id, `${pointer}/${m.name}`, record[m.name], (v) => set({ ...record, [m.name]: v })),
          )}
        </fieldset>
      );
    }
    if (f.kind === "records") return recordsBlock(f, id, pointer, label, hint, Array.isArray(value) ? value : [], set);
    return (
      <div class={errs.length ? "field invalid" : "field"} key={f.name}>
        {f.kind === "boolean" ? (
          <label class="check">
            <input
              id={id}
              type="checkbox"
              checked={value === true}
              onChange={(e) => set(e.currentTarget.checked)}
              aria-describedby={describedBy}
            />{" "}
            {label}
          </label>
        ) : (
          <>
            <label for={id}>{label}</label>
            {input(f, id, value, set, describedBy, errs.length > 0, key)}
          </>
        )}
        {hint && (
          <small class="hint" id={`${id}-hint`}>
            {hint}
          </small>
        )}
        <FieldError id={`${id}-error`} errors={errs} />
      </div>
    );
  };

  /**
   * A list of records (the static route table, a CGN group's auto-learn
   * entries) as one row of inputs per record, each removable, and a button
   * that adds one from the members' defaults. A refusal's errors stand beside
   * the member they name (`#/routes/2/nextHop`), or on the row.
   */
  const recordsBlock = (
    f: Field,
    id: string,
    pointer: string,
    label: string,
    hint: string | undefined,
    rows: Value[],
    set: (v: Value) => void,
  ) => {
    const noun = props.recordNames?.[f.name] ?? "entry";
    const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
    const own = fieldErrors.filter((e) => e.pointer === pointer);
    const members = f.members ?? [];
    // Each member's help once, above the rows, rather than under every row's input.
    const memberHints = members.flatMap((m) => {
      const h = props.hints?.[`${f.name}/${m.name}`] ?? hintOf(m.schema);
      return h ? [`${nameOf(`${f.name}/${m.name}`, m.name)}: ${h}`] : [];
    });
    const hintsId = memberHints.length ? `${id}-hints` : undefined;
    const focus = (target: string) => setTimeout(() => document.getElementById(target)?.focus());
    const add = () => {
      set([...rows, newRecord(f)]);
      const first = members[0];
      if (first) focus(`${id}-${rows.length}-${first.name}`);
    };
    const remove = (i: number) => {
      set(rows.filter((_, j) => j !== i));
      focus(`${id}-add`);
    };
    return (
      <fieldset
        class={own.length ? "field records invalid" : "field records"}
        key={f.name}
        aria-describedby={own.length ? `${id}-error` : undefined}
      >
        <legend>{label}</legend>
        {hint && <small class="hint">{hint}</small>}
        {hintsId && (
          <small class="hint" id={hintsId}>
            {memberHints.join(" · ")}
          </small>
        )}
        {rows.length === 0 && <p class="muted">None.</p>}
        {rows.map((row, i) => {
          const record = (typeof row === "object" && !Array.isArray(row) ? row : {}) as RecordValue;
          const rowErrors = fieldErrors.filter((e) => e.pointer === `${pointer}/${i}`);
          return (
            <fieldset
              class={rowErrors.length ? "record invalid" : "record"}
              key={i}
              aria-describedby={rowErrors.length ? `${id}-${i}-error` : undefined}
            >
              <legend>
                {Noun} {i + 1}
              </legend>
              {members.map((m) =>
                fieldBlock(
                  m,
                  `${id}-${i}`,
                  `${pointer}/${i}/${m.name}`,
                  record[m.name],
                  (v) => set(rows.map((r, j) => (j === i ? { ...record, [m.name]: v } : r))),
                  { key: `${f.name}/${m.name}`, hints: hintsId },
                ),
              )}
              <button
                type="button"
                class="link remove"
                aria-label={`Remove ${noun} ${i + 1}`}
                onClick={() => remove(i)}
              >
                Remove
              </button>
              <FieldError id={`${id}-${i}-error`} errors={rowErrors} />
            </fieldset>
          );
        })}
        <button type="button" id={`${id}-add`} onClick={add}>
          Add {/^[aeiou]/i.test(noun) ? "an" : "a"} {noun}
        </button>
        <FieldError id={`${id}-error`} errors={own} />
      </fieldset>
    );
  };

  return (
    <form class="action" onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`}>{title}</h3>
      {props.children}
      {fields.map((f) =>
        fieldBlock(f, `${formId}-${f.where}`, `#/${f.name}`, values[f.name], (v) =>
          setValues((all) => ({ ...all, [f.name]: v })),
        ),
      )}
      {error && (unplaced.length > 0 || fieldErrors.length === 0) && (
        <ProblemNote
          error={
            new ApiError(
              error.status,
              { ...error.problem, errors: unplaced.map((e) => ({ in: "body" as const, ...e })) },
              null,
            )
          }
        />
      )}
      {error && unplaced.length === 0 && fieldErrors.length > 0 && (
        <p class="field-error" role="alert">
          {fieldErrors.length === 1
            ? "A value needs attention: see the field marked above."
            : `${fieldErrors.length} values need attention: see the fields marked above.`}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Working…" : (props.submitLabel ?? title)}
      </button>
      {props.showResult !== false && result !== undefined && (
        <div class="result" role="status">
          {props.renderResult
            ? props.renderResult(result)
            : (resultSentence(result, utc) ?? <JsonView value={result} compact />)}
        </div>
      )}
    </form>
  );
}
