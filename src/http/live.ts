/**
 * The web UI's live channel as the Worker hands it on (docs/web-ui.md, Live):
 * a WebSocket upgrade on `LIVE_PATH` with the session cookie goes to the
 * appliance's object (partyserver's fetch, then onConnect), which admits it
 * or refuses it; as for every request, only the cookie's SHA-256 crosses.
 * Every refusal is a problem, never a socket opened and closed.
 */
import type { ApplianceRpc } from "../env.ts";
import { LIVE_PATH, LIVE_SESSION_HEADER } from "../schemas/live.ts";
import type { Refusal } from "../schemas/outcome.ts";
import { sha256Hex } from "../trust/encoding.ts";
import { readSessionCookie } from "../trust/session.ts";
import { problemResponse, StatusError } from "./problem.ts";
import { refusalError } from "./refusal.ts";

export { LIVE_PATH };

const problemOf = (error: StatusError) =>
  problemResponse(error.status, error.message, LIVE_PATH, { headers: error.headers });

/**
 * Opens the live channel for `request` at the appliance behind `stub`, or answers why not. `origin` is this appliance's
 * as the browser reaches it.
 */
export async function liveResponse(
  request: Request,
  origin: string,
  stub: DurableObjectStub<ApplianceRpc>,
): Promise<Response> {
  if (request.method !== "GET")
    return problemOf(new StatusError(405, "the live channel is opened with GET", { headers: { allow: "GET" } }));
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
    return problemOf(
      new StatusError(426, "the live channel is a WebSocket: send Upgrade: websocket", {
        headers: { upgrade: "websocket" },
      }),
    );
  const sessionId = readSessionCookie(request.headers.get("cookie"));
  if (sessionId === null)
    return problemOf(new StatusError(401, "the live channel needs the web UI's session cookie: sign in first"));
  const headers = new Headers({ upgrade: "websocket", [LIVE_SESSION_HEADER]: await sha256Hex(sessionId) });
  const pageOrigin = request.headers.get("origin");
  if (pageOrigin !== null) headers.set("origin", pageOrigin);
  let answer: Response;
  try {
    answer = await stub.fetch(new Request(`${origin}${LIVE_PATH}`, { headers }));
  } catch {
    // The object could not be asked (its storage would not open): the page falls back to polling, which says why.
    return problemOf(
      new StatusError(503, "the appliance's live channel is not available; it may be starting or stopping"),
    );
  }
  if (answer.status === 101) return answer;
  return problemOf(refusalError((await answer.json()) as Refusal));
}
