/**
 * The web UI's live channel inside the appliance's object (docs/web-ui.md,
 * Live): partyserver's connections, each admitted for a session of the
 * identity store and a page of this appliance's own origin, each sent GET
 * /system/status's answer as it changes, each closed once its session has
 * ended. Hibernatable: a connection's session hash is its attachment, so the
 * object may sleep between changes with every connection kept open.
 */
import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { Env } from "../src/env.ts";
import {
  LIVE_CHANNELS_PER_SESSION,
  LIVE_RETRY_SECONDS,
  LIVE_SESSION_ENDED,
  LIVE_SESSION_HEADER,
} from "../src/schemas/live.ts";
import type { LiveMessage } from "../src/schemas/live.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { Principal } from "../src/schemas/principal.ts";
import type { SystemStatus } from "../src/schemas/system.ts";

/** What a live connection remembers across hibernation. */
interface Watcher {
  sessionSha256: string;
}

/** What the feed reads from the appliance's core, and partyserver's connections. */
export interface LiveSources {
  /** The session behind a hash, or null once it has ended (a recheck is not a use: `touch` false). */
  session(sha256: string, touch: boolean): Principal | null;
  /**
   * The origins the web UI's pages are served from besides the request's own (`webUi.listeners` under
   * `webUi.hostname`).
   */
  pageOrigins(): string[];
  /** GET /system/status's answer now. */
  status(): SystemStatus;
  /** The open connections. */
  connections(): Iterable<Connection>;
}

/** The live channel's admission, pushes and rechecks; the object holds one. */
export class LiveFeed {
  readonly #sources: LiveSources;
  /** The last message sent, so a change that moved nothing shown sends nothing. */
  #last = "";
  #pending = false;
  /** Admissions under way per session (not yet connected), counted with the open ones: a burst cannot pass the cap. */
  readonly #admitting = new Map<string, number>();

  constructor(sources: LiveSources) {
    this.#sources = sources;
  }

  /**
   * Whether an upgrade request may open the channel: a WebSocket upgrade, from
   * a page of this appliance (cross-site WebSocket hijacking: a browser sends
   * the session cookie with any site's WebSocket, but always says the page's
   * Origin), for a session that authenticates and may use the API, and that
   * holds fewer than LIVE_CHANNELS_PER_SESSION channels (a 429 otherwise). An
   * admission is `settled` once its connection is made or failed.
   */
  admit(request: Request): Outcome<{ sessionSha256: string }> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return refuse("invalid", "the live channel is a WebSocket: send Upgrade: websocket");
    const origin = request.headers.get("origin");
    const own = new URL(request.url).origin;
    if (origin === null || (origin !== own && !this.#sources.pageOrigins().includes(origin))) {
      return refuse(
        "forbidden",
        `the live channel is opened by this appliance's own pages only ` +
          `(Origin ${origin === null ? "absent" : `'${origin.slice(0, 200)}'`}, ` +
          `expected ${own})`,
      );
    }
    const sessionSha256 = request.headers.get(LIVE_SESSION_HEADER);
    if (sessionSha256 === null) return refuse("bad-credentials", "the live channel needs the web UI's session cookie");
    const principal = this.#sources.session(sessionSha256, true);
    if (principal === null) return refuse("bad-credentials", "the session has ended; log in again");
    if (principal.passwordChangeRequired)
      return refuse("forbidden", "this account still has the published development default password: change it first");
    let held = this.#admitting.get(sessionSha256) ?? 0;
    for (const connection of this.#sources.connections()) {
      if ((connection.state as Watcher | null)?.sessionSha256 === sessionSha256) held++;
    }
    if (held >= LIVE_CHANNELS_PER_SESSION) {
      const detail =
        `this session already has ${LIVE_CHANNELS_PER_SESSION} live channels open; close ` + `one (a tab) first`;
      return refuse("throttled", detail, { retryAfterSeconds: LIVE_RETRY_SECONDS });
    }
    this.#admitting.set(sessionSha256, (this.#admitting.get(sessionSha256) ?? 0) + 1);
    return { ok: true, sessionSha256 };
  }

  /** An admission is over: its connection is made (it counts as open now) or failed. */
  settled(sessionSha256: string): void {
    const left = (this.#admitting.get(sessionSha256) ?? 1) - 1;
    if (left > 0) this.#admitting.set(sessionSha256, left);
    else this.#admitting.delete(sessionSha256);
  }

  /** A connection `admit` let in: it remembers its session and is sent the status at once. */
  connected(connection: Connection, request: Request): void {
    const watcher: Watcher = { sessionSha256: request.headers.get(LIVE_SESSION_HEADER) ?? "" };
    connection.setState(watcher);
    connection.send(this.#message());
  }

  /**
   * Something shown may have changed (a model step, a change request): the connections are told once the current turn
   * is done.
   */
  changed(): void {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#push();
    });
  }

  /** Closes every connection whose session has ended (called when a session, a token or an account's right ends). */
  recheck(): Connection[] {
    const open: Connection[] = [];
    for (const connection of this.#sources.connections()) {
      const watcher = connection.state as Watcher | null;
      if (watcher && this.#sources.session(watcher.sessionSha256, false) !== null) open.push(connection);
      else connection.close(LIVE_SESSION_ENDED, "the session has ended");
    }
    return open;
  }

  #message(): string {
    const message: LiveMessage = { status: this.#sources.status() };
    return JSON.stringify(message);
  }

  /**
   * Sends the status to every connection whose session still holds (an idle session's expiry is found here, at the
   * latest a step later).
   */
  #push(): void {
    const open = this.recheck();
    if (open.length === 0) return;
    const text = this.#message();
    // What every open connection was last sent (one that joined since was sent the status then): unchanged, nothing to
    // say.
    if (text === this.#last) return;
    this.#last = text;
    for (const connection of open) connection.send(text);
  }
}

/**
 * partyserver's connection handling, held by the appliance's object rather than inherited by it: the object extends
 * DurableObject, so its RPC surface is exactly the methods it declares, and hands its WebSocket entry points to this
 * server (`fetch` for an admitted upgrade, `webSocketMessage`/`Close`/`Error` after hibernation). It shares the
 * object's state (`ctx`), so the sockets it accepts are the object's own and hibernate with it. Never bound as a
 * Durable Object class of its own.
 */
export class LiveConnections extends Server<Env> {
  /** Live connections hibernate: the object may sleep between changes with every web UI's channel kept open. */
  static override options = { hibernate: true };
  readonly #feed: () => LiveFeed;

  constructor(ctx: DurableObjectState, env: Env, feed: () => LiveFeed) {
    super(ctx, env);
    this.#feed = feed;
  }

  /** A connection the object admitted, accepted by partyserver: it is sent the status at once. */
  override onConnect(connection: Connection, ctx: ConnectionContext): void {
    this.#feed().connected(connection, ctx.request);
  }
}
