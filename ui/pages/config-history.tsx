/**
 * The configuration's history: one row per version (who, when, what, the
 * comment), its changes value by value, a rollback reviewed on the row it
 * restores (what it changes, a comment) with its outcome said there, where
 * the person pressed, and any two versions compared.
 */
import { Fragment } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { can } from "../session.ts";
import { utc } from "../format.ts";
import type { ConfigHistoryEntry } from "../types.ts";
import type { PageContext } from "./context.ts";
import { diffBetween } from "./config-diff.ts";
import { childLabel, keyLabel, placeOfPointer, sectionOf } from "./config-model.ts";

/** Versions shown at first; more when asked. */
const SHOWN = 30;

/** A pointer as the page names the value: "Routing · Router ID", "VRFs · cust-a · RD". */
export function placeText(pointer: string): string {
  const place = placeOfPointer(pointer);
  if (place.kind === "field") return `${sectionOf(place.path).title} · ${keyLabel(place.path)}`;
  if (place.kind === "item")
    return `${keyLabel(place.listPath)} · ${place.key}${place.child ? ` · ${childLabel(place.child)}` : ""}`;
  if (place.kind === "list") return keyLabel(place.listPath);
  return pointer;
}

/** What started a version, in words. */
const OPERATIONS: Record<string, string> = {
  seed: "first configuration",
  config: "configuration change",
  rollback: "rollback",
  certificate: "certificate installed",
  acme: "certificate from ACME",
  user: "account change",
  routing: "routing settings",
  "bgp-neighbor": "BGP neighbor",
  "static-routes": "static routes",
  vrf: "VRF",
  "source-vrf-rule": "source-VRF rule",
  "gre-listener": "GRE listener",
  "gre-circuit": "GRE circuit",
  "cgn-group": "CGN group",
  "cgn-settings": "CGN settings",
  "local-subscriber": "local subscriber",
};

export function ConfigHistory({ ctx, onRolledBack }: { ctx: PageContext; onRolledBack: () => void }) {
  // Every version a diff may need (the history's largest page).
  const history = useCall(contract.config.history, { query: { limit: 500 } }, { base: ctx.base });
  const [shown, setShown] = useState(SHOWN);
  const [open, setOpen] = useState<number | null>(null);
  const [rollingBack, setRollingBack] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<{ version: number; text: string } | null>(null);
  const mayRollBack = !ctx.peer && can(contract.config.rollback);
  return (
    <section class="card" aria-labelledby="history-h">
      <h2 id="history-h">
        History <span class="aside">newest first; the last 500 versions are kept</span>
      </h2>
      <Loaded resource={history}>
        {(h) => (
          <>
            {h.items.length > 1 && <CompareVersions entries={h.items} />}
            <div class="table-wrap">
              <table class="records dense history-table" data-testid="config-history">
                <caption>Configuration versions</caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Committed</th>
                    <th scope="col">By</th>
                    <th scope="col">What</th>
                    <th scope="col">Comment</th>
                    <th scope="col">Changes</th>
                    {mayRollBack && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {h.items.slice(0, shown).map((entry, i) => (
                    <Fragment key={entry.version}>
                      <tr>
                        <th scope="row">{entry.version}</th>
                        <td>{utc(entry.committedUtc)}</td>
                        <td>{entry.actor.replace(/^(user|token):/, "")}</td>
                        <td>
                          {OPERATIONS[entry.operation] ?? entry.operation}
                          {entry.rollbackTo !== null && ` to version ${entry.rollbackTo}`}
                        </td>
                        <td class="wrap">{entry.comment ?? <span class="muted">—</span>}</td>
                        <td>
                          {entry.changes.length > 0 ? (
                            <button
                              type="button"
                              class="link"
                              aria-expanded={open === entry.version}
                              onClick={() => setOpen(open === entry.version ? null : entry.version)}
                            >
                              {entry.changes.length} value{entry.changes.length === 1 ? "" : "s"}
                            </button>
                          ) : (
                            <span class="muted">none</span>
                          )}
                        </td>
                        {mayRollBack && (
                          <td class="row-actions">
                            {i > 0 && (
                              <button
                                type="button"
                                class="secondary"
                                aria-pressed={rollingBack === entry.version}
                                onClick={() => {
                                  setOutcome(null);
                                  setRollingBack(rollingBack === entry.version ? null : entry.version);
                                }}
                              >
                                Roll back to version {entry.version}
                              </button>
                            )}
                          </td>
                        )}
                      </tr>
                      {open === entry.version && (
                        <tr class="detail">
                          <td colSpan={mayRollBack ? 7 : 6}>
                            <DiffTable
                              rows={entry.changes.map((c) => ({
                                place: placeText(c.pointer),
                                from: c.before,
                                to: c.after,
                              }))}
                              fromLabel="Before"
                              toLabel="After"
                            />
                          </td>
                        </tr>
                      )}
                      {(rollingBack === entry.version || outcome?.version === entry.version) && (
                        <tr class="detail">
                          <td colSpan={mayRollBack ? 7 : 6}>
                            {outcome?.version === entry.version ? (
                              <Outcome text={outcome.text} />
                            ) : (
                              <RollbackReview
                                entries={h.items}
                                version={entry.version}
                                cancel={() => setRollingBack(null)}
                                done={(text) => {
                                  setRollingBack(null);
                                  setOutcome({ version: entry.version, text });
                                  history.reload();
                                  onRolledBack();
                                }}
                              />
                            )}
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </div>
            {h.items.length > shown && (
              <button type="button" class="secondary" onClick={() => setShown(shown + SHOWN)}>
                Show {Math.min(SHOWN, h.items.length - shown)} older versions
              </button>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The rollback's outcome where the person pressed, read out and focused. */
function Outcome({ text }: { text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), [text]);
  return (
    <p class="outcome tone-good" role="status" tabIndex={-1} ref={ref} data-testid="rollback-outcome">
      {text}
    </p>
  );
}

/** What rolling back to `version` changes, from the active version, before anything is changed; with a comment. */
function RollbackReview({
  entries,
  version,
  cancel,
  done,
}: {
  entries: ConfigHistoryEntry[];
  version: number;
  cancel: () => void;
  done: (text: string) => void;
}) {
  const active = entries[0]?.version ?? version;
  const rows = diffBetween(entries, active, version);
  const [comment, setComment] = useState(`roll back to version ${version}`);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  async function rollback() {
    setBusy(true);
    setProblem(null);
    try {
      const result = await call(contract.config.rollback, { body: { version, comment: comment.trim() || null } });
      done(
        `Rolled back: version ${result.version} restores ` +
          `version ${version}${result.restartRequired ? "; some values apply at the next restart" : ""}.`,
      );
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div class="review" role="region" aria-label="Changes the rollback makes" data-testid="rollback-review">
      <h3>
        Rolling back to version {version} changes {rows.length} value{rows.length === 1 ? "" : "s"}
      </h3>
      <DiffTable
        rows={rows.map((r) => ({ place: placeText(r.pointer), from: r.from, to: r.to }))}
        fromLabel="Now"
        toLabel={`After the rollback (as in version ${version})`}
      />
      <div class="commit-line">
        <label for={`rollback-comment-${version}`}>Comment for the history</label>
        <input
          id={`rollback-comment-${version}`}
          value={comment}
          maxLength={1024}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
        <button type="button" disabled={busy} onClick={() => void rollback()}>
          {busy ? "Rolling back…" : "Roll back now"}
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
      <ProblemNote error={problem} />
    </div>
  );
}

/** Values before and after, one row each. */
export function DiffTable({
  rows,
  fromLabel,
  toLabel,
}: {
  rows: { place: string; from: string | null; to: string | null }[];
  fromLabel: string;
  toLabel: string;
}) {
  if (rows.length === 0) return <p class="muted">No value changes.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Differences">
      <table class="diff">
        <caption>Differences</caption>
        <thead>
          <tr>
            <th scope="col">Setting</th>
            <th scope="col">{fromLabel}</th>
            <th scope="col">{toLabel}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.place}>
              <th scope="row">{r.place}</th>
              <td class="del">{r.from === null ? <span class="muted">unset</span> : <code>{r.from}</code>}</td>
              <td class="ins">{r.to === null ? <span class="muted">unset</span> : <code>{r.to}</code>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Any two versions side by side: what changed from the older to the newer. */
function CompareVersions({ entries }: { entries: ConfigHistoryEntry[] }) {
  const [from, setFrom] = useState(String(entries[1]!.version));
  const [to, setTo] = useState(String(entries[0]!.version));
  const rows = diffBetween(entries, Number(from), Number(to));
  const select = (id: string, value: string, set: (v: string) => void) => (
    <select id={id} value={value} onChange={(e) => set(e.currentTarget.value)}>
      {entries.map((e) => (
        <option key={e.version} value={String(e.version)}>
          {e.version} · {utc(e.committedUtc)}
        </option>
      ))}
    </select>
  );
  return (
    <details class="compare">
      <summary>Compare two versions</summary>
      <div class="toolbar">
        <span>
          <label for="compare-from">From version</label>
          {select("compare-from", from, setFrom)}
        </span>
        <span>
          <label for="compare-to">To version</label>
          {select("compare-to", to, setTo)}
        </span>
      </div>
      <DiffTable
        rows={rows.map((r) => ({ place: placeText(r.pointer), from: r.from, to: r.to }))}
        fromLabel={`Version ${from}`}
        toLabel={`Version ${to}`}
      />
    </details>
  );
}
