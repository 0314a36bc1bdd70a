/**
 * The web UI's live channel (docs/web-ui.md, Live): a WebSocket on the
 * appliance's own origin, not part of the API the spec defines. The Worker
 * hands it to the appliance's object, which admits the session cookie's
 * session and pushes what the header strip, the dashboard and the fleet
 * overview show whenever it changes.
 */
import type { SystemStatus } from "./system.ts";

/** Where the web UI opens it: under the UI's own `/ui/` prefix, beside its files, so no API path is taken. */
export const LIVE_PATH = "/ui/live";

/**
 * The header by which the Worker gives the object the session cookie's SHA-256 (the cookie itself never crosses, as for
 * every request).
 */
export const LIVE_SESSION_HEADER = "x-bng-live-session";

/**
 * Live channels one session may hold open at once, as a credential may hold log streams (issue #47: one session
 * opened 256 and held them all): a person's few tabs of one appliance; a fifth is refused 429.
 */
export const LIVE_CHANNELS_PER_SESSION = 4;

/** When a refused fifth channel may try again: a tab closed frees its place at once. */
export const LIVE_RETRY_SECONDS = 5;

/** A pushed message: GET /system/status's answer at the instant something changed. */
export interface LiveMessage {
  status: SystemStatus;
}

/**
 * The close code when the session that opened the channel has ended (logout, expiry, revocation): the UI then stops
 * following (4000–4999 are the application's, RFC 6455 §7.4.2).
 */
export const LIVE_SESSION_ENDED = 4401;
