/**
 * Configuration: every value (secrets redacted by the server), an edit that
 * is validated before it is committed, with each rejected value shown beside
 * its field, a commit with a comment, and the history with each version's
 * changes and a rollback. Nothing is committed or rolled back before the
 * person has seen what it changes, value by value (secrets stay redacted),
 * and any two versions can be compared.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";
import { can } from "../session.ts";
import type { PageContext } from "./context.ts";
import { diffBetween, type DiffRow } from "./config-diff.ts";
import { utc } from "../format.ts";
import type { ConfigChangeSet, ConfigHistoryEntry } from "../types.ts";

type FieldError = { pointer: string; detail: string };

export function Configuration({ ctx }: { ctx: PageContext }) {
  const values = useCall(contract.config.values, {}, { base: ctx.base });
  // Every version a diff may need (the history's largest page); the list shows the newest.
  const history = useCall(contract.config.history, { query: { limit: 500 } }, { base: ctx.base });
  const editable = !ctx.peer && can(contract.config.apply);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [listOps, setListOps] = useState("");
  const [comment, setComment] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState("");
  /** A change set validated and waiting for the person to confirm it, with what it changes. */
  const [review, setReview] = useState<{ set: ConfigChangeSet; rows: DiffRow[]; restartRequired: boolean } | null>(null);
  /** A rollback waiting for confirmation, with what it restores. */
  const [rollbackReview, setRollbackReview] = useState<{ version: number; rows: DiffRow[] } | null>(null);

  function changeSet(): ConfigChangeSet | null {
    const set: ConfigChangeSet = {};
    if (Object.keys(edits).length) set.fields = Object.fromEntries(Object.entries(edits).map(([k, v]) => [k, v === "" ? null : v]));
    if (listOps.trim()) {
      try {
        set.listOps = JSON.parse(listOps);
      } catch {
        setErrors([{ pointer: "#/listOps", detail: "is not valid JSON" }]);
        return null;
      }
    }
    if (comment) set.comment = comment;
    return set;
  }

  async function submit(commit: boolean) {
    const set = changeSet();
    if (!set) return;
    setBusy(true);
    setProblem(null);
    setErrors([]);
    setOutcome(null);
    try {
      // Validate first, always: the person sees every rejected value before anything is committed.
      const check = await call(contract.config.validate, { body: set });
      if (!check.valid) {
        setErrors(check.errors);
        setOutcome(`Not valid: ${check.errors.length} value(s) rejected.`);
        return;
      }
      if (!commit) {
        setOutcome(`Valid. Committing would change ${check.changedPaths.length} value(s)${check.restartRequired ? " and needs a restart" : ""}.`);
        return;
      }
      setReview({ set, rows: pendingRows(set, check.changedPaths), restartRequired: check.restartRequired });
    } catch (failure) {
      const error = failure as ApiError;
      setProblem(error);
      setErrors(error.fieldErrors ?? []);
    } finally {
      setBusy(false);
    }
  }

  /** The values a change set changes: a field edit from its current value, anything else (list operations) by the paths validation names. */
  function pendingRows(set: ConfigChangeSet, changedPaths: string[]): DiffRow[] {
    const current = values.data?.fields ?? {};
    const fields = Object.entries(set.fields ?? {}).map(([key, to]) => ({ pointer: `#/fields/${key}`, from: current[key] ?? null, to: to === null || to === undefined ? null : String(to) }));
    const listed = changedPaths.filter((p) => !fields.some((f) => f.pointer === p)).map((pointer) => ({ pointer, from: null, to: "(changed by a list operation)" }));
    return [...fields.filter((f) => f.from !== f.to), ...listed];
  }

  async function commitReviewed() {
    if (!review) return;
    setBusy(true);
    setProblem(null);
    try {
      const result = await call(contract.config.apply, { body: review.set });
      setOutcome(`Committed version ${result.version}${result.restartRequired ? " (restart required)" : ""}.`);
      setReview(null);
      setEdits({});
      setListOps("");
      setComment("");
      values.reload();
      history.reload();
    } catch (failure) {
      const error = failure as ApiError;
      setReview(null);
      setProblem(error);
      setErrors(error.fieldErrors ?? []);
    } finally {
      setBusy(false);
    }
  }

  function reviewRollback(version: number) {
    const entries = history.data?.items ?? [];
    const current = entries[0]?.version ?? version;
    setOutcome(null);
    setRollbackReview({ version, rows: diffBetween(entries, current, version) });
  }

  async function rollback(version: number) {
    setProblem(null);
    try {
      const result = await call(contract.config.rollback, { body: { version, comment: `rollback to ${version}` } });
      setOutcome(`Rolled back: version ${result.version} restores version ${version}.`);
      setRollbackReview(null);
      values.reload();
      history.reload();
    } catch (failure) {
      setProblem(failure as ApiError);
    }
  }

  const errorFor = (path: string) => errors.filter((e) => e.pointer === `#/fields/${path}`);
  const listErrors = errors.filter((e) => !e.pointer.startsWith("#/fields/"));

  return (
    <>
      <h1>Configuration</h1>
      {outcome && (
        <p role="status" class="notice" data-testid="config-outcome">
          {outcome}
        </p>
      )}
      <ProblemNote error={problem && errors.length === 0 ? problem : null} />
      <Loaded resource={values}>
        {(v) => (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit(true);
            }}
          >
            <section class="card" aria-labelledby="fields-h">
              <h2 id="fields-h">Values</h2>
              <label>
                Show keys containing
                <input value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
              </label>
              <div class="table-wrap" tabIndex={0}>
                <table data-testid="config-fields">
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Value</th>
                      {editable && <th scope="col">New value</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(v.fields)
                      .filter(([k]) => k.includes(filter))
                      .map(([k, value]) => {
                        const errs = errorFor(k);
                        const id = `cfg-${k.replace(/[^a-zA-Z0-9]+/g, "-")}`;
                        return (
                          <tr key={k} class={errs.length ? "invalid" : undefined}>
                            <th scope="row">
                              <label for={editable ? id : undefined}>{k}</label>
                            </th>
                            <td>{value === null ? <span class="muted">unset</span> : <code>{value}</code>}</td>
                            {editable && (
                              <td>
                                <input
                                  id={id}
                                  data-key={k}
                                  value={edits[k] ?? ""}
                                  placeholder="unchanged"
                                  aria-invalid={errs.length > 0}
                                  aria-describedby={errs.length ? `${id}-error` : undefined}
                                  onInput={(e) => {
                                    const next = { ...edits };
                                    if (e.currentTarget.value === "") delete next[k];
                                    else next[k] = e.currentTarget.value;
                                    setEdits(next);
                                  }}
                                />
                                {errs.length > 0 && (
                                  <small class="field-error" id={`${id}-error`} role="alert">
                                    {errs.map((x) => x.detail).join("; ")}
                                  </small>
                                )}
                              </td>
                            )}
                          </tr>
                        );
                      })}
                  </tbody>
                </table>
              </div>
            </section>
            <section class="card" aria-labelledby="lists-h">
              <h2 id="lists-h">Lists</h2>
              {Object.entries(v.lists).map(([path, items]) => (
                <details key={path}>
                  <summary>
                    {path} ({items.length})
                  </summary>
                  <JsonView value={items.map((i) => ({ key: i.key, ...i.values }))} />
                </details>
              ))}
            </section>
            {editable && (
              <section class="card" aria-labelledby="commit-h">
                <h2 id="commit-h">Change</h2>
                <label for="cfg-listops">List operations (JSON array of keyed-list operations)</label>
                <textarea id="cfg-listops" rows={3} value={listOps} onInput={(e) => setListOps(e.currentTarget.value)} />
                {listErrors.length > 0 && (
                  <ul class="field-error" role="alert">
                    {listErrors.map((e) => (
                      <li key={e.pointer}>
                        <code>{e.pointer}</code> {e.detail}
                      </li>
                    ))}
                  </ul>
                )}
                <label for="cfg-comment">Comment</label>
                <input id="cfg-comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
                <div class="toolbar">
                  <button type="button" disabled={busy} onClick={() => void submit(false)}>
                    Validate
                  </button>
                  <button type="submit" disabled={busy}>
                    Review and commit
                  </button>
                </div>
                {review && (
                  <div class="review" role="region" aria-label="Changes to commit" data-testid="commit-review">
                    <h3>Committing changes {review.rows.length} value{review.rows.length === 1 ? "" : "s"}{review.restartRequired ? " and needs a restart" : ""}</h3>
                    <DiffTable rows={review.rows} fromLabel="Now" toLabel="After the commit" />
                    <div class="toolbar">
                      <button type="button" disabled={busy} onClick={() => void commitReviewed()}>
                        Commit these changes
                      </button>
                      <button type="button" class="secondary" onClick={() => setReview(null)}>
                        Keep editing
                      </button>
                    </div>
                  </div>
                )}
              </section>
            )}
          </form>
        )}
      </Loaded>
      <section class="card" aria-labelledby="history-h">
        <h2 id="history-h">History</h2>
        {rollbackReview && (
          <div class="review" role="region" aria-label="Changes the rollback makes" data-testid="rollback-review">
            <h3>
              Rolling back to version {rollbackReview.version} changes {rollbackReview.rows.length} value{rollbackReview.rows.length === 1 ? "" : "s"}
            </h3>
            <DiffTable rows={rollbackReview.rows} fromLabel="Now" toLabel={`After the rollback (as in version ${rollbackReview.version})`} />
            <div class="toolbar">
              <button type="button" onClick={() => void rollback(rollbackReview.version)}>
                Roll back now
              </button>
              <button type="button" class="secondary" onClick={() => setRollbackReview(null)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {history.data && history.data.items.length > 1 && <CompareVersions entries={history.data.items} />}
        <Loaded resource={history}>
          {(h) => (
            <ol class="history" data-testid="config-history">
              {h.items.slice(0, 30).map((entry) => (
                <li key={entry.version}>
                  <strong>Version {entry.version}</strong> · {utc(entry.committedUtc)} · {entry.actor} · {entry.operation}
                  {entry.comment && <> · “{entry.comment}”</>}
                  {entry.changes.length > 0 && (
                    <ul>
                      {entry.changes.map((c) => (
                        <li key={c.pointer}>
                          <code>{pointerText(c.pointer)}</code>: {c.before ?? "unset"} → {c.after ?? "unset"}
                        </li>
                      ))}
                    </ul>
                  )}
                  {!ctx.peer && can(contract.config.rollback) && entry.version !== h.items[0]?.version && (
                    <button type="button" onClick={() => reviewRollback(entry.version)}>
                      Roll back to version {entry.version}
                    </button>
                  )}
                </li>
              ))}
            </ol>
          )}
        </Loaded>
      </section>
    </>
  );
}

/** A pointer as the configuration's keys read: `#/fields/routing.routerId` is `routing.routerId`, `#/lists/vrfs/red/rd` is `vrfs[red].rd`. */
export function pointerText(pointer: string): string {
  const field = /^#\/fields\/(.+)$/.exec(pointer);
  if (field) return field[1]!;
  const list = /^#\/lists\/([^/]+)\/([^/]+)(?:\/(.+))?$/.exec(pointer);
  if (list) return `${list[1]}[${decodeURIComponent(list[2]!)}]${list[3] ? `.${list[3]}` : ""}`;
  return pointer;
}

function DiffTable({ rows, fromLabel, toLabel }: { rows: DiffRow[]; fromLabel: string; toLabel: string }) {
  if (rows.length === 0) return <p class="muted">No value changes.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Differences">
      <table class="diff">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">{fromLabel}</th>
            <th scope="col">{toLabel}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.pointer}>
              <th scope="row">
                <code>{pointerText(r.pointer)}</code>
              </th>
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
      <DiffTable rows={rows} fromLabel={`Version ${from}`} toLabel={`Version ${to}`} />
    </details>
  );
}
