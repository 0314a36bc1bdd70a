/**
 * The dashboard: session totals by encapsulation, type, port and VRF; port
 * rates and session counts over time (metrics history, 1h/6h/24h); active
 * alarms by severity; the licence; system status. Refreshes on its own.
 */
import { useMemo, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { useCall, useStatus } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { TimeChart, colour } from "../components/chart.tsx";
import { bitRate, count, duration } from "../format.ts";
import { readableOnPeer } from "../session.ts";
import { Severity } from "../components/severity.tsx";
import type { PageContext } from "./context.ts";

const REFRESH_MS = 10_000;

function Counts({ title, rows, testid }: { title: string; rows: [string, number][]; testid: string }) {
  return (
    <section class="card" aria-labelledby={`${testid}-h`}>
      <h2 id={`${testid}-h`}>{title}</h2>
      <table data-testid={testid}>
        <tbody>
          {rows.map(([label, n]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td class="num">{count(n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Active alarms by severity, most severe first as the API orders them. */
function SeverityCounts({ counts }: { counts: Record<string, number> }) {
  return (
    <table data-testid="alarm-counts">
      <tbody>
        {Object.entries(counts).map(([sev, n]) => (
          <tr key={sev}>
            <th scope="row">
              <Severity severity={sev} />
            </th>
            <td class="num">{n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Dashboard({ ctx }: { ctx: PageContext }) {
  const [range, setRange] = useState<"1h" | "6h" | "24h">("1h");
  // This appliance's cards read again when the live channel pushes a change (every model step, every change).
  const every = { base: ctx.base, refreshMs: REFRESH_MS, live: true };
  const summary = useCall(contract.sessions.summary, {}, every);
  const status = useStatus(ctx.base, REFRESH_MS);
  const history = useCall(contract.metrics.history, { query: { range } }, every);
  // Alarms are not carried by the fleet proxy; a peer's counts come from its status.
  const alarms = useCall(ctx.peer && !readableOnPeer(contract.alarms.list) ? null : contract.alarms.list, {}, every);
  const licence = useCall(
    ctx.peer && !readableOnPeer(contract.licensing.status) ? null : contract.licensing.status,
    {},
    every,
  );

  const sessionSeries = useMemo(
    () =>
      history.data
        ? [
            { label: "Total", values: history.data.totalSessions, color: colour(0) },
            // The history names encapsulations in camelCase (`pppoeLocal`); every other page as the sessions do
            // (`pppoe-local`).
            ...Object.entries(history.data.byEncap).map(([k, v], i) => ({
              label: k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
              values: v,
              color: colour(i + 1),
            })),
          ]
        : [],
    [history.data],
  );
  const portSeries = useMemo(
    () =>
      history.data
        ? history.data.ports.flatMap((p, i) => [
            { label: `${p.label} rx`, values: p.rxBps, color: colour(2 * i) },
            { label: `${p.label} tx`, values: p.txBps, color: colour(2 * i + 1) },
          ])
        : [],
    [history.data],
  );

  return (
    <>
      <h1>Dashboard</h1>
      <div class="grid">
        <section class="card" aria-labelledby="status-h">
          <h2 id="status-h">System</h2>
          <Loaded resource={status}>
            {(s) => (
              <dl class="dl" data-testid="system-status">
                <div class="dl-row">
                  <dt>Software</dt>
                  <dd data-testid="software-version">{s.softwareVersion}</dd>
                </div>
                <div class="dl-row">
                  <dt>Control plane</dt>
                  <dd>
                    {s.controlPlane.state}, up {duration(s.controlPlane.uptimeSeconds)}
                  </dd>
                </div>
                <div class="dl-row">
                  <dt>Data plane</dt>
                  <dd>
                    {s.dataPlane.forwarding ? "forwarding" : "down"}, up {duration(s.dataPlane.uptimeSeconds)}
                  </dd>
                </div>
                <div class="dl-row">
                  <dt>Upgrade</dt>
                  <dd>{s.upgrade.state === "idle" ? "none in progress" : s.upgrade.state}</dd>
                </div>
                <div class="dl-row">
                  <dt>Traffic</dt>
                  <dd>
                    rx {bitRate(s.traffic.rxBps)} · tx {bitRate(s.traffic.txBps)}
                  </dd>
                </div>
                <div class="dl-row">
                  <dt>CPU / memory</dt>
                  <dd>
                    {s.cpu.utilisationPercent.toFixed(0)}% / {s.memory.utilisationPercent.toFixed(0)}%
                  </dd>
                </div>
                <div class="dl-row">
                  <dt>Configuration</dt>
                  <dd>version {s.configuration.version}</dd>
                </div>
              </dl>
            )}
          </Loaded>
        </section>
        <section class="card" aria-labelledby="alarms-h">
          <h2 id="alarms-h">Active alarms</h2>
          {alarms.data || alarms.error ? (
            <Loaded resource={alarms}>{(a) => <SeverityCounts counts={a.countBySeverity} />}</Loaded>
          ) : (
            <Loaded resource={status}>{(s) => <SeverityCounts counts={s.alarms.countBySeverity} />}</Loaded>
          )}
        </section>
        <section class="card" aria-labelledby="licence-h">
          <h2 id="licence-h">Licence</h2>
          <Loaded resource={status}>
            {(s) => (
              <>
                {licence.data && (
                  <p data-testid="licence-state">
                    {String(licence.data.state)} ({String(licence.data.mode)})
                  </p>
                )}
                <label for="licence-meter">
                  {count(s.sessions.total)} of {count(s.sessions.licensed)} licensed sessions
                </label>
                <meter
                  id="licence-meter"
                  min={0}
                  max={s.sessions.licensed}
                  high={s.sessions.licensed * 0.9}
                  value={s.sessions.total}
                />
              </>
            )}
          </Loaded>
        </section>
      </div>
      <Loaded resource={summary}>
        {(s) => (
          <>
            <p class="big">
              <span data-testid="sessions-total">{count(s.total)}</span> sessions
            </p>
            <div class="grid">
              <Counts title="By encapsulation" testid="by-encap" rows={Object.entries(s.byEncap)} />
              <Counts title="By type" testid="by-type" rows={Object.entries(s.byType)} />
              <Counts title="By port" testid="by-port" rows={s.byPort.map((p) => [p.label, p.count])} />
              <Counts title="By VRF" testid="by-vrf" rows={Object.entries(s.byVrf)} />
            </div>
          </>
        )}
      </Loaded>
      <section aria-labelledby="history-h">
        <h2 id="history-h">History</h2>
        <div role="group" aria-label="Range" class="segmented">
          {(["1h", "6h", "24h"] as const).map((r) => (
            <button key={r} type="button" aria-pressed={range === r} onClick={() => setRange(r)}>
              {r}
            </button>
          ))}
        </div>
        <Loaded resource={history}>
          {(h) => (
            <div class="grid charts">
              <TimeChart title="Sessions, by encapsulation" times={h.times} series={sessionSeries} />
              <TimeChart title="Port rates" times={h.times} series={portSeries} unit="bps" />
            </div>
          )}
        </Loaded>
      </section>
    </>
  );
}
