/** Open browser sessions: who is logged in to the web UI, and ending a session that should not be. */
import { inWorker } from "../../http/route.ts";
import { slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { browserSessions } from "../../schemas/auth/browser-sessions.ts";

export const browserSessionRoutes = [
  // The caller's own session is marked `current` (the object knows its credential).
  inWorker(browserSessions.list, async (ctx) =>
    slicePage(await ctx.port.browserSessions.list(), ctx.query.offset, ctx.query.limit),
  ),
  inWorker(browserSessions.end, async (ctx) => {
    const { username } = unwrap(await ctx.port.browserSessions.end(ctx.params.id));
    return { status: "loggedOut" as const, username };
  }),
];
