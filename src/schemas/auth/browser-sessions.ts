/** Authentication, open browser sessions, the wire contract: who is logged in to the web UI, and ending a session. */
import { z } from "zod";
import { operation } from "../contract.ts";
import { StatusResult, page, pageQuery } from "../common.ts";
import { BrowserSessionRecord } from "../auth.ts";

const base = "/api/v1/auth/sessions";

/** The section's operations. */
export const browserSessions = {
  list: operation({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List open browser sessions, newest first",
    description:
      "Every account's cookie sessions (API tokens are listed under /auth/tokens). `current` marks the caller's own.",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of sessions", schema: page(BrowserSessionRecord, "BrowserSessionPage") },
    examples: { query: { offset: 0, limit: 10 }, response: { total: 0, offset: 0, limit: 10, items: [] } },
  }),
  end: operation({
    method: "DELETE",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "End a browser session at once (audited)",
    description:
      "The session's next request answers 401. Ending one's own session is allowed (it " +
      "is a logout without clearing the cookie).",
    params: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, "a session handle (16 hex digits)") }),
    response: { description: "StatusResult `loggedOut`, naming the session's account", schema: StatusResult },
    errors: [404],
    examples: {
      params: { id: "9f2c4e1a7b3d5086" },
      response: { status: "loggedOut", username: "admin" },
      errors: { 404: "no open session '9f2c4e1a7b3d5086'" },
    },
  }),
};
