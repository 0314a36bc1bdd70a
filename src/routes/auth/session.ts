/** Login, enrolment, logout, whoami and the caller's own password: the browser-session half of Authentication. */
import { StatusError } from "../../http/problem.ts";
import { implement, type RouteContext } from "../../http/route.ts";
import type { StatusResult } from "../../schemas/common.ts";
import { commitMeta } from "../../schemas/commit.ts";
import { isExternalIdentity } from "../../auth/accounts.ts";
import type { Outcome } from "../../schemas/outcome.ts";
import { unwrap } from "../../http/refusal.ts";
import { committed } from "../../http/config-version.ts";
import { clearedSessionCookie, sessionCookie } from "../../trust/session.ts";
import type { LoginResponse } from "../../schemas/auth.ts";
import { authSession } from "../../schemas/auth/session.ts";

/** Sets the session cookie when a login or enrolment succeeded, and answers the spec's LoginResponse. */
function answerLogin(ctx: RouteContext<unknown, unknown, unknown>, outcome: Outcome<{ response: LoginResponse; sessionId?: string }>): LoginResponse {
  const { response, sessionId } = unwrap(outcome);
  if (sessionId) ctx.responseHeaders.append("set-cookie", sessionCookie(sessionId, ctx.appliance.secure));
  ctx.responseHeaders.set("cache-control", "no-store");
  return response;
}

export const loginRoutes = [
  implement(authSession.login, async (ctx) =>
    answerLogin(ctx, await ctx.appliance.stub.identity().login(ctx.body.username, ctx.body.password, ctx.body.totpCode ?? null, ctx.appliance.clientIp, ctx.body.passkey ?? null))),
  implement(authSession.enrol, async (ctx) => answerLogin(ctx, await ctx.appliance.stub.identity().enrol(ctx.body.enrolmentToken, ctx.body.totpCode, ctx.appliance.clientIp))),
  implement(authSession.logout, async (ctx) => {
    if (ctx.principal?.via === "session" && ctx.credential) {
      ctx.appliance.stub.identity().logout(ctx.credential.sha256);
      ctx.responseHeaders.append("set-cookie", clearedSessionCookie(ctx.appliance.secure));
    }
    return { status: "loggedOut" as const, ...(ctx.principal?.username ? { username: ctx.principal.username } : {}) };
  }),
  implement(authSession.whoami, (ctx) => {
    const p = ctx.principal!;
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
  implement(authSession.password, async (ctx) => {
    const p = ctx.principal!;
    const username = p.username!;
    if (isExternalIdentity(username)) throw new StatusError(403, "an identity signed in through OIDC has no password here; its provider manages it");
    // Counted like a login: a stolen session cannot guess the current password here faster than at the login.
    unwrap(await ctx.appliance.stub.identity().reauthenticate(username, { currentPassword: ctx.body.currentPassword }, ctx.appliance.clientIp));
    committed(ctx, await ctx.appliance.stub.config().putItem("login.users", username, { password: ctx.body.newPassword }, "update", commitMeta(ctx, "user")));
    return { status: "updated", username: username } satisfies StatusResult;
  }),
];
