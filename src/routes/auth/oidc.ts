/**
 * OIDC sign-in for the web UI: the browser is sent to the provider and comes
 * back to the spec's callback path `/api/v1/auth/oidc/{name}/callback`, where
 * a session cookie is set. Both routes take no credential: a browser on its
 * way to sign in has none, and the provider's redirect cannot carry one. The
 * callback is authenticated instead by what the first route stored: the
 * one-time `state`, the PKCE verifier, the ID token's nonce and a cookie that
 * binds the sign-in to the browser that started it.
 */
import { implement, type RouteContext } from "../../http/route.ts";
import { StatusError } from "../../http/problem.ts";
import { continuePage, prefersHtml, problemPage } from "../../http/pages.ts";
import { unwrap } from "../../http/refusal.ts";
import { readCookie, sessionCookie } from "../../trust/session.ts";
import { sha256Hex } from "../../trust/encoding.ts";
import { OIDC_COOKIE, authorizationUrl, clearedOidcCookie, identityOf, newSignIn, oidcCookie, redeem, type SignInProvider } from "../../trust/oidc.ts";
import { pageOrigins } from "../../config/web-ui.ts";
import { DEFAULT_RETURN, oidcSignIn } from "../../schemas/auth/oidc.ts";

/** The redirect_uri: the provider's explicit one, or the callback on `webUi.hostname` at the first listener's port. */
async function redirectUriOf(ctx: RouteContext<{ name: string }, unknown, unknown>, explicit: string | null): Promise<string> {
  if (explicit) return explicit;
  const config = ctx.appliance.stub.config();
  const [hostname, listeners] = await Promise.all([config.field("webUi.hostname"), config.field("webUi.listeners")]);
  const [origin] = pageOrigins(Array.isArray(listeners) && listeners.length > 0 ? listeners : [new URL(ctx.url).origin], typeof hostname === "string" ? hostname : null);
  return `${origin}/api/v1/auth/oidc/${ctx.params.name}/callback`;
}

/**
 * Both legs are browser navigations: a refusal is a page the person can act
 * on (the problem's detail and a way back) when the browser asks for HTML,
 * and problem+json otherwise, with the same status either way.
 */
async function navigation(ctx: RouteContext<{ name: string }, unknown, unknown>, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StatusError && prefersHtml(ctx.request)) return problemPage(error.status, error.message, new Headers(error.headers));
    throw error;
  }
}

/** The provider's discovery document, through the appliance's cache and its destination policy. */
const discovery = (ctx: RouteContext<{ name: string }, unknown, unknown>, provider: SignInProvider) =>
  ctx.appliance.stub.providers().discovery(provider.name, provider.issuer, ctx.appliance.stub.config().outboundAllowlist());

async function settings(ctx: RouteContext<{ name: string }, unknown, unknown>): Promise<{ provider: SignInProvider; redirectUri: string }> {
  const { provider, redirectUri } = unwrap(await ctx.appliance.stub.providers().signInSettings(ctx.params.name));
  return { provider, redirectUri: await redirectUriOf(ctx, redirectUri) };
}

export const oidcRoutes = [
  implement(oidcSignIn.choices, (ctx) => {
    // The store lists providers by name already.
    const enabled = ctx.appliance.stub.providers().list().filter((p) => p.enabled);
    return { providers: enabled.map((p) => ({ name: p.name, displayName: p.displayName })) };
  }),
  implement(oidcSignIn.start, (ctx) => navigation(ctx, async () => {
    const { provider, redirectUri } = await settings(ctx);
    const identity = ctx.appliance.stub.identity();
    // Throttled before anything is read or stored: anyone can call this.
    unwrap(await identity.admitOidcSignIn(ctx.appliance.clientIp));
    const discovered = unwrap(await discovery(ctx, provider));
    const signIn = await newSignIn();
    const [stateSha256, bindingSha256] = await Promise.all([sha256Hex(signIn.state), sha256Hex(signIn.binding)]);
    unwrap(
      await identity.beginOidcSignIn({ stateSha256, bindingSha256, provider: provider.name, nonce: signIn.nonce, verifier: signIn.verifier, returnTo: ctx.query.returnTo ?? DEFAULT_RETURN }),
    );
    const headers = new Headers({ location: authorizationUrl(discovered.discovery, provider, redirectUri, signIn), "cache-control": "no-store" });
    headers.append("set-cookie", oidcCookie(signIn.binding, ctx.appliance.secure));
    return new Response(null, { status: 302, headers });
  })),
  implement(oidcSignIn.callback, (ctx) => navigation(ctx, async () => {
    // The provider first: a callback for one that does not exist (or is disabled) is a 404 and logs nothing.
    const { provider, redirectUri } = await settings(ctx);
    const identity = ctx.appliance.stub.identity();
    // Anyone can call this: what reaches the log is our own text, never the request's verbatim (`logged`).
    const refused = async (status: number, detail: string, logged = detail): Promise<never> => {
      await identity.oidcRefused(provider.name, logged, ctx.appliance.clientIp);
      throw new StatusError(status, detail, { headers: { "set-cookie": clearedOidcCookie(ctx.appliance.secure) } });
    };
    if (ctx.query.error) {
      // RFC 6749 §4.1.2.1 error codes are short ASCII words; anything else is logged as a placeholder.
      const code = /^[a-z_]{1,40}$/.test(ctx.query.error) ? ctx.query.error : "(malformed error code)";
      return refused(
        401,
        `the identity provider refused the sign-in: ${ctx.query.error}${ctx.query.error_description ? ` (${ctx.query.error_description})` : ""}`,
        `the identity provider refused the sign-in: ${code}`,
      );
    }
    if (!ctx.query.code || !ctx.query.state) return refused(401, "the provider's redirect lacks `code` or `state`");
    const binding = readCookie(ctx.request.headers.get("cookie"), OIDC_COOKIE);
    const pending = await identity.takeOidcSignIn(await sha256Hex(ctx.query.state), binding ? await sha256Hex(binding) : null, provider.name);
    if (!pending.ok) return refused(401, pending.detail);
    const discovered = await discovery(ctx, provider);
    if (!discovered.ok) return refused(502, discovered.detail);
    const redeemed = await redeem(discovered.discovery, provider, redirectUri, pending, ctx.query.code, ctx.appliance.stub.config().outboundAllowlist());
    if (!redeemed.ok) return refused(redeemed.reason === "upstream" ? 502 : 401, redeemed.detail);
    const mapped = identityOf(provider, redeemed.claims);
    if (!mapped.ok) return refused(403, mapped.detail);
    const { sessionId } = await identity.externalLogin(mapped.username, mapped.role, provider.name, ctx.appliance.clientIp);
    const headers = new Headers();
    headers.append("set-cookie", sessionCookie(sessionId, ctx.appliance.secure));
    headers.append("set-cookie", clearedOidcCookie(ctx.appliance.secure));
    return continuePage(pending.returnTo, headers);
  })),
];
