/**
 * Alarms: the active set, most severe first, each in its severity's colour,
 * linked to its object, with Clear on its row; then the history of raised and
 * cleared alarms as the log ring holds them (./alarm-history.ts), filtered by
 * severity, object and event; and a test alert through the push fan-out.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, type Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { applianceStatus, liveConnected } from "../live.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { Severity } from "../components/severity.tsx";
import { Card } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { can } from "../session.ts";
import { count, utc } from "../format.ts";
import type { PageContext } from "./context.ts";
import type { Alarm, LogEntry } from "../types.ts";
import { ALARM_SEVERITIES, LOG_CAPACITY } from "../../simulator/vocabulary.ts";
import { alarmEvents, matches, objectPage, ringWindows, type AlarmEvent, type AlarmFilter } from "./alarm-history.ts";

/** The tail's largest read. */
const PAGE = 1000;

/**
 * Every alarm event the ring holds, read once in windows, then followed (a push of the live channel, or every 10 s).
 */
function useAlarmHistory(base: string): { events: AlarmEvent[] | null; oldest: string | null; error: ApiError | null } {
  const [entries, setEntries] = useState<Map<number, LogEntry>>(new Map());
  const [oldest, setOldest] = useState<string | null>(null);
  const [read, setRead] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const last = useRef<number | null>(null);
  const keep = (more: LogEntry[]) => {
    const alarms = more.filter((e) => e.msgId.startsWith("alarm."));
    if (alarms.length) setEntries((old) => new Map([...old, ...alarms.map((e) => [e.seq, e] as const)]));
  };
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const newest = await call(contract.logs.tail, { query: { count: 1 } }, base);
        last.current = newest.lastSeq;
        const pages = await Promise.all(
          ringWindows(newest.lastSeq, LOG_CAPACITY, PAGE).map((sinceSeq) =>
            call(contract.logs.tail, { query: { count: PAGE, sinceSeq } }, base),
          ),
        );
        if (!live) return;
        pages.forEach((p) => keep(p.entries));
        const first = pages.flatMap((p) => p.entries).sort((a, b) => a.seq - b.seq)[0];
        setOldest(first?.timestamp ?? null);
        setRead(true);
      } catch (failure) {
        if (live) setError(failure instanceof ApiError ? failure : null);
      }
    })();
    return () => {
      live = false;
    };
  }, [base]);
  // New entries: at each push of this appliance's live channel, else every 10 s.
  const pushed = base === "" && liveConnected.value ? applianceStatus.value : null;
  useEffect(() => {
    if (!read) return;
    let live = true;
    const more = async () => {
      if (last.current === null || document.visibilityState !== "visible") return;
      const tail = await call(contract.logs.tail, { query: { count: PAGE, sinceSeq: last.current } }, base).catch(
        () => null,
      );
      if (!live || !tail) return;
      last.current = Math.max(last.current, tail.lastSeq);
      keep(tail.entries);
    };
    void more();
    const timer = pushed ? undefined : setInterval(() => void more(), 10_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [read, pushed, base]);
  return { events: read ? alarmEvents([...entries.values()]) : null, oldest, error };
}

export function Alarms({ ctx }: { ctx: PageContext }) {
  const alarms = useCall(contract.alarms.list, {}, { base: ctx.base, refreshMs: 10_000, live: true });
  const rows = useRowActions();
  const mayClear = !ctx.peer && can(contract.alarms.clear);
  const object = (id: string, instance: string | null) => {
    const page = objectPage(id, instance);
    const text = instance ?? "the appliance";
    return page ? <a href={`${ctx.base}${page}`}>{text}</a> : <span>{text}</span>;
  };

  return (
    <>
      <h1>Alarms</h1>
      <Loaded resource={alarms}>
        {(a) => (
          <Card
            id="active"
            title="Active"
            aside={
              a.count === 0
                ? "none"
                : ALARM_SEVERITIES.filter((s) => (a.countBySeverity[s] ?? 0) > 0)
                    .map((s) => `${a.countBySeverity[s]} ${s}`)
                    .join(", ")
            }
          >
            {rows.note}
            <RecordTable
              caption="Active alarms, most severe first"
              csvName="active-alarms"
              testid="alarm-table"
              empty="No active alarms."
              rows={a.active.map((alarm: Alarm) => ({
                severity: alarm.severity,
                alarm: alarm.id,
                object: alarm.instance,
                text: alarm.text,
                raisedUtc: alarm.firstRaisedUtc,
                ageSeconds: alarm.ageSeconds,
              }))}
              labels={{ raisedUtc: "Raised", ageSeconds: "Active for" }}
              cells={{
                severity: (row) => <Severity severity={String(row.severity)} />,
                alarm: (row) => <code class="nowrap">{String(row.alarm)}</code>,
                object: (row) => object(String(row.alarm), row.object === null ? null : String(row.object)),
              }}
              {...(mayClear
                ? {
                    rowAction: (row) => {
                      const id = String(row.alarm);
                      const instance = row.object === null ? null : String(row.object);
                      const name = `${id}${instance ? ` on ${instance}` : ""}`;
                      return (
                        <RowButton
                          verb="Clear"
                          target={name}
                          onClick={() =>
                            void rows.act(
                              `Clear ${name}? It is raised again if its condition still holds.`,
                              () => call(contract.alarms.clear, { body: { id, instance } }),
                              `${name} cleared.`,
                              alarms.reload,
                            )
                          }
                        />
                      );
                    },
                  }
                : {})}
            />
            <p class="muted">
              Since the appliance started: {count(a.stats.raised)} raised, {count(a.stats.cleared)} cleared.
            </p>
          </Card>
        )}
      </Loaded>
      <History ctx={ctx} object={object} />
      {!ctx.peer && can(contract.alarms.test) && (
        <section class="actions" aria-label="Test">
          <ActionForm
            operation={contract.alarms.test}
            title="Send a test alert"
            hints={{
              severity: "Every alarm sink whose severity floor this reaches receives it.",
              text: "What the alert says; empty: the appliance's default text.",
            }}
            renderResult={(result) => {
              const r = result as Answer<typeof contract.alarms.test>;
              return (
                <p>
                  Sent at {utc(r.sentUtc)}: a {r.alarm.severity} alert, “{r.alarm.text}”, to every sink whose floor it
                  reaches.
                </p>
              );
            }}
          />
        </section>
      )}
    </>
  );
}

function History({
  ctx,
  object,
}: {
  ctx: PageContext;
  object: (id: string, instance: string | null) => preact.ComponentChildren;
}) {
  const history = useAlarmHistory(ctx.base);
  const [filter, setFilter] = useState<AlarmFilter>({ severity: "", object: "", event: "" });
  const shown = history.events?.filter((e) => matches(e, filter)) ?? [];
  return (
    <Card
      id="history"
      title="History"
      aside={
        history.oldest
          ? `raised and cleared, from the log since ${utc(history.oldest)}`
          : "raised and cleared, from the log"
      }
    >
      <form class="filter-line" aria-label="Filter the history" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="history-severity">Severity</label>
          <select
            id="history-severity"
            value={filter.severity}
            onChange={(e) => setFilter({ ...filter, severity: e.currentTarget.value })}
          >
            <option value="">any</option>
            {ALARM_SEVERITIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="history-object">Alarm or object contains</label>
          <input
            id="history-object"
            value={filter.object}
            spellcheck={false}
            onInput={(e) => setFilter({ ...filter, object: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="history-event">Event</label>
          <select
            id="history-event"
            value={filter.event}
            onChange={(e) => setFilter({ ...filter, event: e.currentTarget.value })}
          >
            <option value="">raised and cleared</option>
            <option value="raised">raised</option>
            <option value="cleared">cleared</option>
          </select>
        </div>
      </form>
      <ProblemNote error={history.error} />
      {history.events === null ? (
        !history.error && (
          <p class="muted" aria-live="polite">
            Loading…
          </p>
        )
      ) : (
        <RecordTable
          caption="Alarm history, newest first"
          csvName="alarm-history"
          testid="alarm-history"
          empty={
            history.events.length === 0
              ? "No alarm was raised or cleared in the log the appliance holds."
              : "No event matches the filter."
          }
          rows={shown.map((e) => ({
            timeUtc: e.timestamp,
            event: e.event === "cleared" && e.manual ? "cleared by an operator" : e.event,
            severity: e.severity,
            alarm: e.id,
            object: e.instance,
            text: e.text,
            seq: e.seq,
          }))}
          labels={{ timeUtc: "Time", seq: "Log seq" }}
          cells={{
            severity: (row) =>
              row.severity === null ? <span class="muted">—</span> : <Severity severity={String(row.severity)} />,
            alarm: (row) => <code class="nowrap">{String(row.alarm)}</code>,
            object: (row) => object(String(row.alarm), row.object === null ? null : String(row.object)),
            event: (row) => (
              <span class={String(row.event).startsWith("raised") ? "tone-bad" : "tone-good"}>{String(row.event)}</span>
            ),
          }}
        />
      )}
    </Card>
  );
}
