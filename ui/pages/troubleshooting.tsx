/**
 * Troubleshooting, as a NOC engineer reaches for it: ping and a traced frame
 * with plain inputs and readable results, "who holds this public address and
 * port", and every active capture with its limits and progress. Everything
 * here acts on this appliance only (the fleet proxy relays reads, never these).
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, type Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { usePortChoices, useVrfChoices } from "./choices.ts";
import { can } from "../session.ts";
import { ActionForm } from "../components/action-form.tsx";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { duration, utc } from "../format.ts";
import type { PageContext } from "./context.ts";
import { STAGE_NAMES, stepWords, traceHeadline, type PortName } from "./trace-words.ts";

type PingResult = Answer<typeof contract.diagnostics.ping>;
type InjectResult = Answer<typeof contract.diagnostics.inject>;
type CgnBindingRow = Answer<typeof contract.cgn.bindings>["items"][number];

/** The IP protocols a trace is usually asked about (any other number is taken by the API, not offered here). */
const PROTOCOLS = [
  { value: "17", label: "17 · UDP" },
  { value: "6", label: "6 · TCP" },
  { value: "1", label: "1 · ICMP" },
  { value: "58", label: "58 · ICMPv6" },
];

const ROUTE_WORDS: Record<PingResult["route"], string> = {
  local: "one of this appliance's own addresses",
  subscriber: "a live subscriber session",
  upstream: "the default route toward the core",
  discard: "an unassigned pool address (discarded)",
  martian: "an address never forwarded",
};

function PingAnswer({ result }: { result: PingResult }) {
  const rtt = result.rttMs;
  return (
    <div data-testid="ping-result">
      <p>
        <strong>
          {result.destination} in {result.vrf}:
        </strong>{" "}
        {result.sent} sent, {result.received} received,{" "}
        <span class={result.lossPercent === 0 ? "tone-good" : "tone-bad"}>{result.lossPercent} % loss</span>
        {rtt && (
          <>
            , round trip min/avg/max {rtt.min.toFixed(3)}/{rtt.avg.toFixed(3)}/{rtt.max.toFixed(3)} ms
          </>
        )}
        .
      </p>
      <p class="muted">
        Reached through {ROUTE_WORDS[result.route]}
        {result.sessionId !== null && (
          <>
            : <a href={`/sessions/${result.sessionId}`}>session {result.sessionId}</a>
          </>
        )}
        . {result.packetBytes}-byte packets, path MTU {result.pathMtu}
        {result.dontFragment ? ", don't fragment" : ""}.
      </p>
      <RecordTable rows={result.replies} caption="Replies" />
    </div>
  );
}

function TraceAnswer({ result, port }: { result: InjectResult; port: PortName }) {
  const headline = traceHeadline(result, port);
  return (
    <div data-testid="trace-result">
      <p>
        <strong class={headline.tone === "neutral" ? undefined : `tone-${headline.tone}`}>{headline.text}</strong>
      </p>
      <ol class="trace">
        {result.steps.map((step) => (
          <li
            key={step.stage}
            class={step.verdict.startsWith("drop:") && step.verdict !== "drop:dry-run" ? "tone-bad" : undefined}
          >
            <strong>{STAGE_NAMES[step.stage] ?? step.stage}</strong>: {stepWords(step, port)}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Whether `port` lies in one of a binding's `start-end` blocks. */
const holdsPort = (row: CgnBindingRow, port: number) =>
  row.portBlocks.some((block) => {
    const [start, end] = block.split("-").map(Number);
    return start !== undefined && end !== undefined && port >= start && port <= end;
  });

/**
 * CGN's compliance question, asked of the bindings live now: who holds public address:port (and held it at a time, if
 * the binding already existed then).
 */
function WhoHadPublicPort() {
  const [address, setAddress] = useState("");
  const [port, setPort] = useState("");
  const [at, setAt] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [answer, setAnswer] = useState<{ rows: CgnBindingRow[]; asked: string } | null>(null);
  async function ask(event: Event) {
    event.preventDefault();
    setError(null);
    setAnswer(null);
    const p = Number(port.trim());
    if (!Number.isInteger(p) || p < 0 || p > 65535) {
      setError(
        new ApiError(
          0,
          {
            detail: "Some fields need attention",
            errors: [{ in: "body", pointer: "#/port", detail: "must be a port number, 0 to 65535" }],
          },
          null,
        ),
      );
      return;
    }
    const when =
      at.trim() === ""
        ? null
        : Date.parse(
            at
              .trim()
              .replace(" ", "T")
              .replace(/( ?UTC)?$/, "Z")
              .replace(/ZZ$/, "Z"),
          );
    if (when !== null && !Number.isFinite(when)) {
      setError(
        new ApiError(
          0,
          {
            detail: "Some fields need attention",
            errors: [{ in: "body", pointer: "#/time", detail: "must be a UTC time like 2026-03-02 09:15:00" }],
          },
          null,
        ),
      );
      return;
    }
    try {
      const page = await call(contract.cgn.bindings, { query: { ip: address.trim(), limit: 500 } });
      const rows = page.items.filter(
        (row) =>
          row.publicIp === address.trim() && holdsPort(row, p) && (when === null || Date.parse(row.createdUtc) <= when),
      );
      setAnswer({
        rows,
        asked: `${address.trim()}:${p}${when === null ? " now" : ` at ${utc(new Date(when).toISOString())}`}`,
      });
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    }
  }
  const fieldError = (name: string) => error?.fieldErrors.find((e) => e.pointer === `#/${name}`)?.detail;
  return (
    <form id="who-had" class="action lookup" onSubmit={ask} aria-labelledby="who-had-title">
      <h3 id="who-had-title">Who had this public address and port?</h3>
      <div class="field-row">
        <div class="field">
          <label for="who-address">Public IPv4 address *</label>
          <input
            id="who-address"
            value={address}
            onInput={(e) => setAddress(e.currentTarget.value)}
            required
            spellcheck={false}
          />
        </div>
        <div class={fieldError("port") ? "field invalid" : "field"}>
          <label for="who-port">Port *</label>
          <input
            id="who-port"
            value={port}
            inputMode="numeric"
            onInput={(e) => setPort(e.currentTarget.value)}
            required
            aria-invalid={!!fieldError("port")}
            aria-describedby={fieldError("port") ? "who-port-error" : undefined}
          />
          {fieldError("port") && (
            <small class="field-error" id="who-port-error">
              {fieldError("port")}
            </small>
          )}
        </div>
        <div class={fieldError("time") ? "field invalid" : "field"}>
          <label for="who-time">At (UTC; empty: now)</label>
          <input
            id="who-time"
            value={at}
            placeholder="2026-03-02 09:15:00"
            onInput={(e) => setAt(e.currentTarget.value)}
            aria-invalid={!!fieldError("time")}
            aria-describedby={fieldError("time") ? "who-time-error" : undefined}
          />
          {fieldError("time") && (
            <small class="field-error" id="who-time-error">
              {fieldError("time")}
            </small>
          )}
        </div>
      </div>
      <small class="hint">
        Answered from the bindings live now. A binding released since is in the CGN compliance log your retention system
        keeps.
      </small>
      {error && error.fieldErrors.length === 0 && <ProblemNote error={error} />}
      <button type="submit">Look up</button>
      {answer && (
        <div role="status" data-testid="who-had-result">
          {answer.rows.length === 0 ? (
            <p>No live binding held {answer.asked}.</p>
          ) : (
            answer.rows.map((row) => (
              <p key={row.bindingIndex}>
                {answer.asked}: inside <strong>{row.insideIp}</strong> ({row.insideVrf}),{" "}
                {row.sessionId !== 0 ? (
                  <>
                    <a href={`/sessions/${row.sessionId}`}>session {row.sessionId}</a>
                    {row.subscriberId ? ` (${row.subscriberId})` : ""}
                  </>
                ) : (
                  <>anonymous auto-learned binding {row.bindingIndex}</>
                )}
                , blocks {row.portBlocks.join(", ")}, since {utc(row.createdUtc)}.
              </p>
            ))
          )}
        </div>
      )}
    </form>
  );
}

function Captures() {
  const captures = useCall(contract.captures.list, {}, { refreshMs: 5_000 });
  const [error, setError] = useState<ApiError | null>(null);
  async function stop(sessionId: number) {
    if (!window.confirm(`Stop the capture of session ${sessionId}?`)) return;
    setError(null);
    try {
      await call(contract.captures.stop, { params: { id: sessionId } });
      captures.reload();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : null);
    }
  }
  return (
    <section class="card" aria-labelledby="captures-h">
      <h2 id="captures-h">Active captures</h2>
      <ProblemNote error={error} />
      <Loaded resource={captures}>
        {(data) => (
          <RecordTable
            caption="Active captures"
            rows={data.map((c) => ({
              sessionId: c.sessionId,
              collector: c.destinationIp,
              packetsMirrored: c.packetsMirrored,
              packetLimit: c.maxPackets ? String(c.maxPackets) : "none",
              running: duration(c.elapsedSeconds),
              timeLimit: c.maxDurationSeconds ? duration(c.maxDurationSeconds) : "none",
              startedUtc: c.startedUtc,
            }))}
            rowAction={(row) => (
              <>
                <a href={`/sessions/${String(row.sessionId)}`}>Session</a>{" "}
                {can(contract.captures.stop) && (
                  <button type="button" onClick={() => void stop(Number(row.sessionId))}>
                    Stop
                  </button>
                )}
              </>
            )}
          />
        )}
      </Loaded>
    </section>
  );
}

export function Troubleshooting({ ctx }: { ctx: PageContext }) {
  const vrfNames = useVrfChoices();
  const portChoices = usePortChoices();
  const portName: PortName = (id) => {
    const choice = portChoices?.find((c) => typeof c !== "string" && c.value === String(id));
    return choice && typeof choice !== "string" ? choice.label : `port ${id}`;
  };
  if (ctx.peer) return <p class="notice">Troubleshooting acts on the appliance itself: open the peer's own UI.</p>;
  return (
    <>
      <h1>Troubleshooting</h1>
      <p class="muted">
        Ping and the traced frame run in this appliance's forwarding plane; nothing here is relayed to peers.
      </p>
      <section class="actions" aria-label="Tests">
        <ActionForm
          operation={contract.diagnostics.ping}
          title="Ping"
          submitLabel="Ping"
          {...(vrfNames ? { choices: { vrf: vrfNames } } : {})}
          hints={{
            vrf: "The VRF the echo starts in; empty: the global table.",
            count: "Echo requests, one a second: 1 to 100.",
            size: "Payload bytes after the 8-byte echo header.",
            timeoutMs: "How long each echo waits for its reply: 100 to 10,000 ms.",
          }}
          renderResult={(r) => <PingAnswer result={r as PingResult} />}
        />
        <ActionForm
          operation={contract.diagnostics.inject}
          title="Trace a frame"
          submitLabel="Trace"
          choices={{ protocol: PROTOCOLS, ...(portChoices ? { port: portChoices } : {}) }}
          hints={{
            port: "The port the frame arrives on.",
            emit: "Send the frame out for real (recorded in the audit log); unticked, the trace is a dry run.",
          }}
          renderResult={(r) => <TraceAnswer result={r as InjectResult} port={portName} />}
        />
        {can(contract.cgn.bindings) && <WhoHadPublicPort />}
      </section>
      {can(contract.captures.list) && <Captures />}
    </>
  );
}
