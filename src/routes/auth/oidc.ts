/**
 * OIDC sign-in for the web UI: the browser is sent to the provider and comes
 * back to the spec's callback path `/api/v1/auth/oidc/{name}/callback`, where
 * a session cookie is set. Both routes take no credential: a browser on its
 * way to sign in has none, and the provider's redirect cannot carry one. The
 * callback is authenticated instead by what the first route stored: the
 * one-time `state`, the PKCE verifier, the ID token's nonce and a cookie that
 * binds the sign-in to the browser that started it. Each leg is one call
 * (durable-objects/ports/auth/oidc.ts); the state, the binding and the cookies
 * are made here.
 */
import { inWorker, type WorkerContext } from "../../http/route.ts";
import { StatusError } from "../../http/problem.ts";
import { continuePage, prefersHtml, problemPage } from "../../http/pages.ts";
import { refusalError, unwrap } from "../../http/refusal.ts";
import { readCookie, sessionCookie } from "../../trust/session.ts";
import { sha256Hex } from "../../trust/encoding.ts";
import { OIDC_COOKIE, authorizationUrl, clearedOidcCookie, newSignIn, oidcCookie } from "../../trust/oidc.ts";
import { DEFAULT_RETURN, oidcSignIn } from "../../schemas/auth/oidc.ts";

type Navigation = WorkerContext<{ name: string }, unknown, unknown>;

/**
 * Both legs are browser navigations: a refusal is a page the person can act
 * on (the problem's detail and a way back) when the browser asks for HTML,
 * and problem+json otherwise, with the same status either way.
 */
async function navigation(ctx: Navigation, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StatusError && prefersHtml(ctx))
      return problemPage(error.status, error.message, new Headers(error.headers));
    throw error;
  }
}

/** The origin the request came to: the redirect URI's when the configuration names no listener. */
const requestOrigin = (ctx: Navigation) => new URL(ctx.url).origin;

export const oidcRoutes = [
  inWorker(oidcSignIn.start, (ctx) =>
    navigation(ctx, async () => {
      // Made before the call, which keeps the hashes: the browser alone holds the state and the binding.
      const signIn = await newSignIn();
      const [stateSha256, bindingSha256] = await Promise.all([sha256Hex(signIn.state), sha256Hex(signIn.binding)]);
      const begun = unwrap(
        await ctx.port.oidcSignIn.start(ctx.params.name, requestOrigin(ctx), {
          stateSha256,
          bindingSha256,
          nonce: signIn.nonce,
          verifier: signIn.verifier,
          returnTo: ctx.query.returnTo ?? DEFAULT_RETURN,
        }),
      );
      const headers = new Headers({
        location: authorizationUrl(begun.discovery, begun.provider, begun.redirectUri, signIn),
        "cache-control": "no-store",
      });
      headers.append("set-cookie", oidcCookie(signIn.binding, ctx.appliance.secure));
      return new Response(null, { status: 302, headers });
    }),
  ),
  inWorker(oidcSignIn.callback, (ctx) =>
    navigation(ctx, async () => {
      const { code, state, error, error_description: errorDescription } = ctx.query;
      const binding = readCookie(ctx.headers.get("cookie"), OIDC_COOKIE);
      const [stateSha256, bindingSha256] = await Promise.all([
        state ? sha256Hex(state) : null,
        binding ? sha256Hex(binding) : null,
      ]);
      const end = unwrap(
        await ctx.port.oidcSignIn.callback(ctx.params.name, requestOrigin(ctx), {
          code,
          error,
          errorDescription,
          stateSha256,
          bindingSha256,
        }),
      );
      const secure = ctx.appliance.secure;
      if ("refusal" in end) {
        // Refused after the sign-in began: its binding cookie goes too.
        const refused = refusalError(end.refusal);
        throw new StatusError(refused.status, refused.message, {
          headers: { ...refused.headers, "set-cookie": clearedOidcCookie(secure) },
        });
      }
      const headers = new Headers();
      headers.append("set-cookie", sessionCookie(end.sessionId, secure));
      headers.append("set-cookie", clearedOidcCookie(secure));
      return continuePage(end.returnTo, headers);
    }),
  ),
];
