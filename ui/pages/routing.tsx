/**
 * Routing: the BGP neighbors with their state in colour, uptime and the
 * routes each way (a row opens the routes received from it or advertised to
 * it, labelled as what they are), the IGP's interfaces and adjacencies, any
 * VRF's route table, and the configuration: neighbors added, edited and
 * removed on their rows, the global settings and the static routes.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call, type Answer, type ApiError } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { count, utc } from "../format.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable, Scalar, type Json } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Facts, Fold, Pager } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { choicesOf, useVrfChoices } from "./choices.ts";
import { placeRoutingSettingsError, placeStaticRouteError } from "./config-pointers.ts";
import type { PageContext } from "./context.ts";

const PAGE = 50;
/** The members of a read that its write takes (the static route table's write is strict). */
const pick = (row: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => row[k] !== undefined).map((k) => [k, row[k]]));
type Direction = "received" | "advertised";
interface Peering {
  peer: string;
  vrf: string;
  afiSafi: string;
  type: Direction;
}

export function Routing({ ctx }: { ctx: PageContext }) {
  const summary = useCall(contract.routing.bgpSummary, {}, { base: ctx.base, refreshMs: 10_000 });
  const config = useCall(contract.routingConfig.get, {}, { base: ctx.base });
  const [peering, setPeering] = useState<Peering | null>(null);
  const local = !ctx.peer;
  const rows = useRowActions();
  const configured = new Set(config.data?.neighbors.map((n) => n.address));
  const mayRemove = local && can(contract.routingConfig.removeNeighbor);
  const [editing, setEditing] = useState<string | null>(null);
  const reload = () => {
    summary.reload();
    config.reload();
  };
  const editingNeighbor = config.data?.neighbors.find((n) => n.address === editing);
  return (
    <>
      <h1>Routing</h1>
      <Loaded resource={summary}>
        {(s) => (
          <Card id="bgp" title="BGP neighbors">
            <Facts
              label="BGP"
              items={[
                ["Local AS", <span data-testid="local-as">{s.localAs ?? "none"}</span>],
                ["Router ID", s.routerId ?? "—"],
                ["Established", `${s.peers.filter((p) => p.state === "Established").length} of ${s.peers.length}`],
                ["Daemon", <Scalar value={s.reachable} name="reachable" />],
              ]}
            />
            {rows.note}
            <RecordTable
              caption="BGP neighbors"
              csvName="bgp-neighbors"
              rows={s.peers.map((p) => ({
                peer: p.peer,
                vrf: p.vrf,
                description: p.description,
                remoteAs: p.remoteAs,
                afiSafi: p.afiSafi,
                state: p.state,
                uptimeSeconds: p.uptimeSeconds || null,
                prefixesReceived: p.prefixesReceived,
                prefixesSent: p.prefixesSent,
              }))}
              labels={{
                peer: "Neighbor",
                afiSafi: "Family",
                uptimeSeconds: "Up for",
                prefixesReceived: "Received",
                prefixesSent: "Advertised",
              }}
              cells={{
                prefixesReceived: (row) => (
                  <RoutesButton row={row} type="received" peering={peering} setPeering={setPeering} />
                ),
                prefixesSent: (row) => (
                  <RoutesButton row={row} type="advertised" peering={peering} setPeering={setPeering} />
                ),
              }}
              rowAction={(row) => {
                const peer = String(row.peer);
                // A neighbor's changes sit on its first row (one row per address family).
                const first = s.peers.find((p) => p.peer === peer && p.vrf === row.vrf)?.afiSafi === row.afiSafi;
                if (!local || row.vrf !== "default" || !configured.has(peer) || !first) return null;
                return (
                  <>
                    {can(contract.routingConfig.replaceNeighbor) && (
                      <RowButton
                        verb="Edit"
                        target={`neighbor ${peer}`}
                        pressed={editing === peer}
                        onClick={() => setEditing(editing === peer ? null : peer)}
                      />
                    )}
                    {mayRemove && (
                      <RowButton
                        verb="Remove"
                        target={`neighbor ${peer}`}
                        onClick={() =>
                          void rows.act(
                            `Remove BGP neighbor ${peer} (AS ${row.remoteAs})? Its session closes now.`,
                            () => call(contract.routingConfig.removeNeighbor, { params: { address: peer } }),
                            `BGP neighbor ${peer} removed.`,
                            reload,
                          )
                        }
                      />
                    )}
                  </>
                );
              }}
            />
            {editingNeighbor && (
              <ActionForm
                key={editingNeighbor.address}
                operation={contract.routingConfig.replaceNeighbor}
                configList="bgp.neighbors"
                params={{ address: editingNeighbor.address }}
                current={editingNeighbor}
                hide={["address"]}
                title={`Edit neighbor ${editingNeighbor.address}`}
                submitLabel="Save"
                onDone={reload}
              />
            )}
            {local && can(contract.routingConfig.createNeighbor) && (
              <Fold title="Add a neighbor">
                <ActionForm
                  operation={contract.routingConfig.createNeighbor}
                  configList="bgp.neighbors"
                  title="Add a BGP neighbor"
                  onDone={reload}
                />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
      {peering && <NeighborRoutes ctx={ctx} peering={peering} />}
      <Igp ctx={ctx} />
      <VrfRoutes ctx={ctx} />
      {local && config.data && can(contract.routingConfig.update) && (
        <Card id="routing-settings" title="Settings and static routes">
          <RecordTable caption="Static routes" rows={config.data.staticRoutes as never} empty="No static routes." />
          <Fold title="Change the local AS, router ID or IGP">
            <ActionForm
              operation={contract.routingConfig.update}
              current={config.data}
              recordNames={{ interfaces: "interface" }}
              placeError={placeRoutingSettingsError}
              title="Change routing settings"
              submitLabel="Save"
              onDone={reload}
            />
          </Fold>
          <Fold title="Edit the static routes">
            <StaticRoutesForm routes={config.data.staticRoutes} onDone={reload} />
          </Fold>
        </Card>
      )}
    </>
  );
}

/**
 * The static route table, edited as a whole (the API replaces it): one row
 * per route, starting from the table as it is, the VRF a select, the next hop
 * typed with the gateways the API knows suggested (the IGP's neighbors, the
 * next hops already in use, `blackhole`). A refusal stands on the row and
 * member it names.
 */
function StaticRoutesForm({
  routes,
  onDone,
}: {
  routes: Answer<typeof contract.routingConfig.get>["staticRoutes"];
  onDone: () => void;
}) {
  const vrfs = useVrfChoices();
  const igp = useCall(can(contract.routing.igp) ? contract.routing.igp : null);
  const gateways = [
    ...new Set([
      ...(igp.data?.adjacencies.map((a) => a.neighborAddress) ?? []),
      ...routes
        .map((r) => String((r as { nextHop?: unknown }).nextHop ?? ""))
        .filter((h) => h !== "" && h !== "blackhole"),
    ]),
  ].sort();
  return (
    // Not keyed by the table: a save reloads it, and the form (what was typed, now stored) stays with its outcome in
    // view.
    <ActionForm
      operation={contract.routingConfig.replaceStaticRoutes}
      current={{
        routes: routes.map((r) => pick(r, ["vrf", "prefix", "nextHop", "distance", "announce", "description"])),
      }}
      choices={choicesOf({ "routes/vrf": vrfs })}
      suggestions={{ "routes/nextHop": ["blackhole", ...gateways] }}
      recordNames={{ routes: "route" }}
      placeError={placeStaticRouteError}
      title="Edit the static routes"
      submitLabel="Save the static routes"
      renderResult={(result) => {
        const r = result as Answer<typeof contract.routingConfig.replaceStaticRoutes>;
        return r.changedPaths.length === 0
          ? "Nothing changed."
          : `Saved as configuration version ${r.version}${r.committedUtc ? `, at ${utc(r.committedUtc)}` : ""}.`;
      }}
      onDone={onDone}
    />
  );
}

/** A route count that opens the routes it counts (received from the neighbor, or advertised to it). */
function RoutesButton({
  row,
  type,
  peering,
  setPeering,
}: {
  row: Record<string, Json>;
  type: Direction;
  peering: Peering | null;
  setPeering: (p: Peering | null) => void;
}) {
  const at = { peer: String(row.peer), vrf: String(row.vrf), afiSafi: String(row.afiSafi), type };
  const shown =
    peering !== null &&
    peering.peer === at.peer &&
    peering.vrf === at.vrf &&
    peering.afiSafi === at.afiSafi &&
    peering.type === type;
  const n = Number(type === "received" ? row.prefixesReceived : row.prefixesSent);
  return (
    <button
      type="button"
      class="link"
      aria-pressed={shown}
      aria-label={
        `${type === "received" ? "Routes received from" : "Routes advertised to"} ${at.peer} ` + `(${at.afiSafi}): ${n}`
      }
      onClick={() => setPeering(shown ? null : at)}
    >
      {count(n)}
    </button>
  );
}

/**
 * The routes of one neighbor, one way, one family: what the neighbor sent (before the inbound policy) or what this box
 * sends it.
 */
function NeighborRoutes({ ctx, peering }: { ctx: PageContext; peering: Peering }) {
  const [offset, setOffset] = useState(0);
  const routes = useCall(
    contract.routing.neighborRoutes,
    {
      params: { address: peering.peer },
      query: { type: peering.type, af: peering.afiSafi as never, vrf: peering.vrf, offset, limit: PAGE },
    },
    { base: ctx.base },
  );
  const title =
    peering.type === "received" ? `Routes received from ${peering.peer}` : `Routes advertised to ${peering.peer}`;
  return (
    <Card
      id="neighbor-routes"
      title={title}
      aside={
        `${peering.afiSafi}, ${peering.vrf === "default" ? "global table" : `VRF ${peering.vrf}`}` +
        `${peering.type === "received" ? ", before the inbound policy" : ""}`
      }
    >
      <RoutePage resource={routes} offset={offset} setOffset={setOffset} caption={title} />
    </Card>
  );
}

/** A page of routes, from either read (a neighbor's or a table's): both answer a RoutePage. */
type RouteAnswer = {
  data: Answer<typeof contract.routing.vrfRoutes> | undefined;
  error: ApiError | undefined;
  loading: boolean;
};

function RoutePage({
  resource,
  offset,
  setOffset,
  caption,
}: {
  resource: RouteAnswer;
  offset: number;
  setOffset: (n: number) => void;
  caption: string;
}) {
  return (
    <Loaded resource={resource}>
      {(page) => (
        <>
          <p role="status">
            {!page.reachable
              ? "Not available: the routing daemon did not answer."
              : page.total === 0
                ? "No routes."
                : `${count(page.offset + 1)}–${count(page.offset + page.routes.length)} of ${count(page.total)}`}
          </p>
          <RecordTable
            caption={caption}
            dense
            rows={page.routes as never}
            labels={{ best: "Best / installed", asPath: "AS path", rd: "RD", routeTargets: "Route targets" }}
          />
          <Pager offset={offset} total={page.total} size={PAGE} go={setOffset} />
        </>
      )}
    </Loaded>
  );
}

function Igp({ ctx }: { ctx: PageContext }) {
  const igp = useCall(contract.routing.igp, {}, { base: ctx.base, refreshMs: 15_000 });
  return (
    <Loaded resource={igp}>
      {(i) => (
        <Card
          id="igp"
          title={`IGP: ${i.protocol === "isis" ? "IS-IS" : i.protocol.toUpperCase()}`}
          aside={`router ID ${i.routerId ?? "—"}`}
        >
          <h3>Adjacencies</h3>
          <RecordTable
            caption="IGP adjacencies"
            dense
            rows={i.adjacencies.map((a) => ({
              interface: a.interface,
              neighborId: a.neighborId,
              neighborAddress: a.neighborAddress,
              state: a.state,
              area: a.area,
              cost: a.cost,
              uptimeSeconds: a.uptimeSeconds,
              deadTimerSeconds: a.deadTimerSeconds,
              lastChange: a.lastChangeUtc,
            }))}
            labels={{ neighborId: "Neighbor ID", uptimeSeconds: "Up for", deadTimerSeconds: "Dead in" }}
            empty="No adjacencies."
          />
          <h3>Interfaces</h3>
          <RecordTable
            caption="IGP interfaces"
            rows={i.interfaces.map((f) => ({ ...f, helloSeconds: f.helloSeconds, deadSeconds: f.deadSeconds }))}
            labels={{ helloSeconds: "Hello", deadSeconds: "Dead interval", fullNeighbors: "Full neighbors" }}
            empty="No IGP interfaces."
          />
        </Card>
      )}
    </Loaded>
  );
}

function VrfRoutes({ ctx }: { ctx: PageContext }) {
  const vrfs = useVrfChoices();
  const [draft, setDraft] = useState({ vrf: "default", protocol: "", filter: "" });
  const [asked, setAsked] = useState(draft);
  const [offset, setOffset] = useState(0);
  const query = {
    ...(asked.protocol ? { protocol: asked.protocol as never } : {}),
    ...(asked.filter ? { filter: asked.filter } : {}),
    offset,
    limit: PAGE,
  };
  const routes = useCall(contract.routing.vrfRoutes, { params: { vrf: asked.vrf }, query }, { base: ctx.base });
  return (
    <Card id="vrf-routes" title="Route tables">
      <form
        class="toolbar"
        aria-label="Route table"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setAsked(draft);
        }}
      >
        <label>
          Table
          <select value={draft.vrf} onChange={(e) => setDraft({ ...draft, vrf: e.currentTarget.value })}>
            {(vrfs ?? ["default"]).map((v) => (
              <option key={v} value={v}>
                {v === "default" ? "global (default)" : v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Protocol
          <select value={draft.protocol} onChange={(e) => setDraft({ ...draft, protocol: e.currentTarget.value })}>
            <option value="">any</option>
            {["connected", "subscriber", "framed", "static", "cgn", "bgp", "ospf", "isis"].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Prefix, next hop or AS path contains
          <input
            value={draft.filter}
            spellcheck={false}
            onInput={(e) => setDraft({ ...draft, filter: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Show</button>
      </form>
      <RoutePage resource={routes} offset={offset} setOffset={setOffset} caption={`Route table ${asked.vrf}`} />
    </Card>
  );
}
