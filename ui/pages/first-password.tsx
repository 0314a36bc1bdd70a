/**
 * The first sign-in with the published development password: the session may
 * only change it (whoami's `passwordChangeRequired`; every other call answers
 * 403), so nothing else is offered until it has. The change ends every session
 * of the account, so the person then signs in again with the new password.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, csrfToken } from "../api.ts";
import { ProblemNote } from "../components/problem.tsx";
import { me } from "../session.ts";

export function FirstPassword({ username }: { username: string | null }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const mismatch = repeat !== "" && next !== repeat;

  async function change() {
    setBusy(true);
    setError(null);
    try {
      await call(contract.authSession.password, { body: { currentPassword: current, newPassword: next } });
      // The change ended this session too: back to sign-in, with the new password.
      csrfToken.value = null;
      me.value = null;
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: (failure as Error).message }, null));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in" id="main">
      <h1>Choose your own password</h1>
      <p class="notice" role="note">
        {username ?? "This account"} signed in with the published development password. Anyone who has read the
        documentation knows it, so the appliance allows nothing else until it is changed.
      </p>
      <ProblemNote error={error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!mismatch) void change();
        }}
      >
        <label>
          Current password
          <input
            type="password"
            autocomplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </label>
        <label>
          New password
          <input
            type="password"
            autocomplete="new-password"
            required
            minLength={8}
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </label>
        <label>
          Repeat the new password
          <input
            type="password"
            autocomplete="new-password"
            required
            value={repeat}
            aria-invalid={mismatch}
            aria-describedby={mismatch ? "repeat-error" : undefined}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
        </label>
        {mismatch && (
          <p id="repeat-error" class="field-error">
            The two new passwords differ.
          </p>
        )}
        <button type="submit" disabled={busy || mismatch}>
          Change password and sign in again
        </button>
      </form>
    </main>
  );
}
