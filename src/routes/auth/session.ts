/** Login, enrolment, logout, whoami and the caller's own password: the browser-session half of Authentication. */
import { inWorker, type WorkerContext } from "../../http/route.ts";
import type { StatusResult } from "../../schemas/common.ts";
import type { Outcome } from "../../schemas/outcome.ts";
import { unwrap } from "../../http/refusal.ts";
import { committed } from "../../http/config-version.ts";
import { clearedSessionCookie, sessionCookie } from "../../trust/session.ts";
import type { LoginResponse } from "../../schemas/auth.ts";
import { authSession } from "../../schemas/auth/session.ts";

/** Sets the session cookie when a login or enrolment succeeded, and answers the spec's LoginResponse. */
function answerLogin(
  ctx: WorkerContext<unknown, unknown, unknown>,
  outcome: Outcome<{ response: LoginResponse; sessionId?: string }>,
): LoginResponse {
  const { response, sessionId } = unwrap(outcome);
  if (sessionId) ctx.responseHeaders.append("set-cookie", sessionCookie(sessionId, ctx.appliance.secure));
  ctx.responseHeaders.set("cache-control", "no-store");
  return response;
}

export const loginRoutes = [
  inWorker(authSession.login, async (ctx) =>
    answerLogin(
      ctx,
      await ctx.port.authSession.login(
        ctx.body.username,
        ctx.body.password,
        ctx.body.totpCode ?? null,
        ctx.body.passkey ?? null,
      ),
    ),
  ),
  inWorker(authSession.enrol, async (ctx) =>
    answerLogin(ctx, await ctx.port.authSession.enrol(ctx.body.enrolmentToken, ctx.body.totpCode)),
  ),
  inWorker(authSession.logout, async (ctx) => {
    const { endedSession, username } = await ctx.port.authSession.logout();
    if (endedSession) ctx.responseHeaders.append("set-cookie", clearedSessionCookie(ctx.appliance.secure));
    return { status: "loggedOut" as const, ...(username ? { username } : {}) };
  }),
  inWorker(authSession.whoami, async (ctx) => {
    const p = await ctx.port.authSession.whoami();
    ctx.responseHeaders.set("cache-control", "no-store");
    return {
      via: p.via,
      username: p.username,
      role: p.role,
      tokenName: p.tokenName,
      csrfToken: p.csrfToken,
      passwordChangeRequired: p.passwordChangeRequired === true,
      appliance: ctx.appliance.name,
    };
  }),
  inWorker(authSession.password, async (ctx) => {
    const { username } = committed(
      ctx,
      await ctx.port.authSession.password(ctx.body.currentPassword, ctx.body.newPassword),
    );
    return { status: "updated", username } satisfies StatusResult;
  }),
];
