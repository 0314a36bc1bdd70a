/**
 * The fleet overview: every appliance of `fleet/appliances` with its health,
 * software, sessions, alarms and licence, refreshed. This appliance's row
 * follows the live channel; the peers' statuses are read through the fleet
 * proxy, 40 a request (ui/fan-out.ts), so a fleet of 1,000 is 25 requests a
 * refresh. One that does not answer is shown as unreachable; selecting a
 * peer opens its pages read-only.
 */
import { useEffect, useState } from "preact/hooks";
import { count, sentence, tone } from "../format.ts";
import { RecordTable } from "../components/json-view.tsx";
import { worstOf } from "../components/severity.tsx";
import { ALARM_SEVERITIES } from "../../simulator/vocabulary.ts";
import { contract } from "bngfleet:contract";
import { useCall, useStatus, type Resource } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import type { FleetAppliance } from "../types.ts";
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
          pending[name] = row.ok
            ? { data: row.value, error: undefined, loading: false, reload: () => {} }
            : {
                data: undefined,
                error: new ApiError(row.status, { detail: row.detail }, null),
                loading: false,
                reload: () => {},
              };
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

/**
 * An appliance's state in one word and its colour: unreachable, or its control
 * plane's state coloured by the worst active alarm (a running box with a
 * critical alarm is not green).
 */
function stateOf(status: Resource<Status>): { text: string; tone: string } {
  if (status.error) return { text: `unreachable: ${sentence(status.error.message)}`, tone: "bad" };
  const s = status.data;
  if (!s) return { text: "asking…", tone: "muted" };
  const worst = worstOf(s.alarms.countBySeverity);
  if (!worst) return { text: s.controlPlane.state, tone: tone("state", s.controlPlane.state) ?? "good" };
  const n = s.alarms.countBySeverity[worst] ?? 0;
  return {
    text: `${s.controlPlane.state}, ${n} ${worst} alarm${n === 1 ? "" : "s"}`,
    tone: worst === "critical" ? "bad" : worst === "major" ? "major" : "warn",
  };
}

export function Fleet() {
  const list = useCall(contract.fleet.appliances, {}, { refreshMs: 60_000 });
  const peers = usePeerStatuses((list.data ?? []).filter((a) => !a.self).map((a) => a.name));
  // This appliance's row follows the live channel; a peer's comes from the fan-out reads.
  const own = useStatus("", REFRESH_MS);
  // The spec's fleet proxy does not relay GET /licensing (it is not an FP read): only this appliance's licence can be
  // shown.
  const licence = useCall(contract.licensing.status, {}, { refreshMs: REFRESH_MS, live: true });
  return (
    <>
      <h1>Fleet</h1>
      <p class="muted">Peers are read through this appliance's fleet proxy; their pages here are read-only.</p>
      <Loaded resource={list}>
        {(appliances) => {
          const statusOf = (a: FleetAppliance) => (a.self ? own : (peers[a.name] ?? ASKING));
          return (
            <RecordTable
              caption="Appliances of the fleet"
              csvName="fleet"
              testid="fleet-table"
              rowClass={(row) =>
                statusOf(appliances.find((a) => a.name === row.appliance)!).error ? "unreachable" : undefined
              }
              rows={appliances.map((a) => {
                const status = statusOf(a);
                const s = status.error ? undefined : status.data;
                return {
                  appliance: a.name,
                  state: stateOf(status).text,
                  alarms: s
                    ? ALARM_SEVERITIES.filter((sev) => (s.alarms.countBySeverity[sev] ?? 0) > 0)
                        .map((sev) => `${s.alarms.countBySeverity[sev]} ${sev}`)
                        .join(", ") || "none"
                    : null,
                  sessions: s ? s.sessions.total : null,
                  software: s?.softwareVersion ?? null,
                  licence: a.self
                    ? licence.data
                      ? `${licence.data.state} (${licence.data.mode})`
                      : null
                    : "not relayed",
                  ownUi: a.url,
                };
              })}
              labels={{ state: "State", alarms: "Active alarms", ownUi: "Changes" }}
              cells={{
                appliance: (row) => {
                  const a = appliances.find((x) => x.name === row.appliance)!;
                  return (
                    <span data-appliance={a.name}>
                      <a href={a.self ? "/" : `/fleet/${encodeURIComponent(a.name)}/`}>{a.name}</a>
                      {a.self && <span class="muted"> (this appliance)</span>}
                    </span>
                  );
                },
                state: (row) => {
                  const state = stateOf(statusOf(appliances.find((a) => a.name === row.appliance)!));
                  return (
                    <span class={`tone-${state.tone}`} data-testid="health">
                      {state.text}
                    </span>
                  );
                },
                alarms: (row) => <span data-testid="alarms">{row.alarms === null ? "—" : String(row.alarms)}</span>,
                sessions: (row) => (
                  <span class="num" data-testid="sessions">
                    {row.sessions === null ? "—" : count(Number(row.sessions))}
                  </span>
                ),
                licence: (row) =>
                  row.licence === "not relayed" ? (
                    <span
                      class="muted"
                      data-testid="licence"
                      title="GET /licensing is not a fleet-proxy (FP) read: open the appliance's own UI"
                    >
                      not relayed
                    </span>
                  ) : (
                    <span data-testid="licence">{row.licence === null ? "—" : String(row.licence)}</span>
                  ),
                ownUi: (row) =>
                  row.ownUi ? (
                    <a href={String(row.ownUi)} target="_blank" rel="noopener">
                      Open {String(row.appliance)}'s own UI
                    </a>
                  ) : (
                    <span class="muted">—</span>
                  ),
              }}
            />
          );
        }}
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
