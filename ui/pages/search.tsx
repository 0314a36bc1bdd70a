/**
 * Subscriber search across the fleet: what a NOC engineer types (a
 * username, an address or prefix, a MAC, a VLAN) asked of this appliance and
 * every peer through the fleet proxy, 40 appliances a request
 * (ui/fan-out.ts). Results show grouped by appliance as they arrive; a slow or
 * dead peer is marked after PER_APPLIANCE_MS and never holds up the others.
 *
 * Drawn for a fleet of a thousand: an appliance with matches gets a card
 * with its first few sessions, and the rest of its first page is read from
 * it when asked for; the appliances still being asked, those with no match
 * and those not searched are each one line of names, not a card apiece. A
 * 100-appliance search used to build 5,000 table rows, which kept the main
 * thread busy long enough to delay the answers still to come; and reading 50
 * rows from each of 1,000 appliances to show 5 was 20 MB of JSON through the
 * fan-out, about half of a broad search's time (docs/benchmark.md).
 */
import { count } from "../format.ts";
import { Component } from "preact";
import { useEffect, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, type Answer, type Input } from "../api.ts";
import { fanOut } from "../fan-out.ts";
import { navigate } from "../router.ts";
import type { FleetAppliance } from "../types.ts";

type SessionList = Answer<typeof contract.sessions.list>;
import { FIRST_ROWS, PAGE_ROWS, classify, type SearchKind } from "./search-terms.ts";

/** How long one appliance may take before it is marked slow and left. */
const PER_APPLIANCE_MS = 5_000;
/** Answers are drawn together at most this often: one render per answer kept the main thread from the next answers. */
const DRAW_EVERY_MS = 100;

type Group =
  | { state: "waiting" | "searching" }
  | { state: "done"; list: SessionList }
  | { state: "failed"; detail: string };

type SessionQuery = NonNullable<Input<typeof contract.sessions.list>["query"]>;

/**
 * The session list query for a search, `limit` rows: `ip`, `username`, `mac`; a VLAN as `svlan.vlan` (S-VLAN and
 * C-VLAN) or a lone C-VLAN.
 */
function queryOf(kind: SearchKind, value: string, limit: number): SessionQuery {
  if (kind === "vlan") {
    const [outer, inner] = value.split(".");
    return inner === undefined ? { vlan: Number(outer), limit } : { svlan: Number(outer), vlan: Number(inner), limit };
  }
  return { [kind]: value, limit };
}

export function Search({ text }: { text: string }) {
  const [appliances, setAppliances] = useState<FleetAppliance[] | null>(null);
  const [groups, setGroups] = useState<Record<string, Group>>({});
  const [listError, setListError] = useState<string | null>(null);
  const { kind, value } = classify(text);

  useEffect(() => {
    if (!value) return;
    let stopped = false;
    const controller = new AbortController();
    setGroups({});
    setListError(null);
    void (async () => {
      let all: FleetAppliance[];
      let listed = true;
      try {
        all = await call(contract.fleet.appliances, {}, "", { signal: controller.signal });
      } catch (failure) {
        // No fleet list for this role or box: search this appliance alone.
        all = [{ name: "this appliance", self: true, url: null }];
        listed = false;
        setListError(failure instanceof ApiError ? failure.message : String(failure));
      }
      if (stopped) return;
      setAppliances(all);
      setGroups(Object.fromEntries(all.map((a) => [a.name, { state: "waiting" } as Group])));
      // Changes gathered and drawn together, at most every DRAW_EVERY_MS; until the first match is on screen, at once.
      let changes: Record<string, Group> = {};
      let drawTimer: ReturnType<typeof setTimeout> | null = null;
      let matchShown = false;
      const update = (name: string, group: Group) => {
        if (stopped) return;
        changes[name] = group;
        const match = group.state === "done" && group.list.total > 0;
        drawTimer ??= setTimeout(
          () => {
            const batch = changes;
            changes = {};
            drawTimer = null;
            if (!stopped) setGroups((g) => ({ ...g, ...batch }));
          },
          matchShown || !match ? DRAW_EVERY_MS : 0,
        );
        if (match) matchShown = true;
      };
      const query = queryOf(kind, value, FIRST_ROWS);
      if (!listed) {
        // Without the fleet list this appliance's name is unknown, so it is asked directly.
        try {
          update(all[0]!.name, {
            state: "done",
            list: await call(contract.sessions.list, { query }, "", { signal: controller.signal }),
          });
        } catch (failure) {
          update(all[0]!.name, {
            state: "failed",
            detail: failure instanceof ApiError ? failure.message : String(failure),
          });
        }
        return;
      }
      // Every appliance, this one included, through fan-out reads (ui/fan-out.ts): 40 a request, six requests at once;
      // one that has not answered within PER_APPLIANCE_MS is left, and holds up none of the others.
      await fanOut(
        contract.sessions.list,
        { query },
        all.map((a) => a.name),
        (name, row) =>
          update(
            name,
            row.ok
              ? { state: "done", list: row.value }
              : {
                  state: "failed",
                  detail: row.status === 504 ? `no answer within ${PER_APPLIANCE_MS / 1000} s` : row.detail,
                },
          ),
        {
          timeoutMs: PER_APPLIANCE_MS,
          signal: controller.signal,
          onAsk: (slice) => slice.forEach((name) => update(name, { state: "searching" })),
        },
      );
    })();
    return () => {
      stopped = true;
      controller.abort();
    };
  }, [kind, value]);

  const entries = appliances ?? [];
  const stateOf = (a: FleetAppliance): Group => groups[a.name] ?? WAITING;
  const matched = entries.filter((a) => {
    const g = stateOf(a);
    return g.state === "done" && g.list.total > 0;
  });
  const pending = entries.filter((a) => {
    const g = stateOf(a);
    return g.state === "waiting" || g.state === "searching";
  });
  const empty = entries.filter((a) => {
    const g = stateOf(a);
    return g.state === "done" && g.list.total === 0;
  });
  const failed = entries.filter((a) => stateOf(a).state === "failed");
  const done = entries.length - pending.length;
  const found = matched.reduce((n, a) => n + (stateOf(a) as { list: SessionList }).list.total, 0);
  // One appliance's first page of matches, which a card reads when asked for more: one query for every card.
  const pageQuery = queryOf(kind, value, PAGE_ROWS);
  return (
    <>
      <h1>Subscriber search</h1>
      <SearchForm id="search-page-q" label="Username, IP address or prefix, MAC, or VLAN" text={text} />
      {!value ? (
        <p class="muted">
          Type what you know about the subscriber: part of the username, an IPv4 or IPv6 address or prefix, a MAC, or a
          VLAN (S-VLAN.C-VLAN).
        </p>
      ) : (
        <>
          <p role="status" aria-live="polite">
            Searching by{" "}
            <strong>
              {kind === "ip"
                ? "address"
                : kind === "mac"
                  ? "MAC"
                  : kind === "vlan"
                    ? value.includes(".")
                      ? "S-VLAN.C-VLAN"
                      : "C-VLAN"
                    : "username"}
            </strong>{" "}
            “{value}”: {done} of {entries.length} appliances answered, {count(found)}{" "}
            {found === 1 ? "session" : "sessions"} found.
          </p>
          {listError && <p class="notice">The fleet list could not be read ({listError}): this appliance only.</p>}
          {failed.length > 0 && (
            <div class="card search-others">
              <h2 class="tone-bad">Not searched ({failed.length})</h2>
              <ul class="search-failed">
                {failed.map((a) => (
                  <li key={a.name} data-appliance={a.name} data-state="failed">
                    <strong>{a.name}</strong>: {(stateOf(a) as { detail: string }).detail}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {matched.map((a) => (
            // Keyed by the search too: a page read for one search is never shown under the next.
            <ResultGroup key={`${kind} ${value} ${a.name}`} appliance={a} group={stateOf(a)} query={pageQuery} />
          ))}
          {pending.length > 0 && (
            <NameLine
              title={
                `Searching… ${pending.length} ${pending.length === 1 ? "appliance" : "appliances"} ` + `still to answer`
              }
              appliances={pending}
              groups={groups}
            />
          )}
          {empty.length > 0 && (
            <NameLine
              title={`No match on ${empty.length} ${empty.length === 1 ? "appliance" : "appliances"}`}
              appliances={empty}
              groups={groups}
            />
          )}
        </>
      )}
    </>
  );
}

const WAITING: Group = { state: "waiting" };

/**
 * Appliances in one state (still asked, or no match) as one line of names:
 * a thousand of them cost a thousand small inline elements, not a thousand
 * cards. Each name carries its state for the benchmark's probe.
 */
function NameLine({
  title,
  appliances,
  groups,
}: {
  title: string;
  appliances: FleetAppliance[];
  groups: Record<string, Group>;
}) {
  return (
    <details class="card search-others">
      <summary>{title}</summary>
      <p class="search-names">
        {appliances.map((a) => (
          <span key={a.name} data-appliance={a.name} data-state={(groups[a.name] ?? WAITING).state}>
            {a.name}{" "}
          </span>
        ))}
      </p>
    </details>
  );
}

/**
 * `query`: the search as one appliance's first page of matches, read when the engineer asks for more than the card
 * shows.
 */
type GroupProps = { appliance: FleetAppliance; group: Group; query: SessionQuery };

/** Where an appliance's API and pages are, from this one: itself, or a peer through the fleet proxy. */
const baseOf = (appliance: FleetAppliance): string =>
  appliance.self ? "" : `/fleet/${encodeURIComponent(appliance.name)}`;

/** An appliance's first page, read when asked for: under way, read, or why not. */
type More = { state: "reading" } | { state: "read"; list: SessionList } | { state: "failed"; detail: string };

/**
 * One appliance's group, rendered again only when its own answer changes: every answer re-renders the page, and
 * redrawing every group's table each time made a 100-appliance search quadratic, the page's main thread busy for
 * 90 s of it (npm run bench:ui, docs/benchmark.md). A class for shouldComponentUpdate: preact/compat's memo would
 * bring compat's option hooks into the bundle.
 */
class ResultGroup extends Component<GroupProps, { more?: More }> {
  override shouldComponentUpdate(next: GroupProps, state: { more?: More }): boolean {
    return next.group !== this.props.group || next.appliance !== this.props.appliance || state.more !== this.state.more;
  }

  /** Reads the appliance's first page of matches. */
  readonly #readMore = async () => {
    const { appliance, query } = this.props;
    this.setState({ more: { state: "reading" } });
    try {
      const list = await call(contract.sessions.list, { query }, baseOf(appliance));
      this.setState({ more: { state: "read", list } });
    } catch (failure) {
      this.setState({
        more: { state: "failed", detail: failure instanceof ApiError ? failure.message : String(failure) },
      });
    }
  };

  override render() {
    return <GroupView {...this.props} more={this.state.more} readMore={this.#readMore} />;
  }
}

function GroupView({
  appliance,
  group,
  more,
  readMore,
}: GroupProps & { more: More | undefined; readMore: () => void }) {
  const base = baseOf(appliance);
  const id = `results-${appliance.name.replace(/[^\w-]/g, "-")}`;
  if (group.state !== "done") return null;
  // The page read on demand is newer than the search's answer: its rows and count replace the card's.
  const { items, total } = more?.state === "read" ? more.list : group.list;
  const moreToRead = Math.min(total, PAGE_ROWS);
  return (
    <section class="card search-group" aria-labelledby={id} data-appliance={appliance.name} data-state="done">
      <h2 id={id}>
        {appliance.name}
        {appliance.self ? <span class="muted"> (this appliance)</span> : <span class="muted"> (read-only)</span>}
        <span class="muted">
          {" "}
          · {count(total)} {total === 1 ? "match" : "matches"}
        </span>
      </h2>
      <div class="table-wrap" tabIndex={0} role="region" aria-label={`Sessions on ${appliance.name}`}>
        <table class="records dense">
          <caption class="sr-only">Sessions on {appliance.name} matching the search, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">IPv4</th>
              <th scope="col">IPv6</th>
              <th scope="col">MAC</th>
              <th scope="col" title="S-VLAN.C-VLAN">
                VLANs
              </th>
              <th scope="col">VRF</th>
              <th scope="col" class="row-actions">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((row) => (
              <tr key={row.id}>
                <td class="wrap">{row.username}</td>
                <td>{row.ipv4}</td>
                <td class="wrap">{row.ipv6}</td>
                <td>{row.mac}</td>
                {/* An LNS-terminated session arrives in a tunnel, on no subscriber-facing port: it has no VLANs. */}
                <td>{row.portId === null ? "—" : `${row.svlan}.${row.vlan}`}</td>
                <td class="wrap">{row.vrf}</td>
                <td class="row-actions">
                  <a
                    href={`${base}/sessions/${String(row.id)}`}
                    aria-label={`Open session ${String(row.id)} on ${appliance.name}`}
                  >
                    Open
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more?.state !== "read" && total > items.length && (
        <p>
          <button type="button" class="link" onClick={readMore} disabled={more?.state === "reading"}>
            {more?.state === "reading" ? `Reading the newest ${moreToRead}…` : `Show the newest ${moreToRead}`}
          </button>
          {more?.state === "failed" && (
            <span class="notice" role="alert">
              {" "}
              Not read: {more.detail}
            </span>
          )}
        </p>
      )}
      {more?.state === "read" && total > items.length && (
        <p class="muted">
          The newest {items.length} of {count(total)} matches;{" "}
          <a href={`${base}/sessions`}>narrow the search on the sessions page</a>.
        </p>
      )}
    </section>
  );
}

/**
 * The search box, in the header of every page (`compact`: its label for
 * screen readers only) and on the results page: it goes to the results page,
 * which asks the whole fleet.
 */
export function SearchForm({
  id,
  label,
  text = "",
  compact = false,
}: {
  id: string;
  label: string;
  text?: string;
  compact?: boolean;
}) {
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
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={text}
        placeholder={compact ? "Find a subscriber: user, IP, MAC, VLAN" : undefined}
        spellcheck={false}
        autoComplete="off"
      />
      {!compact && <button type="submit">Search</button>}
    </form>
  );
}
