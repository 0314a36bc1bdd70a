/**
 * OIDC sign-in's two legs and the providers a sign-in page offers. Each leg is one call: what the object stores and
 * checks (the provider, the throttle, the pending sign-in, the session) and what it fetches through its cache and
 * destination policy (discovery, the token exchange) happen together, in the object's order; the Worker makes the
 * state and cookies and writes the redirect or the page.
 */
import { pageOrigins } from "../../../src/config/web-ui.ts";
import { oidcSignIn } from "../../../src/schemas/auth/oidc.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import { refuse, type Outcome, type Refusal } from "../../../src/schemas/outcome.ts";
import { identityOf, redeem, type Discovery, type SignInProvider } from "../../../src/trust/oidc.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { serves } from "../serves.ts";

/**
 * A new sign-in as the Worker made it: the state and binding by their hashes (the browser holds them), the PKCE
 * verifier and nonce.
 */
interface NewSignIn {
  stateSha256: string;
  bindingSha256: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/**
 * The provider's redirect back, as its query carries it (RFC 6749 §4.1.2), with the state and the browser's binding
 * cookie hashed.
 */
interface ProviderReturn {
  code: string | undefined;
  error: string | undefined;
  errorDescription: string | undefined;
  stateSha256: string | null;
  bindingSha256: string | null;
}

/**
 * How a callback ends: a session for the browser, or a refusal after the sign-in began (its binding cookie is then
 * cleared).
 */
type CallbackEnd =
  | { ok: true; signedIn: true; sessionId: string; returnTo: string }
  | { ok: true; signedIn: false; refusal: Refusal };

/** OIDC sign-in's ports. */
export function oidcSignInPorts(core: Pick<ApplianceCore, "providers" | "identity" | "config">) {
  const providers = () => core.providers();
  const identity = () => core.identity();
  /**
   * The redirect_uri: the provider's explicit one, or the callback on `webUi.hostname` at the first listener's port
   * (else the request's origin).
   */
  const redirectUriOf = (name: string, explicit: string | null, requestOrigin: string): string => {
    if (explicit) return explicit;
    const config = core.config();
    const hostname = config.field("webUi.hostname");
    const listeners = config.field("webUi.listeners");
    const [origin] = pageOrigins(
      Array.isArray(listeners) && listeners.length > 0 ? listeners : [requestOrigin],
      typeof hostname === "string" ? hostname : null,
    );
    return `${origin}/api/v1/auth/oidc/${name}/callback`;
  };
  /**
   * The provider (enabled, by name) with its redirect URI: a 404 for one that does not exist, before anything is logged
   * or stored.
   */
  const settings = (
    name: string,
    requestOrigin: string,
  ): Outcome<{ provider: SignInProvider; redirectUri: string }> => {
    const found = providers().signInSettings(name);
    return found.ok
      ? { ok: true, provider: found.provider, redirectUri: redirectUriOf(name, found.redirectUri, requestOrigin) }
      : found;
  };
  const discovery = (provider: SignInProvider) =>
    providers().discovery(provider.name, provider.issuer, core.config().outboundAllowlist());
  return {
    // The store lists providers by name already.
    choices: serves(oidcSignIn.choices, () => ({
      providers: providers()
        .list()
        .filter((p) => p.enabled)
        .map((p) => ({ name: p.name, displayName: p.displayName })),
    })),
    /**
     * Begins a sign-in: throttled before anything is read or stored (anyone can call this), then discovery, then the
     * pending sign-in kept.
     */
    start: async (
      caller: Caller,
      name: string,
      requestOrigin: string,
      signIn: NewSignIn,
    ): Promise<Outcome<{ provider: SignInProvider; redirectUri: string; discovery: Discovery }>> => {
      const found = settings(name, requestOrigin);
      if (!found.ok) return found;
      const { provider, redirectUri } = found;
      const admitted = identity().admitOidcSignIn(caller.clientIp);
      if (!admitted.ok) return admitted;
      const discovered = await discovery(provider);
      if (!discovered.ok) return discovered;
      const begun = identity().beginOidcSignIn({ ...signIn, provider: provider.name });
      if (!begun.ok) return begun;
      return { ok: true, provider, redirectUri, discovery: discovered.discovery };
    },
    /**
     * Finishes a sign-in: the pending one taken, the code redeemed, the identity mapped, the session made; a refusal is
     * logged with our own text.
     */
    callback: async (
      caller: Caller,
      name: string,
      requestOrigin: string,
      back: ProviderReturn,
    ): Promise<Refusal | CallbackEnd> => {
      // The provider first: a callback for one that does not exist (or is disabled) is a 404 and logs nothing.
      const found = settings(name, requestOrigin);
      if (!found.ok) return found;
      const { provider, redirectUri } = found;
      // Anyone can call this: what reaches the log is our own text, never the request's verbatim (`logged`).
      const refused = (refusal: Refusal, logged = refusal.detail): CallbackEnd => {
        identity().oidcRefused(provider.name, logged, caller.clientIp);
        return { ok: true, signedIn: false, refusal };
      };
      if (back.error) {
        // RFC 6749 §4.1.2.1 error codes are short ASCII words; anything else is logged as a placeholder.
        const code = /^[a-z_]{1,40}$/.test(back.error) ? back.error : "(malformed error code)";
        return refused(
          refuse(
            "bad-credentials",
            `the identity provider refused the ` +
              `sign-in: ${back.error}${back.errorDescription ? ` (${back.errorDescription})` : ""}`,
          ),
          `the identity provider refused the sign-in: ${code}`,
        );
      }
      if (!back.code || back.stateSha256 === null)
        return refused(refuse("bad-credentials", "the provider's redirect lacks `code` or `state`"));
      const pending = identity().takeOidcSignIn(back.stateSha256, back.bindingSha256, provider.name);
      if (!pending.ok) return refused(refuse("bad-credentials", pending.detail));
      const discovered = await discovery(provider);
      if (!discovered.ok) return refused(refuse("upstream", discovered.detail));
      const redeemed = await redeem(
        discovered.discovery,
        provider,
        redirectUri,
        pending,
        back.code,
        core.config().outboundAllowlist(),
      );
      if (!redeemed.ok)
        return refused(refuse(redeemed.reason === "upstream" ? "upstream" : "bad-credentials", redeemed.detail));
      const mapped = identityOf(provider, redeemed.claims);
      if (!mapped.ok) return refused(refuse("forbidden", mapped.detail));
      const { sessionId } = await identity().externalLogin(
        mapped.username,
        mapped.role,
        provider.name,
        caller.clientIp,
      );
      return { ok: true, signedIn: true, sessionId, returnTo: pending.returnTo };
    },
  } satisfies PortsOf<"oidcSignIn">;
}
