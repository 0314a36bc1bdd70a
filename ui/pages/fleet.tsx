/**
 * The fleet overview: every appliance of `fleet/appliances` with its health,
 * software, sessions, alarms and licence, refreshed. This appliance's row
 * follows the live channel; the peers' statuses are read through the fleet
 * proxy, 40 a request (ui/fan-out.ts), so a fleet of 1,000 is 25 requests a
 * refresh. One that does not answer is shown as unreachable; selecting a
 * peer opens its pages read-only.
 */
import { useEffect, useState } from "preact/hooks";
import { count } from "../format.ts";
import { contract } from "bngfleet:contract";
import { useCall, useStatus, type Resource } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import type { FleetAppliance } from "../types.ts";
import { HeaderRow } from "../components/header-row.tsx";
import { fanOut } from "../fan-out.ts";
import { ApiError, type Answer } from "../api.ts";

const REFRESH_MS = 15_000;
/** How long a peer may take before its row says so. */
const PER_APPLIANCE_MS = 5_000;

type Status = Answer<typeof contract.system.status>;

/**
 * The peers' statuses, every REFRESH_MS: each peer's last answer, or why there was none. A refresh replaces a
 * row only when its answer arrives, so the table never empties while it is asked again.
 */
function usePeerStatuses(peers: readonly string[]): Record<string, Resource<Status>> {
  const [rows, setRows] = useState<Record<string, Resource<Status>>>({});
  const key = peers.join(",");
  useEffect(() => {
    if (peers.length === 0) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A request's rows arrive together: drawn in one render, not one per peer.
    let pending: Record<string, Resource<Status>> = {};
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const batch = pending;
      pending = {};
      if (!controller.signal.aborted) setRows((old) => ({ ...old, ...batch }));
    };
    const refresh = async () => {
      await fanOut(
        contract.system.status,
        {},
        peers,
        (name, row) => {
          pending[name] = row.ok ? { data: row.value, error: undefined, loading: false, reload: () => {} } : { data: undefined, error: new ApiError(row.status, { detail: row.detail }, null), loading: false, reload: () => {} };
          if (!scheduled) {
            scheduled = true;
            queueMicrotask(flush);
          }
        },
        { timeoutMs: PER_APPLIANCE_MS, signal: controller.signal },
      );
      if (!controller.signal.aborted) timer = setTimeout(refresh, REFRESH_MS);
    };
    void refresh();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key]);
  return rows;
}

const ASKING: Resource<Status> = { data: undefined, error: undefined, loading: true, reload: () => {} };

function Row({ appliance, peerStatus }: { appliance: FleetAppliance; peerStatus: Resource<Status> | undefined }) {
  // This appliance's row follows the live channel; a peer's comes from the page's fan-out reads.
  const own = useStatus("", REFRESH_MS);
  const status = appliance.self ? own : (peerStatus ?? ASKING);
  // The spec's fleet proxy does not relay GET /licensing (it is not an FP read): only this appliance's licence can be shown.
  const licence = useCall(appliance.self ? contract.licensing.status : null, {}, { refreshMs: REFRESH_MS, live: true });
  const s = status.data;
  const down = status.error !== undefined;
  const pages = appliance.self ? "/" : `/fleet/${encodeURIComponent(appliance.name)}/`;
  return (
    <tr data-appliance={appliance.name} class={down ? "unreachable" : undefined}>
      <th scope="row">
        <a href={pages}>{appliance.name}</a>
        {appliance.self && <span class="muted"> (this appliance)</span>}
      </th>
      <td data-testid="health">{down ? <span class="bad">unreachable: {status.error!.message}</span> : s ? <span class="good">{s.controlPlane.state}</span> : "…"}</td>
      <td>{!down && s ? s.softwareVersion : "—"}</td>
      <td class="num" data-testid="sessions">{!down && s ? count(s.sessions.total) : "—"}</td>
      <td data-testid="alarms">
        {!down && s
          ? Object.entries(s.alarms.countBySeverity)
              .map(([sev, n]) => `${sev} ${n}`)
              .join(" · ")
          : "—"}
      </td>
      <td data-testid="licence">
        {!appliance.self ? (
          <span class="muted" title="GET /licensing is not a fleet-proxy (FP) read: open the appliance's own UI">
            not relayed
          </span>
        ) : licence.data ? (
          `${licence.data.state} (${licence.data.mode})`
        ) : (
          "—"
        )}
      </td>
      <td>
        {appliance.url ? (
          <a href={appliance.url} target="_blank" rel="noopener">
            Open {appliance.name}'s own UI
          </a>
        ) : (
          "—"
        )}
      </td>
    </tr>
  );
}

export function Fleet() {
  const list = useCall(contract.fleet.appliances, {}, { refreshMs: 60_000 });
  const peers = usePeerStatuses((list.data ?? []).filter((a) => !a.self).map((a) => a.name));
  return (
    <>
      <h1>Fleet</h1>
      <p class="muted">Peers are read through this appliance's fleet proxy; their pages here are read-only.</p>
      <Loaded resource={list}>
        {(appliances) => (
          <div class="table-wrap" tabIndex={0}>
            <table data-testid="fleet-table">
              <thead>
                <HeaderRow columns={["Appliance", "Health", "Software", "Sessions", "Active alarms", "Licence", "Changes"]} />
              </thead>
              <tbody>
                {appliances.map((a) => (
                  <Row key={a.name} appliance={a} peerStatus={peers[a.name]} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </>
  );
}

/** A link to a peer's own UI, from its fleet entry. */
export function PeerLink({ peer }: { peer: string }) {
  const list = useCall(contract.fleet.appliances);
  const url = list.data?.find((a) => a.name === peer)?.url;
  return url ? (
    <a href={url} target="_blank" rel="noopener">
      open {peer}'s own UI
    </a>
  ) : (
    <span>open {peer}'s own UI</span>
  );
}
