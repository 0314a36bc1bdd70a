/** Software upgrade: stage a package (upload progress), apply with or without a drain, and follow it to the end. */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, upload } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { can } from "../session.ts";
import type { PageContext } from "./context.ts";

export function Upgrade({ ctx }: { ctx: PageContext }) {
  const status = useCall(contract.upgrade.status, {}, { base: ctx.base, refreshMs: 2000 });
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const s = status.data;

  async function stage(file: File) {
    setError(null);
    setProgress(0);
    try {
      await upload(contract.upgrade.stage, file, setProgress);
      status.reload();
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setProgress(null);
    }
  }

  const phaseEnd = s?.applying
    ? { applying: s.applying.installedUtc, draining: s.applying.rebootUtc, rebooting: s.applying.upUtc }[
        s.applying.phase
      ]
    : null;
  const total = s?.applying ? Date.parse(s.applying.upUtc) - Date.parse(s.applying.requestedUtc) : 0;
  const done = s?.applying ? Date.parse(s.asOfUtc) - Date.parse(s.applying.requestedUtc) : 0;

  return (
    <>
      <h1>Software upgrade</h1>
      <Loaded resource={status}>
        {(st) => (
          <section class="card" aria-labelledby="up-state-h">
            <h2 id="up-state-h">State</h2>
            <p data-testid="upgrade-state">
              Running <strong>{st.softwareVersion}</strong> · {st.state}
            </p>
            {st.applying && (
              <>
                <label for="upgrade-progress">
                  {st.applying.fromVersion} → {st.applying.toVersion}: {st.applying.phase} until {phaseEnd} ·{" "}
                  {st.applying.sessions} sessions up, {st.applying.sessionsDrained} drained
                </label>
                <progress id="upgrade-progress" max={total} value={Math.min(done, total)} />
              </>
            )}
            {st.staged && (
              <>
                <h3>Staged package</h3>
                <JsonView value={st.staged} />
              </>
            )}
            {st.lastResult && (
              <>
                <h3>Last result</h3>
                <JsonView value={st.lastResult} />
              </>
            )}
          </section>
        )}
      </Loaded>
      {!ctx.peer && can(contract.upgrade.stage) && (
        <section class="actions" aria-label="Changes">
          <form class="action" onSubmit={(e) => e.preventDefault()}>
            <h3>Stage a package</h3>
            <label for="upgrade-file">Package file (.bngpkg)</label>
            <input
              id="upgrade-file"
              type="file"
              accept=".bngpkg"
              disabled={progress !== null}
              onChange={(e) => e.currentTarget.files?.[0] && void stage(e.currentTarget.files[0])}
            />
            {progress !== null && (
              <>
                <label for="upload-progress">Uploading {Math.round(progress * 100)}%</label>
                <progress id="upload-progress" max={1} value={progress} />
              </>
            )}
            <ProblemNote error={error} />
          </form>
          {s?.staged && !s.applying && (
            <ActionForm
              operation={contract.upgrade.apply}
              title={`Apply ${s.staged.version}`}
              fixed={{ id: s.staged.id }}
              initial={{ drain: true }}
              confirm="Apply the staged package? The data plane reboots."
              onDone={status.reload}
            />
          )}
        </section>
      )}
    </>
  );
}
