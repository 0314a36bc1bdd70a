/**
 * Configuration: every value (secrets redacted by the server), an edit that
 * is validated before it is committed, with each rejected value shown beside
 * its field, a commit with a comment, and the history with each version's
 * changes and a rollback.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { useResource } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";
import { can } from "../session.ts";
import type { PageContext } from "./context.ts";
import type { ConfigChangeSet, ConfigCommitResult, ConfigHistoryEntry, ConfigValidationResult, ConfigValues } from "../types.ts";

type FieldError = { pointer: string; detail: string };

export function Configuration({ ctx }: { ctx: PageContext }) {
  const values = useResource<ConfigValues>(`${ctx.base}/config`);
  const history = useResource<{ total: number; items: ConfigHistoryEntry[] }>(`${ctx.base}/config/history`, { limit: 20 });
  const editable = !ctx.peer && can("PUT", "/config");
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [listOps, setListOps] = useState("");
  const [comment, setComment] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState("");

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
      const check = await api<ConfigValidationResult>("/config/validate", { body: set });
      if (!check.valid) {
        setErrors(check.errors);
        setOutcome(`Not valid: ${check.errors.length} value(s) rejected.`);
        return;
      }
      if (!commit) {
        setOutcome(`Valid. Committing would change ${check.changedPaths.length} value(s)${check.restartRequired ? " and needs a restart" : ""}.`);
        return;
      }
      const result = await api<ConfigCommitResult>("/config", { method: "PUT", body: set });
      setOutcome(`Committed version ${result.version}${result.restartRequired ? " (restart required)" : ""}.`);
      setEdits({});
      setListOps("");
      setComment("");
      values.reload();
      history.reload();
    } catch (failure) {
      const error = failure as ApiError;
      setProblem(error);
      setErrors(error.fieldErrors ?? []);
    } finally {
      setBusy(false);
    }
  }

  async function rollback(version: number) {
    if (!window.confirm(`Roll the configuration back to version ${version}?`)) return;
    setProblem(null);
    try {
      const result = await api<ConfigCommitResult>("/config/rollback", { body: { version, comment: `rollback to ${version}` } });
      setOutcome(`Rolled back: version ${result.version} restores version ${version}.`);
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
                    Validate and commit
                  </button>
                </div>
              </section>
            )}
          </form>
        )}
      </Loaded>
      <section class="card" aria-labelledby="history-h">
        <h2 id="history-h">History</h2>
        <Loaded resource={history}>
          {(h) => (
            <ol class="history" data-testid="config-history">
              {h.items.map((entry) => (
                <li key={entry.version}>
                  <strong>Version {entry.version}</strong> · {entry.committedUtc} · {entry.actor} · {entry.operation}
                  {entry.comment && <> · “{entry.comment}”</>}
                  {entry.changes.length > 0 && (
                    <ul>
                      {entry.changes.map((c) => (
                        <li key={c.pointer}>
                          <code>{c.pointer}</code>: {c.before ?? "unset"} → {c.after ?? "unset"}
                        </li>
                      ))}
                    </ul>
                  )}
                  {!ctx.peer && can("POST", "/config/rollback") && entry.version !== h.items[0]?.version && (
                    <button type="button" onClick={() => void rollback(entry.version)}>
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
