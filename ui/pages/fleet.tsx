/**
 * The fleet overview: every appliance of `fleet/appliances` with its health,
 * software, sessions, alarms and licence, read through the fleet proxy and
 * refreshed. One that does not answer is shown as unreachable; selecting a
 * peer opens its pages read-only.
 */
import { count } from "../format.ts";
import { contract } from "bngfleet:contract";
import { peerBase } from "../api.ts";
import { useCall, useStatus } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import type { FleetAppliance } from "../types.ts";
import { HeaderRow } from "../components/header-row.tsx";

const REFRESH_MS = 15_000;

function Row({ appliance }: { appliance: FleetAppliance }) {
  const base = appliance.self ? "" : peerBase(appliance.name);
  // This appliance's row follows the live channel; a peer's is read through the fleet proxy.
  const status = useStatus(base, REFRESH_MS);
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
                  <Row key={a.name} appliance={a} />
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
