/**
 * Logs: the live tail over server-sent events, with pause, severity and msgId
 * filters. Every (re)connection asks for `sinceSeq` = the last entry seen, so
 * a pause or a dropped connection misses nothing. A peer's log is polled
 * through the fleet proxy (the stream is local only).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { apiUrl, ApiError, call, pathOf } from "../api.ts";
import { ProblemNote } from "../components/problem.tsx";
import type { PageContext } from "./context.ts";
import type { LogEntry } from "../types.ts";
import { RecordTable } from "../components/json-view.tsx";
import { Severity } from "../components/severity.tsx";

const KEEP = 500;
// The server's own list, most severe first (a constant module without dependencies).
import { SEVERITIES } from "../../simulator/vocabulary.ts";
const RECONNECT_MS = 2000;

export function Logs({ ctx }: { ctx: PageContext }) {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState<"connecting" | "live" | "paused" | "reconnecting" | "polling">("connecting");
  const [error, setError] = useState<ApiError | null>(null);
  const [floor, setFloor] = useState("debug");
  const [msgId, setMsgId] = useState("");
  const lastSeq = useRef<number | null>(null);

  const add = (more: LogEntry[]) => {
    if (!more.length) return;
    lastSeq.current = Math.max(lastSeq.current ?? 0, ...more.map((e) => e.seq));
    setEntries((old) => [...old, ...more.filter((e) => !old.length || e.seq > old[old.length - 1]!.seq)].slice(-KEEP));
  };

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      if (lastSeq.current === null) {
        try {
          const tail = await call(contract.logs.tail, { query: { count: 200 } }, ctx.base);
          add(tail.entries);
          lastSeq.current = tail.lastSeq;
          setError(null);
        } catch (failure) {
          setError(failure as ApiError);
        }
      }
      if (stopped || paused) {
        setState("paused");
        return;
      }
      if (ctx.peer) {
        setState("polling");
        const poll = async () => {
          // Out of view it asks nothing; `sinceSeq` catches up when it is shown again.
          if (document.visibilityState !== "visible") {
            if (!stopped) timer = setTimeout(poll, 5000);
            return;
          }
          try {
            const tail = await call(
              contract.logs.tail,
              { query: { count: 1000, sinceSeq: lastSeq.current ?? undefined } },
              ctx.base,
            );
            add(tail.entries);
            lastSeq.current = Math.max(lastSeq.current ?? 0, tail.lastSeq);
            setError(null);
          } catch (failure) {
            setError(failure as ApiError);
          }
          if (!stopped) timer = setTimeout(poll, 5000);
        };
        timer = setTimeout(poll, 5000);
        return;
      }
      source = new EventSource(apiUrl(pathOf(contract.logs.stream), { sinceSeq: lastSeq.current ?? undefined }));
      source.addEventListener("open", () => setState("live"));
      source.addEventListener("log", (event) => add([JSON.parse((event as MessageEvent<string>).data) as LogEntry]));
      // The browser would retry by itself, but without our sinceSeq: reconnect ourselves.
      source.addEventListener("error", () => {
        source?.close();
        if (stopped) return;
        setState("reconnecting");
        timer = setTimeout(() => void start(), RECONNECT_MS);
      });
    };
    void start();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [paused, ctx.base]);

  const rank = SEVERITIES.indexOf(floor as (typeof SEVERITIES)[number]);
  const bySeq = new Map(entries.map((e) => [e.seq, e]));
  const shown = entries
    .filter((e) => SEVERITIES.indexOf(e.severity) <= rank && (!msgId || e.msgId.includes(msgId)))
    .reverse();

  return (
    <>
      <h1>Logs</h1>
      <div class="toolbar">
        <button type="button" onClick={() => setPaused(!paused)} aria-pressed={paused}>
          {paused ? "Resume" : "Pause"}
        </button>
        <span role="status" data-testid="log-state">
          {state}
          {lastSeq.current !== null ? ` · last seq ${lastSeq.current}` : ""}
        </span>
        <label>
          Severity at least
          <select value={floor} onChange={(e) => setFloor(e.currentTarget.value)}>
            {SEVERITIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Message id contains
          <input value={msgId} onInput={(e) => setMsgId(e.currentTarget.value)} />
        </label>
      </div>
      <ProblemNote error={error} />
      <RecordTable
        caption="Log entries, newest first"
        csvName="log"
        testid="log-table"
        dense
        empty={entries.length === 0 ? "No entries yet." : "No entry matches the filters."}
        rows={shown.map((e) => ({
          seq: e.seq,
          timeUtc: e.timestamp,
          severity: e.severity,
          msgId: e.msgId,
          fields: fieldsText(e),
        }))}
        labels={{ seq: "Seq", timeUtc: "Time", msgId: "Message", fields: "Details" }}
        cells={{
          seq: (row) => <span class="num">{String(row.seq)}</span>,
          severity: (row) => <Severity severity={String(row.severity)} />,
          msgId: (row) => <code class="nowrap">{String(row.msgId)}</code>,
          fields: (row) => <Fields entry={bySeq.get(Number(row.seq))!} base={ctx.base} />,
        }}
      />
    </>
  );
}

/** An entry's fields as `key=value`, the way the log is read and exported. */
const fieldsText = (e: LogEntry) =>
  Object.entries(e.fields)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");

/** Fields that name an object the UI has a page for, as links to it. */
const LINKS: Record<string, (v: string) => string> = {
  sessionId: (v) => `/sessions/${encodeURIComponent(v)}`,
  pool: (v) => `/pools/${encodeURIComponent(v)}`,
  localTunnelId: (v) => `/l2tp/${encodeURIComponent(v)}`,
};

/** An entry's fields, each object it names linked to its page (a session by its id). */
function Fields({ entry, base }: { entry: LogEntry; base: string }) {
  return (
    <span class="fields">
      {Object.entries(entry.fields).map(([k, v], i) => (
        <span key={k}>
          {i > 0 && " "}
          {k}=
          {LINKS[k] && v !== null && v !== 0 && v !== "" ? (
            <a href={`${base}${LINKS[k]!(String(v))}`}>{String(v)}</a>
          ) : (
            String(v)
          )}
        </span>
      ))}
    </span>
  );
}
