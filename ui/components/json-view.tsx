/**
 * Any API answer as tables and definition lists: arrays of records become a
 * table, records a list of their members. The read pages show the API's
 * answers as they are, without a second model of them.
 */
import type { ComponentChildren } from "preact";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== "object";

/** A label from a camelCase member name. */
export const labelOf = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

export function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span class="muted">—</span>;
  if (typeof value === "boolean") return <span>{value ? "yes" : "no"}</span>;
  if (typeof value === "number") return <span class="num">{value.toLocaleString("en")}</span>;
  return <span>{String(value)}</span>;
}

/** A cell: scalars as text, small arrays of scalars joined, anything else summarised. */
function Cell({ value }: { value: Json }) {
  if (isScalar(value)) return <Scalar value={value} />;
  if (Array.isArray(value) && value.every(isScalar)) return <span>{value.map((v) => String(v)).join(", ")}</span>;
  return <JsonView value={value} compact />;
}

export function RecordTable({ rows, caption, rowAction }: { rows: Record<string, Json>[]; caption?: string; rowAction?: (row: Record<string, Json>) => ComponentChildren }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    <div class="table-wrap" tabIndex={0}>
      <table>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {labelOf(c)}
              </th>
            ))}
            {rowAction && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>
                  <Cell value={row[c] ?? null} />
                </td>
              ))}
              {rowAction && <td>{rowAction(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="muted">None.</p>}
    </div>
  );
}

export function JsonView({ value, compact = false, caption }: { value: unknown; compact?: boolean; caption?: string }) {
  const v = value as Json;
  if (isScalar(v)) return <Scalar value={v} />;
  if (Array.isArray(v)) {
    if (v.every(isRecord)) return <RecordTable rows={v} {...(caption ? { caption } : {})} />;
    return <span>{v.map((x) => (isScalar(x) ? String(x) : JSON.stringify(x))).join(", ")}</span>;
  }
  const entries = Object.entries(v as Record<string, Json>);
  if (compact && entries.every(([, x]) => isScalar(x))) {
    return <span class="compact">{entries.map(([k, x]) => `${labelOf(k)}: ${x === null ? "—" : String(x)}`).join(" · ")}</span>;
  }
  return (
    <dl class={compact ? "dl compact" : "dl"}>
      {entries.map(([k, x]) => (
        <div key={k} class={isScalar(x) ? "dl-row" : "dl-row wide"}>
          <dt>{labelOf(k)}</dt>
          <dd>{isScalar(x) ? <Scalar value={x} /> : <JsonView value={x} compact={compact} />}</dd>
        </div>
      ))}
    </dl>
  );
}
