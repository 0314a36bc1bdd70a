/**
 * Sessions: the spec's filters as a person asks them (a port by its name, a
 * VRF from those in use), paging newest first, and a dense table, one line a
 * session, so a 1024×768 screen shows at least 20: sortable, exported as CSV,
 * each row opening the session's page (./session.tsx).
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { count, sentence } from "../format.ts";
import { navigate, searchParams } from "../router.ts";
import type { PageContext } from "./context.ts";
import { Session } from "./session.tsx";
import type { ApiError } from "../api.ts";

const PAGE_SIZE = 100;
const FILTERS = ["username", "ip", "port", "vrf", "encap", "type", "plan", "walledGarden", "svlan", "vlan"] as const;
type Filter = (typeof FILTERS)[number];
/** The filters folded under "More filters" (the first five fit one line at 1024 px). */
const MORE: readonly Filter[] = ["type", "plan", "walledGarden", "svlan", "vlan"];

const ENCAPS = ["ipoe", "pppoe-local", "pppoe-lac", "l2tp"];

export function Sessions({ ctx }: { ctx: PageContext }) {
  if (ctx.rest[0]) return <Session ctx={ctx} id={ctx.rest[0]} />;
  return <SessionTable ctx={ctx} />;
}

/** A refused filter's words beside the filter that caused them (the API names it by its query parameter). */
const filterError = (error: ApiError | undefined, name: Filter) =>
  error?.fieldErrors.find((e) => e.pointer === `#/${name}`)?.detail;

function SessionTable({ ctx }: { ctx: PageContext }) {
  const params = searchParams();
  const offset = Number(params.get("offset") ?? 0) || 0;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""])) as Record<Filter, string>;
  const [draft, setDraft] = useState<Record<Filter, string>>(filters);
  const [more, setMore] = useState(MORE.some((f) => filters[f] !== ""));
  const list = useCall(
    contract.sessions.list,
    { query: { ...filters, offset, limit: PAGE_SIZE } },
    { base: ctx.base, refreshMs: 10_000 },
  );
  // Port names and the VRFs in use, for the filters' selects and the Port column.
  const summary = useCall(contract.sessions.summary, {}, { base: ctx.base, refreshMs: 60_000 });
  const portName = new Map(summary.data?.byPort.map((p) => [p.portId, p.label]) ?? []);
  const vrfs = Object.keys(summary.data?.byVrf ?? {}).sort();
  const here = `${ctx.base}/sessions`;
  const go = (next: Record<string, string>, nextOffset: number) => {
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v !== ""));
    if (nextOffset) q.set("offset", String(nextOffset));
    navigate(`${here}${q.size ? `?${q}` : ""}`);
  };
  const set = (name: Filter) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [name]: e.currentTarget.value });
  const field = (name: Filter, label: string, control: preact.ComponentChildren) => {
    const problem = filterError(list.error, name);
    return (
      <div class={problem ? "field invalid" : "field"}>
        <label for={`filter-${name}`}>{label}</label>
        {control}
        {problem && (
          <small class="field-error" id={`filter-${name}-error`}>
            {sentence(problem)}
          </small>
        )}
      </div>
    );
  };
  const described = (name: Filter) =>
    filterError(list.error, name) ? { "aria-invalid": true, "aria-describedby": `filter-${name}-error` } : {};
  const text = (name: Filter, label: string, extra: Record<string, unknown> = {}) =>
    field(
      name,
      label,
      <input
        id={`filter-${name}`}
        name={name}
        value={draft[name]}
        onInput={set(name)}
        spellcheck={false}
        {...described(name)}
        {...extra}
      />,
    );
  const select = (name: Filter, label: string, options: { value: string; label: string }[]) =>
    field(
      name,
      label,
      <select id={`filter-${name}`} name={name} value={draft[name]} onChange={set(name)} {...described(name)}>
        <option value="">any</option>
        {/* A filter from a link (a port no session uses now) stays selectable. */}
        {draft[name] && !options.some((o) => o.value === draft[name]) && (
          <option value={draft[name]}>{draft[name]}</option>
        )}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>,
    );
  return (
    <>
      <h1>Sessions</h1>
      <form
        class="filters"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          go(draft, 0);
        }}
      >
        <div class="filter-line">
          {text("username", "Username", { placeholder: "contains…" })}
          {text("ip", "Address", { placeholder: "starts with…" })}
          {select(
            "port",
            "Port",
            (summary.data?.byPort ?? []).map((p) => ({ value: String(p.portId), label: p.label })),
          )}
          {select(
            "vrf",
            "VRF",
            vrfs.map((v) => ({ value: v, label: v })),
          )}
          {select(
            "encap",
            "Encapsulation",
            ENCAPS.map((v) => ({ value: v, label: v })),
          )}
          <div class="filter-buttons">
            <button type="submit">Apply</button>
            <button
              type="button"
              class="secondary"
              aria-expanded={more}
              aria-controls="more-filters"
              onClick={() => setMore(!more)}
            >
              {more ? "Fewer filters" : "More filters"}
            </button>
          </div>
        </div>
        {more && (
          <div class="filter-line" id="more-filters">
            {select("type", "Type", [
              { value: "ipoe", label: "ipoe" },
              { value: "ppp", label: "ppp" },
            ])}
            {text("plan", "Plan")}
            {select("walledGarden", "Walled garden", [
              { value: "true", label: "only walled garden" },
              { value: "false", label: "not walled garden" },
            ])}
            {text("svlan", "S-VLAN", { inputMode: "numeric" })}
            {text("vlan", "C-VLAN", { inputMode: "numeric" })}
          </div>
        )}
      </form>
      {list.error && FILTERS.some((f) => filterError(list.error, f)) ? (
        <p class="problem" role="alert">
          {sentence(list.error.message)} The filter marked above was refused: nothing is listed until it is changed.
        </p>
      ) : (
        <Loaded resource={list}>
          {(l) => (
            <>
              <p role="status" class="range" data-testid="sessions-range">
                {l.total === 0
                  ? "No matching sessions"
                  : `${count(l.offset + 1)}–${count(l.offset + l.items.length)} of ${count(l.total)}`}
              </p>
              {l.items.length > 0 && (
                <RecordTable
                  testid="sessions-table"
                  caption="Sessions, newest first"
                  csvName="sessions"
                  dense
                  rows={l.items.map((s) => ({
                    id: s.id,
                    username: s.username,
                    encap: s.encap,
                    ipv4: s.ipv4,
                    ipv6: s.ipv6 || null,
                    vrf: s.vrf,
                    // The interface's name (`xe-0/0/0`); its description is the cell's title and the filter's label.
                    port: s.portId === null ? null : (portName.get(s.portId)?.split(" ")[0] ?? String(s.portId)),
                    vlans: `${s.svlan}.${s.vlan}`,
                    plan: s.plan,
                    uptimeSeconds: s.uptimeSeconds,
                  }))}
                  labels={{ id: "ID", ipv4: "IPv4", ipv6: "IPv6", vlans: "VLANs", uptimeSeconds: "Up for" }}
                  cells={{
                    id: (row) => <a href={`${here}/${String(row.id)}`}>{String(row.id)}</a>,
                    // A long username is cut at the column's width; the whole of it is the cell's title (and in the
                    // CSV).
                    username: (row) => (
                      <span class="clip" title={String(row.username)}>
                        {String(row.username)}
                      </span>
                    ),
                    vlans: (row) => <span title="S-VLAN.C-VLAN">{String(row.vlans)}</span>,
                    port: (row) =>
                      row.port === null ? (
                        <span class="muted">—</span>
                      ) : (
                        <span title={[...portName.values()].find((l) => l.startsWith(`${String(row.port)} `))}>
                          {String(row.port)}
                        </span>
                      ),
                  }}
                  sortNote="a column heading sorts this page"
                />
              )}
              <div class="pager">
                <button
                  type="button"
                  disabled={offset === 0}
                  onClick={() => go(filters, Math.max(0, offset - PAGE_SIZE))}
                >
                  Newer
                </button>
                <button
                  type="button"
                  disabled={offset + PAGE_SIZE >= l.total}
                  onClick={() => go(filters, offset + PAGE_SIZE)}
                >
                  Older
                </button>
              </div>
            </>
          )}
        </Loaded>
      )}
    </>
  );
}
