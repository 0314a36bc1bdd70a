/**
 * The control each configuration value's type calls for (ui/pages/config-model.ts,
 * controlOf): a switch for a boolean, a select for an enumeration or a
 * reference, a number with its unit and range, a list as rows, a secret that
 * is never shown, a managed value read-only. Each edits the value's text as
 * the API takes it; `undefined` is "unchanged", null "back to the default".
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { controlOf, splitElements, unitOf, type ValueSpec } from "./config-model.ts";

export interface ControlProps {
  id: string;
  /** The value's name (the last part of its path, or the child's name): its unit comes from it. */
  name: string;
  label: string;
  spec: ValueSpec;
  /** The value now (text; null = unset). */
  current: string | null;
  /** What the candidate holds for it: undefined = unchanged. */
  draft: string | null | undefined;
  onChange: (next: string | null | undefined) => void;
  /** The keys of the list a reference names (with its built-ins), for its select. */
  options?: string[];
  describedBy?: string;
  invalid?: boolean;
  readOnly?: boolean;
}

/**
 * The value as the control shows it: the draft when there is one, else the value now; empty when unset (the default is
 * the placeholder).
 */
const shown = (p: ControlProps): string => (p.draft !== undefined ? (p.draft ?? "") : (p.current ?? ""));
/** What an empty text control means. */
const placeholderOf = (spec: ValueSpec): string | undefined =>
  spec.default !== null && spec.default !== "" ? `default: ${spec.default.replace(/\n/g, ", ")}` : undefined;

export function ValueControl(p: ControlProps) {
  const kind = controlOf(p.spec);
  const aria = { "aria-describedby": p.describedBy, "aria-invalid": p.invalid || undefined };
  // Back to the value now when the person types it again: nothing pending for it.
  const set = (text: string | null) => p.onChange(text === p.current ? undefined : text);
  const value = shown(p);
  if (p.readOnly || kind === "managed") {
    if (p.spec.secret) return <span class="cfg-readonly">{p.current === null ? "not set" : "set (not shown)"}</span>;
    if (value !== "")
      return (
        <span class="cfg-readonly">
          <code>{kind === "switch" ? (value === "true" ? "on" : "off") : value.replace(/\n/g, ", ")}</code>
        </span>
      );
    return (
      <span class="cfg-readonly muted">{placeholderOf(p.spec) ? `unset (${placeholderOf(p.spec)})` : "unset"}</span>
    );
  }
  switch (kind) {
    case "switch": {
      // Unset, a switch stands where its default puts it.
      const on = (value === "" ? p.spec.default : value) === "true";
      return (
        <span class="switch">
          <input
            id={p.id}
            type="checkbox"
            role="switch"
            checked={on}
            onChange={(e) => set(e.currentTarget.checked ? "true" : "false")}
            {...aria}
          />
          <span aria-hidden="true">{on ? "on" : "off"}</span>
        </span>
      );
    }
    case "select": {
      const options = p.spec.choices ?? p.options ?? [];
      return (
        <select
          id={p.id}
          value={value}
          onChange={(e) => set(e.currentTarget.value === "" ? null : e.currentTarget.value)}
          {...aria}
        >
          {!p.spec.required && <option value="">{p.spec.default ? `default (${p.spec.default})` : "none"}</option>}
          {p.spec.required && value === "" && <option value="">choose…</option>}
          {value !== "" && !options.includes(value) && <option value={value}>{value}</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    }
    case "choices": {
      const chosen = new Set(splitElements(value));
      return (
        <fieldset class="cfg-choices" id={p.id} {...aria}>
          <legend class="sr-only">{p.label}</legend>
          {p.spec.choices!.map((c) => (
            <label key={c} class="check">
              <input
                type="checkbox"
                checked={chosen.has(c)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.currentTarget.checked) next.add(c);
                  else next.delete(c);
                  set(p.spec.choices!.filter((x) => next.has(x)).join("\n"));
                }}
              />{" "}
              {c}
            </label>
          ))}
        </fieldset>
      );
    }
    case "number": {
      const unit = unitOf(p.name);
      const { minimum: min, maximum: max } = p.spec;
      return (
        <span class="cfg-number">
          <input
            id={p.id}
            inputMode="numeric"
            autoComplete="off"
            spellcheck={false}
            value={value}
            placeholder={placeholderOf(p.spec)}
            onInput={(e) => set(e.currentTarget.value.trim() === "" ? null : e.currentTarget.value)}
            {...aria}
          />
          {unit && <span class="unit">{unit}</span>}
          {min !== null && max !== null && <span class="range muted">{`${min} to ${max}`}</span>}
        </span>
      );
    }
    case "rows":
      return <ListRows {...p} value={value} set={set} aria={aria} />;
    case "secret":
      return (
        <input
          id={p.id}
          type="password"
          autoComplete="new-password"
          placeholder={p.current === null ? "not set" : "set: type to replace it"}
          value={p.draft ?? ""}
          onInput={(e) => p.onChange(e.currentTarget.value === "" ? undefined : e.currentTarget.value)}
          {...aria}
        />
      );
    default:
      return (
        <input
          id={p.id}
          spellcheck={false}
          autoComplete="off"
          value={value}
          placeholder={placeholderOf(p.spec)}
          onInput={(e) => set(e.currentTarget.value.trim() === "" ? null : e.currentTarget.value)}
          {...aria}
        />
      );
  }
}

/** A list value as rows, one element each, removable, and a row to add: typed as the list reads. */
function ListRows(
  p: ControlProps & { value: string; set: (text: string | null) => void; aria: Record<string, unknown> },
) {
  const fromValue = (v: string) => (v === "" ? [] : v.split("\n"));
  // The rows as typed (a row emptied while typing stays until it is removed); the value is their non-empty ones.
  const [typed, setTyped] = useState<string[]>(() => fromValue(p.value));
  const kept = (rows: string[]) => rows.map((r) => r.trim()).filter(Boolean);
  // The value changed from outside (a reset, a commit): the rows follow it.
  useEffect(() => {
    if (kept(typed).join("\n") !== p.value) setTyped(fromValue(p.value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.value]);
  // The empty last row is where the next element is typed; it is not part of the value.
  const rows = [...typed, ""];
  const write = (next: string[]) => {
    const rowsNow = next.slice(0, next[next.length - 1] === "" ? -1 : undefined);
    setTyped(rowsNow);
    const values = kept(rowsNow);
    p.set(values.length ? values.join("\n") : p.spec.default === null ? null : "");
  };
  return (
    <div class="cfg-rows" id={p.id} role="group" aria-label={p.label} {...p.aria}>
      {rows.map((row, i) => (
        <div class="cfg-row" key={i}>
          <input
            id={i === 0 ? `${p.id}-0` : undefined}
            aria-label={`${p.label}, ${i < rows.length - 1 ? `entry ${i + 1}` : "new entry"}`}
            spellcheck={false}
            value={row}
            placeholder={i === rows.length - 1 ? "add one" : undefined}
            onInput={(e) => write(rows.map((r, j) => (j === i ? e.currentTarget.value : r)))}
          />
          {i < rows.length - 1 && (
            <button
              type="button"
              class="link"
              aria-label={`Remove ${row} from ${p.label}`}
              onClick={() => write(rows.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

/** A badge beside a label: what the value is now (changed, refused) or how a change applies. */
export function Tag({ tone, children }: { tone: "changed" | "restart" | "bad"; children: ComponentChildren }) {
  return <span class={`tag tag-${tone}`}>{children}</span>;
}
