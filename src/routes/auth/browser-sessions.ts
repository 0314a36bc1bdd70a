/** Open browser sessions: who is logged in to the web UI, and ending a session that should not be. */
import { z } from "zod";
import { route } from "../../http/route.ts";
import { StatusResult, page, pageQuery, slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { BrowserSessionRecord } from "../../schemas/auth.ts";

const base = "/api/v1/auth/sessions";

export const browserSessionRoutes = [
  route({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List open browser sessions, newest first",
    description: "Every account's cookie sessions (API tokens are listed under /auth/tokens). `current` marks the caller's own.",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of sessions", schema: page(BrowserSessionRecord, "BrowserSessionPage") },
    handle: async (ctx) => {
      const current = ctx.principal?.via === "session" && ctx.credential ? ctx.credential.sha256 : null;
      return slicePage(await ctx.appliance.stub.identity().listSessions(current), ctx.query.offset, ctx.query.limit);
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "End a browser session at once (audited)",
    description: "The session's next request answers 401. Ending one's own session is allowed (it is a logout without clearing the cookie).",
    params: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, "a session handle (16 hex digits)") }),
    response: { description: "StatusResult `loggedOut`, naming the session's account", schema: StatusResult },
    errors: [404],
    handle: async (ctx) => {
      const { username } = unwrap(await ctx.appliance.stub.identity().endSession(ctx.params.id, actorName(ctx.principal!)));
      return { status: "loggedOut" as const, username };
    },
  }),
];
