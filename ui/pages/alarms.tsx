/** Alarms: the active set, most severe first, a clear per alarm, and a test alert through the push fan-out. */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { can } from "../session.ts";
import { duration } from "../format.ts";
import type { PageContext } from "./context.ts";
import type { Alarm } from "../types.ts";
import { HeaderRow } from "../components/header-row.tsx";

export function Alarms({ ctx }: { ctx: PageContext }) {
  const alarms = useCall(contract.alarms.list, {}, { base: ctx.base, refreshMs: 10_000 });
  const [error, setError] = useState<ApiError | null>(null);
  const mayClear = !ctx.peer && can(contract.alarms.clear);

  async function clear(alarm: Alarm) {
    if (!window.confirm(`Clear ${alarm.id}${alarm.instance ? ` (${alarm.instance})` : ""}?`)) return;
    setError(null);
    try {
      await call(contract.alarms.clear, { body: { id: alarm.id, instance: alarm.instance } });
      alarms.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  }

  return (
    <>
      <h1>Alarms</h1>
      <ProblemNote error={error} />
      <Loaded resource={alarms}>
        {(a) => (
          <section class="card" aria-labelledby="active-h">
            <h2 id="active-h">
              Active alarms: {a.count} (
              {Object.entries(a.countBySeverity)
                .map(([sev, n]) => `${sev} ${n}`)
                .join(", ")}
              )
            </h2>
            <div class="table-wrap" tabIndex={0}>
              <table data-testid="alarm-table">
                <thead>
                  <HeaderRow columns={["Severity", "Alarm", "Instance", "Text", "Raised", "Age", ...(mayClear ? ["Actions"] : [])]} />
                </thead>
                <tbody>
                  {a.active.map((alarm) => (
                    <tr key={`${alarm.id}/${alarm.instance}`} class={`sev-${alarm.severity}`}>
                      <td>{alarm.severity}</td>
                      <td>
                        <code>{alarm.id}</code>
                      </td>
                      <td>{alarm.instance ?? "—"}</td>
                      <td>{alarm.text}</td>
                      <td>{alarm.firstRaisedUtc}</td>
                      <td>{duration(alarm.ageSeconds)}</td>
                      {mayClear && (
                        <td>
                          <button type="button" onClick={() => void clear(alarm)} aria-label={`Clear ${alarm.id} ${alarm.instance ?? ""}`.trim()}>
                            Clear
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
              {a.active.length === 0 && <p class="muted">No active alarms.</p>}
            </div>
            <p class="muted">
              Raised {a.stats.raised}, cleared {a.stats.cleared} since start.
            </p>
          </section>
        )}
      </Loaded>
      {!ctx.peer && (
        <section class="actions" aria-label="Changes">
          <ActionForm operation={contract.alarms.test} title="Send a test alert" />
        </section>
      )}
    </>
  );
}
