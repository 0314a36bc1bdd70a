/**
 * Any API answer as tables and definition lists: arrays of records become a
 * sortable table (with CSV export of what it shows), records a list of their
 * members. Values read by what their member means (ui/format.ts): rates,
 * bytes, durations, times in UTC, identifiers without separators, states in
 * colour. The read pages show the API's answers as they are, without a
 * second model of them.
 */
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { formatValue, labelOf, numberKind, tone } from "../format.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== "object";

/** A scalar, formatted by its member's name (`key`), coloured when it is a state. */
export function Scalar({ value, name = "" }: { value: unknown; name?: string }) {
  if (value === null || value === undefined) return <span class="muted">—</span>;
  const text = formatValue(name, value);
  const t = tone(name, value);
  const numeric = typeof value === "number" && numberKind(name) !== "id";
  const cls = [numeric ? "num" : "", t ? `tone-${t}` : ""].filter(Boolean).join(" ");
  if (typeof value === "number" && numberKind(name) === "percent") {
    // A share of something (a port's speed, a pool, memory) reads fastest as a bar beside its number.
    return (
      <span class="pct">
        <meter min={0} max={100} low={70} high={90} optimum={0} value={value} aria-hidden="true" />
        <span class="num">{text}</span>
      </span>
    );
  }
  const instant = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d UTC)$/.exec(text);
  if (instant)
    // An instant breaks between its date and its time, never inside either ('2026-12-' / '02' in a narrow column).
    return (
      <span class="instant">
        <span>{instant[1]}</span> <span>{instant[2]}</span>
      </span>
    );
  return <span class={cls || undefined}>{text}</span>;
}

/**
 * A list of scalars as the forms accept it: one per line is how they are typed, a comma list how they read in a cell.
 */
const listText = (values: Json[]) => values.map((v) => (v === null ? "—" : String(v))).join(", ");

/** A cell: scalars formatted, small arrays of scalars joined, anything else summarised. */
function Cell({ value, name }: { value: Json; name: string }) {
  if (isScalar(value)) return <Scalar value={value} name={name} />;
  if (Array.isArray(value) && value.every(isScalar)) return <span>{listText(value)}</span>;
  return <JsonView value={value} compact />;
}

/** Prose and lists wrap in their cell; identifiers, numbers and times stay on one line. */
const long = (value: Json | undefined) =>
  (typeof value === "string" && value.length > 40) || (Array.isArray(value) && value.length > 1) || isRecord(value);

/** What a cell sorts by: numbers as numbers, everything else as its text. */
function sortKey(value: Json | undefined): number | string {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** RFC 4180 CSV of the rows as shown (formatted values), with a header of the column labels. */
export function toCsv(
  columns: string[],
  rows: Record<string, Json>[],
  label: (column: string) => string = labelOf,
): string {
  const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const text = (name: string, v: Json | undefined) =>
    v === undefined || v === null
      ? ""
      : isScalar(v)
        ? formatValue(name, v)
        : Array.isArray(v) && v.every(isScalar)
          ? listText(v)
          : JSON.stringify(v);
  return (
    [columns.map((c) => cell(label(c))), ...rows.map((r) => columns.map((c) => cell(text(c, r[c]))))]
      .map((line) => line.join(","))
      .join("\r\n") + "\r\n"
  );
}

function download(name: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface RecordTableProps {
  rows: Record<string, Json>[];
  caption?: string;
  /** The controls of a row (edit, delete, …), in a last column. */
  rowAction?: (row: Record<string, Json>) => ComponentChildren;
  csvName?: string;
  /**
   * A column's cell drawn by the page (a link to the object, a state with its detail); sorting and CSV still read the
   * row's value.
   */
  cells?: Record<string, (row: Record<string, Json>) => ComponentChildren>;
  /** A column's heading where the member's name does not say it (`rxKbps` is "Download"). */
  labels?: Record<string, string>;
  /** What the table says when it has no rows. */
  empty?: string;
  /**
   * One line per row (long tables of short values: bindings, routes): prose and lists still wrap, and a wide table
   * scrolls in its box.
   */
  dense?: boolean;
  /** The table's `data-testid`. */
  testid?: string;
  /** Said beside the CSV link where sorting orders less than the whole list (a page of a paged list). */
  sortNote?: string;
  /** A row's class (a severity, a state) from its values. */
  rowClass?: (row: Record<string, Json>) => string | undefined;
}

export function RecordTable({
  rows,
  caption,
  rowAction,
  csvName,
  cells,
  labels,
  empty,
  dense,
  testid,
  sortNote,
  rowClass,
}: RecordTableProps) {
  const [sort, setSort] = useState<{ column: string; descending: boolean } | null>(null);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const shown = sort
    ? [...rows].sort((a, b) => {
        const x = sortKey(a[sort.column]);
        const y = sortKey(b[sort.column]);
        const order =
          typeof x === "number" && typeof y === "number"
            ? x - y
            : String(x).localeCompare(String(y), "en", { numeric: true });
        return sort.descending ? -order : order;
      })
    : rows;
  // Which columns hold numbers, found once per render (not once per cell: a page of 100 rows has 1,000 cells).
  const numeric = new Set(columns.filter((c) => numberKind(c) !== "id" && rows.some((r) => typeof r[c] === "number")));
  const numericColumn = (c: string) => numeric.has(c);
  const label = (c: string) => labels?.[c] ?? labelOf(c);
  if (rows.length === 0) return <p class="muted">{empty ?? "None."}</p>;
  return (
    <div class="table-block">
      <div class="table-wrap" tabIndex={0} role="region" aria-label={caption ?? "Table"}>
        <table class={dense ? "records dense" : "records"} data-testid={testid}>
          {caption && <caption>{caption}</caption>}
          <thead>
            <tr>
              {columns.map((c) => {
                const state = sort?.column === c ? (sort.descending ? "descending" : "ascending") : "none";
                return (
                  <th scope="col" key={c} aria-sort={state} class={numericColumn(c) ? "num" : undefined}>
                    <button
                      type="button"
                      class="sort"
                      onClick={() => setSort({ column: c, descending: sort?.column === c ? !sort.descending : false })}
                    >
                      {label(c)}
                      <span aria-hidden="true">
                        {state === "ascending" ? " ▲" : state === "descending" ? " ▼" : ""}
                      </span>
                    </button>
                  </th>
                );
              })}
              {rowAction && (
                <th scope="col" class="row-actions">
                  Actions
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i} class={rowClass?.(row)}>
                {columns.map((c) => (
                  <td key={c} class={numericColumn(c) ? "num" : long(row[c]) ? "wrap" : undefined}>
                    {cells?.[c] ? cells[c](row) : <Cell value={row[c] ?? null} name={c} />}
                  </td>
                ))}
                {rowAction && <td class="row-actions">{rowAction(row)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > 1 && (
        <p class="table-foot">
          <button
            type="button"
            class="link"
            onClick={() =>
              download(`${csvName ?? caption ?? "table"}.csv`.replace(/[^\w.-]+/g, "-"), toCsv(columns, shown, label))
            }
          >
            Export CSV
          </button>
          <span class="muted">
            {" "}
            ({rows.length} row{rows.length === 1 ? "" : "s"} as shown{sortNote ? `; ${sortNote}` : ""})
          </span>
        </p>
      )}
    </div>
  );
}

export function JsonView({
  value,
  compact = false,
  caption,
  name = "",
}: {
  value: unknown;
  compact?: boolean;
  caption?: string;
  name?: string;
}) {
  const v = value as Json;
  if (isScalar(v)) return <Scalar value={v} name={name} />;
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every(isRecord))
      return <RecordTable rows={v} {...(caption ? { caption } : name ? { caption: labelOf(name) } : {})} />;
    if (v.length === 0) return <span class="muted">None.</span>;
    return <span>{v.every(isScalar) ? listText(v) : v.map((x) => JSON.stringify(x)).join(", ")}</span>;
  }
  const entries = Object.entries(v as Record<string, Json>);
  if (compact && entries.every(([, x]) => isScalar(x))) {
    return <span class="compact">{entries.map(([k, x]) => `${labelOf(k)}: ${formatValue(k, x)}`).join(" · ")}</span>;
  }
  const groups = entries.filter(
    ([, x]) => isRecord(x) && Object.values(x).every((y) => isScalar(y) || (Array.isArray(y) && y.every(isScalar))),
  );
  if (!compact && groups.length >= 2) {
    // A status made of parts (control plane, data plane, CPU, memory …): each part a small card, side by side.
    const rest = entries.filter((e) => !groups.includes(e));
    return (
      <>
        {rest.length > 0 && <JsonView value={Object.fromEntries(rest)} />}
        <div class="grid parts">
          {groups.map(([k, x]) => (
            <section class="card part" key={k} aria-label={labelOf(k)}>
              <h3>{labelOf(k)}</h3>
              <JsonView value={x} />
            </section>
          ))}
        </div>
      </>
    );
  }
  return (
    <dl class={compact ? "dl compact" : "dl"}>
      {entries.map(([k, x]) => (
        <div key={k} class={isScalar(x) || (Array.isArray(x) && x.every(isScalar)) ? "dl-row" : "dl-row wide"}>
          <dt>{labelOf(k)}</dt>
          <dd>{isScalar(x) ? <Scalar value={x} name={k} /> : <JsonView value={x} compact={compact} name={k} />}</dd>
        </div>
      ))}
    </dl>
  );
}
