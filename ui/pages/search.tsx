/**
 * Subscriber search across the fleet: what a NOC engineer types (a
 * username, an address or prefix, a MAC, a VLAN) asked of this appliance and
 * every peer through the fleet proxy. Results show grouped by appliance as
 * they arrive; a slow or dead peer is marked and never holds up the others;
 * at most `FAN_OUT` appliances are asked at once, so a fleet of 1,000 is
 * searched progressively, not all at once.
 */
import { count } from "../format.ts";
import { Component } from "preact";
import { useEffect, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, peerBase, type Answer, type Input } from "../api.ts";
import { navigate } from "../router.ts";
import { RecordTable } from "../components/json-view.tsx";
import type { FleetAppliance } from "../types.ts";

type SessionList = Answer<typeof contract.sessions.list>;
import { classify, type SearchKind } from "./search-terms.ts";

/** Appliances asked at once. */
const FAN_OUT = 8;
/** How long one appliance may take before it is marked slow and left. */
const PER_APPLIANCE_MS = 5_000;
/** Matches shown per appliance (the first page, newest first). */
const LIMIT = 50;

type Group =
  | { state: "waiting" | "searching" }
  | { state: "done"; list: SessionList }
  | { state: "failed"; detail: string };

/** The session list query for a search: `ip`, `username`, `mac`; a VLAN as `svlan.vlan` (S-VLAN and C-VLAN) or a lone C-VLAN. */
function queryOf(kind: SearchKind, value: string): Input<typeof contract.sessions.list>["query"] {
  if (kind === "vlan") {
    const [outer, inner] = value.split(".");
    return inner === undefined ? { vlan: Number(outer), limit: LIMIT } : { svlan: Number(outer), vlan: Number(inner), limit: LIMIT };
  }
  return { [kind]: value, limit: LIMIT };
}

export function Search({ text }: { text: string }) {
  const [appliances, setAppliances] = useState<FleetAppliance[] | null>(null);
  const [groups, setGroups] = useState<Record<string, Group>>({});
  const [listError, setListError] = useState<string | null>(null);
  const { kind, value } = classify(text);

  useEffect(() => {
    if (!value) return;
    let stopped = false;
    const controllers = new Set<AbortController>();
    setGroups({});
    setListError(null);
    void (async () => {
      let all: FleetAppliance[];
      try {
        all = await call(contract.fleet.appliances);
      } catch (failure) {
        // No fleet list for this role or box: search this appliance alone.
        all = [{ name: "this appliance", self: true, url: null }];
        setListError(failure instanceof ApiError ? failure.message : String(failure));
      }
      if (stopped) return;
      setAppliances(all);
      setGroups(Object.fromEntries(all.map((a) => [a.name, { state: "waiting" } as Group])));
      const queue = [...all];
      const worker = async () => {
        for (let next = queue.shift(); next && !stopped; next = queue.shift()) {
          const a = next;
          setGroups((g) => ({ ...g, [a.name]: { state: "searching" } }));
          const controller = new AbortController();
          controllers.add(controller);
          const timer = setTimeout(() => controller.abort(), PER_APPLIANCE_MS);
          let group: Group;
          try {
            group = { state: "done", list: await call(contract.sessions.list, { query: queryOf(kind, value) }, a.self ? "" : peerBase(a.name), { signal: controller.signal }) };
          } catch (failure) {
            group = { state: "failed", detail: controller.signal.aborted ? `no answer within ${PER_APPLIANCE_MS / 1000} s` : failure instanceof ApiError ? failure.message : String(failure) };
          } finally {
            clearTimeout(timer);
            controllers.delete(controller);
          }
          if (!stopped) setGroups((g) => ({ ...g, [a.name]: group }));
        }
      };
      await Promise.all(Array.from({ length: Math.min(FAN_OUT, all.length) }, worker));
    })();
    return () => {
      stopped = true;
      for (const c of controllers) c.abort();
    };
  }, [kind, value]);

  const entries = appliances ?? [];
  const done = entries.filter((a) => groups[a.name]?.state === "done" || groups[a.name]?.state === "failed").length;
  const found = entries.reduce((n, a) => n + (groups[a.name]?.state === "done" ? (groups[a.name] as { list: SessionList }).list.total : 0), 0);
  return (
    <>
      <h1>Subscriber search</h1>
      <SearchForm id="search-page-q" label="Username, IP address or prefix, MAC, or VLAN" text={text} />
      {!value ? (
        <p class="muted">Type what you know about the subscriber: part of the username, an IPv4 or IPv6 address or prefix, a MAC, or a VLAN (S-VLAN.C-VLAN).</p>
      ) : (
        <>
          <p role="status" aria-live="polite">
            Searching by <strong>{kind === "ip" ? "address" : kind === "mac" ? "MAC" : kind === "vlan" ? (value.includes(".") ? "S-VLAN.C-VLAN" : "C-VLAN") : "username"}</strong> “{value}”: {done} of {entries.length} appliances answered, {count(found)} sessions found.
          </p>
          {listError && <p class="notice">The fleet list could not be read ({listError}): this appliance only.</p>}
          {entries.map((a) => (
            <ResultGroup key={a.name} appliance={a} group={groups[a.name] ?? WAITING} />
          ))}
        </>
      )}
    </>
  );
}

const WAITING: Group = { state: "waiting" };

type GroupProps = { appliance: FleetAppliance; group: Group };

/**
 * One appliance's group, rendered again only when its own answer changes: every answer re-renders the page, and
 * redrawing every group's table each time (up to 50 rows each) made a 100-appliance search quadratic, the page's
 * main thread busy for 90 s of it (npm run bench:ui, docs/benchmark.md). A class for shouldComponentUpdate:
 * preact/compat's memo would bring compat's option hooks into the bundle.
 */
class ResultGroup extends Component<GroupProps> {
  override shouldComponentUpdate(next: GroupProps): boolean {
    return next.group !== this.props.group || next.appliance !== this.props.appliance;
  }

  override render() {
    return <GroupView {...this.props} />;
  }
}

function GroupView({ appliance, group }: GroupProps) {
  const base = appliance.self ? "" : `/fleet/${encodeURIComponent(appliance.name)}`;
  const id = `results-${appliance.name.replace(/[^\w-]/g, "-")}`;
  return (
    <section class="card search-group" aria-labelledby={id} data-appliance={appliance.name}>
      <h2 id={id}>
        {appliance.name}
        {appliance.self ? <span class="muted"> (this appliance)</span> : <span class="muted"> (read-only)</span>}
      </h2>
      {group.state === "waiting" && <p class="muted">Waiting…</p>}
      {group.state === "searching" && <p class="muted">Searching…</p>}
      {group.state === "failed" && <p class="tone-bad">Not searched: {group.detail}</p>}
      {group.state === "done" &&
        (group.list.total === 0 ? (
          <p class="muted">No match.</p>
        ) : (
          <>
            {group.list.total > group.list.items.length && (
              <p class="muted">
                The newest {group.list.items.length} of {count(group.list.total)} matches; <a href={`${base}/sessions`}>narrow the search on the sessions page</a>.
              </p>
            )}
            <RecordTable
              rows={group.list.items as unknown as Record<string, null>[]}
              caption={`Sessions on ${appliance.name}`}
              rowAction={(row) => (
                <a href={`${base}/sessions/${String(row.id)}`} aria-label={`Open session ${String(row.id)} on ${appliance.name}`}>
                  Open
                </a>
              )}
            />
          </>
        ))}
    </section>
  );
}

/**
 * The search box, in the header of every page (`compact`: its label for
 * screen readers only) and on the results page: it goes to the results page,
 * which asks the whole fleet.
 */
export function SearchForm({ id, label, text = "", compact = false }: { id: string; label: string; text?: string; compact?: boolean }) {
  return (
    <form
      class={compact ? "header-search" : "inline"}
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const q = (new FormData(e.currentTarget).get("q") as string).trim();
        if (q) navigate(`/search?q=${encodeURIComponent(q)}`);
      }}
    >
      <label for={id} class={compact ? "sr-only" : undefined}>
        {label}
      </label>
      <input id={id} name="q" type="search" defaultValue={text} placeholder={compact ? "Find a subscriber: user, IP, MAC, VLAN" : undefined} spellcheck={false} autoComplete="off" />
      {!compact && <button type="submit">Search</button>}
    </form>
  );
}
