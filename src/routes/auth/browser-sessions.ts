/** Open browser sessions: who is logged in to the web UI, and ending a session that should not be. */
import { implement } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { browserSessions } from "../../schemas/auth/browser-sessions.ts";

export const browserSessionRoutes = [
  implement(browserSessions.list, async (ctx) => {
    const current = ctx.principal?.via === "session" && ctx.credential ? ctx.credential.sha256 : null;
    return slicePage(await ctx.appliance.stub.identity().listSessions(current), ctx.query.offset, ctx.query.limit);
  }),
  implement(browserSessions.end, async (ctx) => {
    const { username } = unwrap(await ctx.appliance.stub.identity().endSession(ctx.params.id, actorName(ctx.principal!)));
    return { status: "loggedOut" as const, username };
  }),
];
