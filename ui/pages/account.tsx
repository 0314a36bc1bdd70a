/** The signed-in account: its own password and its own passkeys. */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { me, refreshSession } from "../session.ts";
import { passkeyRegistration } from "../webauthn.ts";

export function Account() {
  const passkeys = useCall(contract.passkeys.list);
  const [error, setError] = useState<ApiError | null>(null);
  const [name, setName] = useState("");
  // Registering a passkey re-authenticates (ASVS 5.0 V7.5.1): a stolen session alone cannot add one.
  const [currentPassword, setCurrentPassword] = useState("");

  async function register() {
    setError(null);
    try {
      const options = await call(contract.passkeys.registrationOptions, { body: { currentPassword } });
      const response = await passkeyRegistration(options as unknown as Parameters<typeof passkeyRegistration>[0]);
      await call(contract.passkeys.register, { body: { name: name || "passkey", response: response as never } });
      passkeys.reload();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: (failure as Error).message }, null));
    }
  }

  return (
    <>
      <h1>My account</h1>
      <p>
        Signed in as <strong>{me.value?.username}</strong> ({me.value?.role}) on {me.value?.appliance}.
      </p>
      <section class="actions" aria-label="Password">
        <ActionForm
          operation={contract.authSession.password}
          title="Change my password"
          showResult={false}
          onDone={() => void refreshSession()}
        >
          <p class="muted">Every session of the account ends, this one included: sign in again afterwards.</p>
        </ActionForm>
      </section>
      <section class="card" aria-labelledby="pk-h">
        <h2 id="pk-h">My passkeys</h2>
        <Loaded resource={passkeys}>{(d) => <RecordTable rows={d as never} />}</Loaded>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void register();
          }}
        >
          <label for="pk-name">Name</label>
          <input id="pk-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="pk-password">Current password</label>
          <input
            id="pk-password"
            type="password"
            autocomplete="current-password"
            required
            value={currentPassword}
            onInput={(e) => setCurrentPassword(e.currentTarget.value)}
          />
          <button type="submit">Register a passkey</button>
        </form>
        <ProblemNote error={error} />
        <ActionForm
          operation={contract.passkeys.remove}
          title="Remove a passkey"
          confirm="Remove this passkey?"
          onDone={passkeys.reload}
        />
      </section>
    </>
  );
}
