/**
 * OIDC sign-in for the web UI: the browser is sent to the provider and comes
 * back to the spec's callback path `/api/v1/auth/oidc/{name}/callback`, where
 * a session cookie is set. Both routes take no credential: a browser on its
 * way to sign in has none, and the provider's redirect cannot carry one. The
 * callback is authenticated instead by what the first route stored: the
 * one-time `state`, the PKCE verifier, the ID token's nonce and a cookie that
 * binds the sign-in to the browser that started it.
 */
import { z } from "zod";
import { route, type RouteContext } from "../../http/route.ts";
import { StatusError } from "../../http/problem.ts";
import { continuePage, prefersHtml, problemPage } from "../../http/pages.ts";
import { unwrap } from "../../http/refusal.ts";
import { readCookie, sessionCookie } from "../../trust/session.ts";
import { sha256Hex } from "../../trust/encoding.ts";
import { OIDC_COOKIE, authorizationUrl, clearedOidcCookie, identityOf, newSignIn, oidcCookie, redeem, type SignInProvider } from "../../trust/oidc.ts";
import { pageOrigins } from "../../config/web-ui.ts";
import { OidcSignInOptions, ProviderName } from "../../schemas/auth.ts";

const base = "/api/v1/auth/oidc/{name}";
/** Where a signed-in browser lands by default: the bundled reference, the twin's web UI. */
const DEFAULT_RETURN = "/api/v1/docs";

/** A path on this appliance (never another origin: no open redirect). */
const ReturnTo = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[\x21-\x7e]*$/, "a path on this appliance, starting with a single '/'")
  .optional()
  .meta({ description: `where the browser goes once signed in; default \`${DEFAULT_RETURN}\`` });

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
  route({
    method: "GET",
    path: "/api/v1/auth/oidc",
    section: "Single sign-on",
    summary: "The single sign-on choices of the sign-in page",
    description:
      "No credential: the enabled OIDC providers' `name` and `displayName`, by name, so a sign-in page can offer one button per provider " +
      "(each starts `GET /api/v1/auth/oidc/{name}/login`). Nothing else of a provider is shown (issuer, client id, scopes and role map stay " +
      "behind the super-user's `GET /api/v1/auth/providers/oidc`), as any login page shows its single sign-on buttons.",
    floor: "anonymous",
    response: { description: "OidcSignInOptions", schema: OidcSignInOptions },
    // 404: deployed, a hostname no appliance of the fleet answers to.
    errors: [404],
    handle: (ctx) => {
      // The store lists providers by name already.
      const enabled = ctx.appliance.stub.providers().list().filter((p) => p.enabled);
      return { providers: enabled.map((p) => ({ name: p.name, displayName: p.displayName })) };
    },
  }),
  route({
    method: "GET",
    path: `${base}/login`,
    section: "Authentication",
    summary: "Start an OIDC sign-in: redirects the browser to the provider",
    description:
      "No credential. Answers 302 to the provider's authorization endpoint (authorization code flow, PKCE S256, `state`, `nonce`) and sets the " +
      "`bng_oidc` cookie (HttpOnly, SameSite=Lax, 10 minutes) binding the sign-in to this browser. 404 for an unknown or disabled provider; " +
      "502 when the provider's discovery document cannot be read, does not match its issuer or is not an allowed destination (`alarms.webhookAllowlist`); " +
      "409 when its client secret was dropped by an issuer change. " +
      "429 with `Retry-After` when the caller's address or the appliance has started too many sign-ins (the login throttle: a start counts as a login attempt), " +
      "or too many sign-ins wait for their provider. The discovery document is read at most once every 5 minutes per provider. " +
      "A browser (Accept: text/html) gets every refusal as an HTML page with the same status, the detail and a link back to `/`.",
    floor: "anonymous",
    // A refusal is a page when the browser asks for HTML (its Accept header).
    readsHeaders: true,
    params: ProviderName,
    query: z.object({ returnTo: ReturnTo }),
    response: { description: "redirect to the provider", status: 302 },
    errors: [404, 409, 429, 502],
    errorText: { 429: "too many sign-in starts from this address or on this appliance, or too many sign-ins waiting for their provider; see Retry-After" },
    handle: (ctx) => navigation(ctx, async () => {
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
    }),
  }),
  route({
    method: "GET",
    path: `${base}/callback`,
    section: "Authentication",
    summary: "The provider's redirect back: completes the sign-in and sets the session cookie",
    description:
      "No credential (see the login route): the one-time `state` must match a sign-in this browser started (its `bng_oidc` cookie) within 10 minutes. " +
      "The code is redeemed with the PKCE verifier (client_secret_basic); the ID token must verify against the provider's keys with its issuer, the client id as " +
      "audience, and the sign-in's nonce. The `usernameClaim` names the identity as `<user>@<provider>`; the first `roleMap` rule whose group is in the " +
      "`groupsClaim` gives the role. Answers 200 with the `bng_session` cookie (SameSite=Strict) and a small HTML page (no script, strict CSP) that navigates to `returnTo`: " +
      "the redirect chain began on the provider's site, so a browser would not send a Strict cookie on a redirect at its end, while the page's own navigation is same-site and lands signed in. " +
      "The session's CSRF token comes from whoami. " +
      "401 for a provider error (`error` parameter), a bad or reused state, or a refused ID token; 403 when no role mapping matches (fails closed); " +
      "502 when the provider cannot be reached. A browser (Accept: text/html) gets a refusal as an HTML page with the same status, the detail and a link back to `/`. " +
      "Every refusal is logged (`auth.oidc.refused`).",
    floor: "anonymous",
    // A refusal is a page when the browser asks for HTML (its Accept header), and the binding cookie is read.
    readsHeaders: true,
    params: ProviderName,
    query: z.object({
      code: z.string().min(1).max(4096).optional(),
      state: z.string().min(1).max(512).optional(),
      error: z.string().max(256).optional(),
      error_description: z.string().max(1024).optional(),
    }),
    response: { description: "signed in: a page that navigates to `returnTo`", contentType: "text/html" },
    errors: [401, 403, 404, 409, 502],
    handle: (ctx) => navigation(ctx, async () => {
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
    }),
  }),
];
