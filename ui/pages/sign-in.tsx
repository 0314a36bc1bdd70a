/**
 * Sign-in: password, then the TOTP step (mandatory enrolment with the secret
 * and its QR code on first login, the code afterwards, or a passkey where the
 * policy lets one replace it), or an OIDC provider. A 423 tells when to
 * retry, and offers the code step (a lock yields to the password and a valid
 * code); wrong credentials get the server's one neutral message.
 */
import type { Ref } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { apiUrl, ApiError, call, csrfToken, pathOf, type Answer } from "../api.ts";
import { refreshSession } from "../session.ts";
import { QrCode } from "../components/qr.tsx";
import { ProblemNote } from "../components/problem.tsx";
import { passkeyAssertion } from "../webauthn.ts";
import { utc } from "../format.ts";

type LoginResponse = Answer<typeof contract.authSession.login>;
type Step = { kind: "password" } | { kind: "enrol"; answer: LoginResponse } | { kind: "code"; answer: LoginResponse };

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m <= 1 ? "about a minute" : `${m} minutes`;
}

/**
 * The lock's end as the UI writes times, from the answer's Retry-After (the detail's own instant is the API's wording).
 */
/** The authenticator's six digits, asked at enrolment and at every sign-in with a second factor. */
function CodeField(props: { input: Ref<HTMLInputElement>; code: string; setCode: (code: string) => void }) {
  return (
    <label>
      Authenticator code
      <input
        ref={props.input}
        name="totpCode"
        inputMode="numeric"
        autocomplete="one-time-code"
        required
        pattern="[0-9]{6}"
        value={props.code}
        onInput={(e) => props.setCode(e.currentTarget.value)}
      />
    </label>
  );
}

const lockEnds = (seconds: number) => utc(new Date(Date.now() + seconds * 1000).toISOString());

export function SignIn({ expired }: { expired: boolean }) {
  const [step, setStep] = useState<Step>({ kind: "password" });
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<Answer<typeof contract.oidcSignIn.choices>["providers"]>([]);
  // Which appliance this is, from its anonymous health answer (a NOC signs in to many that look alike).
  const [appliance, setAppliance] = useState<string | null>(null);
  // The enabled providers are public (as any login page's single sign-on buttons); without them the section stays
  // hidden.
  useEffect(() => {
    call(contract.oidcSignIn.choices, {}, "", { signIn: true }).then(
      (options) => setProviders(options.providers),
      () => setProviders([]),
    );
    call(contract.system.health, {}, "", { signIn: true }).then(
      (health) => setAppliance(health.appliance),
      () => setAppliance(null),
    );
  }, []);
  // The code field takes the cursor as soon as the code step shows: the person has the authenticator in hand.
  const codeInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (step.kind !== "password") codeInput.current?.focus();
  }, [step.kind]);
  // Back to the page the person was on once the provider has signed them in.
  const returnTo = encodeURIComponent(`${window.location.pathname}${window.location.search}`);

  async function done(answer: LoginResponse) {
    csrfToken.value = answer.csrfToken ?? null;
    await refreshSession();
  }

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: (failure as Error).message }, null));
    } finally {
      setBusy(false);
    }
  }

  const login = (extra: Record<string, unknown> = {}) =>
    run(async () => {
      const answer = await call(contract.authSession.login, { body: { username, password, ...extra } }, "", {
        signIn: true,
      });
      setCode("");
      if (answer.status === "success") await done(answer);
      else if (answer.status === "totpEnrolmentRequired") setStep({ kind: "enrol", answer });
      else setStep({ kind: "code", answer });
    });

  const enrol = (answer: LoginResponse) =>
    run(async () => {
      // The login answer that asked for enrolment carries its token.
      const result = await call(
        contract.authSession.enrol,
        { body: { enrolmentToken: answer.enrolmentToken as string, totpCode: code } },
        "",
        { signIn: true },
      );
      await done(result);
    });

  const lockedFor = error?.status === 423 ? error.retryAfterSeconds : null;

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to {appliance ?? "the gateway"}</h1>
      {expired && <p class="notice">Your session has ended. Sign in again to go on where you were.</p>}
      {error &&
        (error.status === 423 ? (
          <div class="problem" role="alert" data-testid="locked">
            <p>
              This account is locked after too many failed sign-ins.
              {lockedFor !== null ? ` Try again in ${minutes(lockedFor)}, at ${lockEnds(lockedFor)}.` : ""}
            </p>
            {/* A lock yields to the password with a valid code in the same request: the owner's way in that a locker
              cannot block. Whether this account has an authenticator is not told to someone not signed in, so the
              offer says when it applies. */}
            {step.kind === "password" && password !== "" && (
              <p>
                If you have set up an authenticator app for this account, you can sign in now with your password and its
                code.{" "}
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setStep({ kind: "code", answer: { status: "totpCodeRequired" } })}
                >
                  Use my authenticator code
                </button>
              </p>
            )}
          </div>
        ) : (
          <ProblemNote error={error} />
        ))}
      {step.kind === "password" && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void login();
          }}
        >
          <label>
            Username
            <input
              name="username"
              autocomplete="username"
              required
              value={username}
              onInput={(e) => setUsername(e.currentTarget.value)}
            />
          </label>
          <label>
            Password
            <input
              name="password"
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      )}
      {step.kind === "enrol" && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void enrol(step.answer);
          }}
        >
          <h2>Set up your authenticator</h2>
          <p>
            Two-factor sign-in is mandatory. Scan the code with an authenticator app, or enter the secret by hand, then
            type the code it shows.
          </p>
          {step.answer.otpauthUri && <QrCode text={step.answer.otpauthUri} label="QR code of the TOTP secret" />}
          <p>
            Secret: <code data-testid="totp-secret">{step.answer.secret}</code>
          </p>
          <CodeField input={codeInput} code={code} setCode={setCode} />
          <button type="submit" disabled={busy}>
            Confirm and sign in
          </button>
        </form>
      )}
      {step.kind === "code" && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void login({ totpCode: code });
          }}
        >
          <h2>Two-factor code</h2>
          <CodeField input={codeInput} code={code} setCode={setCode} />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
          {step.answer.passkeyOptions && (
            <button
              type="button"
              disabled={busy}
              onClick={() => run(async () => login({ passkey: await passkeyAssertion(step.answer.passkeyOptions!) }))}
            >
              Use a passkey instead
            </button>
          )}
        </form>
      )}
      {providers.length > 0 && (
        <section class="oidc" aria-labelledby="sso-heading">
          <h2 id="sso-heading">Single sign-on</h2>
          {providers.map((p) => (
            <a
              key={p.name}
              class="button"
              href={`${apiUrl(pathOf(contract.oidcSignIn.start, { name: p.name }))}?returnTo=${returnTo}`}
            >
              Sign in with {p.displayName}
            </a>
          ))}
        </section>
      )}
    </main>
  );
}
