/**
 * The public listeners. Miniflare's direct sockets speak plain HTTP only and
 * cannot tell the Worker who connected, so each appliance gets a Node server
 * on its public port (HTTPS by default, plain HTTP with BNG_HTTP=1) that
 * relays every request to the fleet Worker's one direct socket on an
 * ephemeral loopback port. It relays at the HTTP level, not raw TCP, to set
 * two headers (after removing any a client sent under those names):
 * `X-BNG-Peer-Address`, the connection's peer address, which the Worker uses
 * as the client's address in the local fleet (src/http/client-address.ts),
 * and `X-BNG-Appliance`, the appliance this port belongs to, which picks the
 * appliance as a hostname does when deployed (src/fleet/listener.ts). Bodies stream
 * both ways unbuffered (event streams, large uploads), keep-alive holds on
 * both sides. A request without a body (nearly all) goes to workerd on a
 * pooled connection of upstream-pool.ts; one with a body on a connection of
 * its own through Node's client (`relayWithBody`). One upgrade is relayed,
 * the web UI's live channel (a WebSocket
 * on LIVE_PATH): its request is cleaned as any other, and the connection
 * becomes a byte stream only once the appliance has answered 101; until then
 * (and on any other answer, relayed and then the connection closed) every
 * request on a connection passes through here, headers cleaned.
 * Stalled and idle connections are closed, and connections capped, per listener and per client address
 * (listener-limits.ts).
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { LaunchError } from "./config.ts";
import { CF_BLOB_HEADER, PEER_ADDRESS_HEADER, normalisePeerAddress } from "../src/http/client-address.ts";
import { APPLIANCE_HEADER, STREAM_HANDLE_HEADER } from "../src/fleet/listener.ts";
import { WIRING_HEADER } from "../src/fleet/wiring.ts";
import { WIRING_SECRET } from "./wiring.ts";
import { LIVE_PATH } from "../src/schemas/live.ts";
import { MAX_BODY_BYTES } from "../src/http/body.ts";
import { withSecurity } from "../src/http/headers.ts";
import { statusTitle } from "../src/http/problem.ts";
import { acceptAcmeHttp } from "./acme-http.ts";
import { joinSockets } from "./join-sockets.ts";
import { socketAddress } from "./public-sockets.ts";
import { UpstreamPool } from "./upstream-pool.ts";
import { ClientShares, LISTENER_LIMITS, MAX_HEADER_BYTES, MAX_TARGET_BYTES, serverOptions } from "./listener-limits.ts";
import type { ListenerLimits } from "./listener-limits.ts";

export type Frontend = {
  /** Points the frontend at the Worker's direct socket once Miniflare has bound it. */
  setTarget(host: string, port: number): void;
  /**
   * How a log stream's place is freed once its client leaves (Appliance.releaseLogStream through Miniflare, given
   * once Miniflare is up): workerd tells the appliance only at the stream's next write, up to 15 s later.
   */
  releaseStreamsWith(release: (handle: string) => Promise<unknown>): void;
  /** Serves another certificate from now on (uploaded or issued by ACME; see certificate-watch.ts); HTTPS only. */
  useCertificate(key: string, cert: string): void;
  /** Stops accepting and drops every open connection (keep-alive ones would otherwise hold close() forever). */
  close(): Promise<void>;
};

/**
 * Headers that belong to one connection (RFC 9110 §7.6.1) and are not relayed; `expect` is answered by this
 * listener already (Node sends the 100 Continue); the peer, appliance and wiring headers are ours to set; and the one
 * the Worker's socket reads `request.cf` from, whose `clientIp` would otherwise be the client's to claim.
 */
const NOT_RELAYED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "expect",
  PEER_ADDRESS_HEADER,
  APPLIANCE_HEADER,
  STREAM_HANDLE_HEADER,
  CF_BLOB_HEADER,
  WIRING_HEADER,
]);
/**
 * After the appliance has answered a request whose body is still arriving
 * (a 413 for an oversized upload), the rest is read and dropped, so a client
 * that sends its whole body before reading the answer still gets it instead of
 * a reset connection; past this many bytes or this long, the connection is cut.
 */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;
/** How long requests wait for a closed log stream's release (a call through Miniflare, a few milliseconds). */
const RELEASE_WAIT_MS = 1000;

/** Turns a bind failure into a message naming the appliance and the port. */
export function describeListenError(error: unknown, name: string, address: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return new LaunchError(
      `Port ${port} on ${address} (appliance ${name}) is already in use: stop whatever ` +
        `holds it, or move the fleet with --port-base (BNG_PORT_BASE)`,
    );
  }
  if (code === "EACCES") return new LaunchError(`Not allowed to listen on ${address}:${port} (appliance ${name})`);
  if (code === "EADDRNOTAVAIL")
    return new LaunchError(`Address ${address} (appliance ${name}) is not an address of this machine`);
  return error as Error;
}

/**
 * The client's request headers as relayed: connection-level ones dropped, the peer address and the appliance set
 * by us alone. An HTTP/1.0 request may come without Host, which workerd refuses (a text/plain 400): it gets the
 * address the client connected to, the server's own name for it (RFC 9112 §3.3).
 */
function relayedHeaders(req: http.IncomingMessage, peer: string, appliance: string): string[] {
  const { rawHeaders } = req;
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (NOT_RELAYED.has(name.toLowerCase())) continue;
    out.push(name, rawHeaders[i + 1]!);
  }
  if (req.headers.host === undefined) out.push("Host", localAuthority(req.socket));
  // The secret that makes the Worker believe the other two (src/fleet/wiring.ts).
  out.push(PEER_ADDRESS_HEADER, peer, APPLIANCE_HEADER, appliance, WIRING_HEADER, WIRING_SECRET);
  return out;
}

/** The address and port a client connected to, as a Host header names them. */
const localAuthority = (socket: net.Socket): string =>
  socketAddress(normalisePeerAddress(socket.localAddress), socket.localPort ?? 0);

/**
 * A bodiless request's head as written to workerd (upstream-pool.ts), from what Node's parser read and accepted:
 * method and target without spaces or controls, header names tokens, values without CR, LF, NUL or other controls
 * but tab (it answers 400 to anything else, checked 2026-11-29), so nothing a client sent can start another line.
 */
function requestHead(req: http.IncomingMessage, peer: string, appliance: string): string {
  return `${req.method} ${req.url} HTTP/1.1\r\n${headLines(relayedHeaders(req, peer, appliance))}\r\n`;
}

/** The value of a header in a raw list, by its lower-case name. */
function headerValue(rawHeaders: string[], lowerName: string): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === lowerName) return rawHeaders[i + 1];
  return undefined;
}

/**
 * Whether a request asks for the one upgrade relayed: a WebSocket to the web UI's live channel (its query, if any, goes
 * along).
 */
function isLiveUpgrade(req: http.IncomingMessage): boolean {
  return (
    req.method === "GET" &&
    (req.url ?? "").split("?")[0] === LIVE_PATH &&
    req.headers.upgrade?.toLowerCase() === "websocket"
  );
}

/** A raw header list as lines of a head. */
const headLines = (rawHeaders: string[]): string =>
  rawHeaders.reduce((text, value, i) => (i % 2 === 0 ? `${text}${value}: ` : `${text}${value}\r\n`), "");

/** The appliance's response headers as relayed to the client (Node frames the body itself). */
function responseHeaders(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i]!.toLowerCase();
    if (NOT_RELAYED.has(lower) || lower === "transfer-encoding") continue;
    out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}

/**
 * Ends a response the listener cut short (its own 502 or 413, or an appliance
 * answer that came before the request's body was all sent) only once that
 * body has been drained: Node closes a connection whose response ends before
 * its request, and a client still sending would then get a reset instead of
 * reading the answer, whose Content-Length already tells it it is complete.
 */
function endAfterBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.complete || req.destroyed) res.end();
  else req.once("end", () => res.end()).once("close", () => res.end());
}

/**
 * Reads and drops the rest of a body the listener no longer relays (so the
 * client gets to read the answer); past DRAIN_MAX_BYTES or DRAIN_MAX_MS the connection is cut.
 */
function drain(req: http.IncomingMessage): void {
  if (req.complete) return;
  const cut = setTimeout(() => req.socket.destroy(), DRAIN_MAX_MS).unref();
  req.on("end", () => clearTimeout(cut));
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** What a write to workerd fails with once workerd has reset the connection. */
const RESET_ON_WRITE = new Set(["ECONNRESET", "EPIPE"]);

/**
 * A connection to workerd for a request whose body is relayed as it arrives. workerd answers an upload it refuses
 * on its headers (a 401) or part-way (a 413) at once, then closes with the rest unread, which resets the
 * connection. Node destroys a socket whose write fails, and the answer, already in the socket's receive queue,
 * was lost with it (a 1 MB upload without a credential got the listener's 502 most times, not the 401). Here a
 * write that fails on that reset is dropped instead: the answer is still read, and had none come, the read's own
 * reset or end fails the request (502) as before.
 */
function uploadConnection(host: string, port: number): net.Socket {
  const socket = net.connect({ host, port });
  type WriteCallback = (error?: Error | null) => void;
  const forgiving =
    (callback: WriteCallback): WriteCallback =>
    (error) =>
      callback(error && RESET_ON_WRITE.has((error as NodeJS.ErrnoException).code ?? "") ? null : error);
  // Node's own write paths, each given a callback that forgives the reset (Writable would destroy on any error).
  const internals = socket as unknown as {
    _write: (...args: unknown[]) => void;
    _writev: (...args: unknown[]) => void;
  };
  for (const method of ["_write", "_writev"] as const) {
    const original = internals[method].bind(socket);
    internals[method] = (...args: unknown[]) => original(...args.slice(0, -1), forgiving(args.at(-1) as WriteCallback));
  }
  return socket;
}

/**
 * The listener's own problem answer: its body, and its headers with the Worker's security headers (HSTS over HTTPS).
 */
function problemAnswer(
  status: number,
  detail: string,
  secure: boolean,
  extra: Record<string, string> = {},
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: "about:blank", title: statusTitle(status), status, detail });
  return {
    body,
    headers: withSecurity(
      { "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(body)), ...extra },
      secure,
    ),
  };
}

/** Writes a whole problem answer now, and ends it once the request's body is drained. */
function problem(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  detail: string,
  secure: boolean,
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  const { body, headers } = problemAnswer(status, detail, secure);
  res.writeHead(status, headers).write(body);
  endAfterBody(req, res);
}

/**
 * Answers a request Node could not read, as every error is answered (RFC 9457, the Worker's security headers), then
 * closes the connection: a head past MAX_HEADER_BYTES 431, anything else malformed 400. A connection whose head did
 * not come in time (listener-limits.ts), one that is gone, and one with an answer already under way (a pipelined
 * request's) are closed without a word: the first may not even have finished its TLS handshake.
 */
function answerUnparsed(error: NodeJS.ErrnoException, socket: net.Socket, secure: boolean): void {
  const answering = (socket as { _httpMessage?: unknown })._httpMessage;
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT" || error.code === "ECONNRESET" || !socket.writable || answering)
    return void socket.destroy();
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const detail =
    status === 431 ? `the request's head exceeds ${MAX_HEADER_BYTES} bytes` : "the request is not valid HTTP/1.1";
  const { body, headers } = problemAnswer(status, detail, secure, { connection: "close" });
  socket.end(`HTTP/1.1 ${status} ${statusTitle(status)}\r\n${headLines(Object.entries(headers).flat())}\r\n${body}`);
  // A client that reads nothing back does not hold the connection.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Starts the public listener of appliance `name` (TLS when `key` and `cert` are given); requests that arrive
 * before setTarget wait for it. `limits` are LISTENER_LIMITS unless a test shortens them.
 */
export async function listenFrontend(options: {
  name: string;
  address: string;
  port: number;
  /** The host name it answers to besides its address (the fleet file's `webUi.hostname`). */
  hostname?: string | undefined;
  key?: string;
  cert?: string;
  limits?: ListenerLimits;
}): Promise<Frontend> {
  const { name, address, port } = options;
  const limits = options.limits ?? LISTENER_LIMITS;
  let resolveTarget!: (target: { host: string; port: number }) => void;
  const target = new Promise<{ host: string; port: number }>((resolve) => (resolveTarget = resolve));
  const pool = new UpstreamPool();
  const secure = options.key !== undefined && options.cert !== undefined;
  const open = new Set<net.Socket>();
  let release: (handle: string) => Promise<unknown> = async () => {};
  // Releases under way. A request waits for them before it is relayed (up to RELEASE_WAIT_MS: a stuck call must
  // not hold the listener), so a client that closes its streams and opens new ones at once finds their places
  // free: its close reached this listener before its new request did.
  const releasing = new Set<Promise<unknown>>();
  const released = (handle: string) => {
    const call = release(handle).catch((error: unknown) =>
      console.error(
        `${name}: a closed log stream's place was not freed at once (it is at its next ` +
          `write): ${(error as Error).message}`,
      ),
    );
    const done: Promise<unknown> = Promise.race([
      call,
      new Promise((resolve) => setTimeout(resolve, RELEASE_WAIT_MS).unref()),
    ]).finally(() => releasing.delete(done));
    releasing.add(done);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const peer = normalisePeerAddress(req.socket.remoteAddress);
    // RFC 9112 §3.2 (Node's own check answered an empty 400, no problem details).
    if (req.httpVersionMinor === 1 && req.headers.host === undefined) {
      drain(req);
      res.shouldKeepAlive = false;
      return problem(req, res, 400, "an HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2)", secure);
    }
    if ((req.url ?? "").length > MAX_TARGET_BYTES) {
      drain(req);
      return problem(req, res, 414, `the request target exceeds ${MAX_TARGET_BYTES} bytes`, secure);
    }
    // Node's parser reads nothing after a request asking to upgrade: its answer closes the connection.
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    // A body declared past the largest cap is refused before anything is relayed: relayed, workerd answers 413
    // and resets the connection at once, and the reset could overtake the answer (the client saw a 502).
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
      drain(req);
      return problem(req, res, 413, `request body exceeds ${MAX_BODY_BYTES} bytes`, secure);
    }
    void Promise.all([target, ...releasing]).then(([to]) => {
      if (req.destroyed) return;
      const bodiless =
        (req.headers["content-length"] === undefined || req.headers["content-length"] === "0") &&
        req.headers["transfer-encoding"] === undefined;
      if (bodiless) relayBodiless(req, res, to, peer);
      else relayWithBody(req, res, to, peer);
    });
  };

  /** A request without a body, on one of the pool's kept-alive connections (upstream-pool.ts). */
  const relayBodiless = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    to: { host: string; port: number },
    peer: string,
  ) => {
    const head = requestHead(req, peer, name);
    // The handle of the log stream this answer is, if it is one.
    let stream: string | undefined;
    let sent = false;
    const exchange = pool.exchange(to, head, req.method === "HEAD", {
      head({ status, message, rawHeaders }) {
        stream = headerValue(rawHeaders, STREAM_HANDLE_HEADER);
        res.writeHead(status, message, responseHeaders(rawHeaders));
      },
      body(chunk) {
        sent = true;
        return res.write(chunk);
      },
      // Event streams: the head goes out before the first event does.
      waiting() {
        if (res.headersSent && !sent) {
          sent = true;
          res.flushHeaders();
        }
      },
      end: () => res.end(),
      // The appliance went away before answering: 502; while answering: the client's response is cut too.
      fail: (_error, answered) =>
        answered
          ? res.destroy()
          : problem(req, res, 502, "the appliance did not answer; it may be starting or stopping", secure),
    });
    res.on("drain", () => exchange.resume());
    // A client that leaves (closing an event stream) ends the relayed request too, and frees the stream's place.
    res.on("close", () => {
      if (res.writableFinished) return;
      exchange.cancel();
      if (stream !== undefined) released(stream);
    });
  };

  /**
   * A request with a body, relayed as it arrives on a connection of its own: it could not be replayed on a fresh
   * connection had a kept-alive one been reset under it, and its connection survives workerd's reset after an
   * early answer (`uploadConnection`).
   */
  const relayWithBody = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    { host, port: upstreamPort }: { host: string; port: number },
    peer: string,
  ) => {
    const upstream = http.request({
      host,
      port: upstreamPort,
      method: req.method,
      path: req.url,
      headers: relayedHeaders(req, peer, name),
      createConnection: () => uploadConnection(host, upstreamPort),
    });
    // Once the body stops being relayed (answered early, or over the cap) the rest is read and dropped.
    let relaying = true;
    let relayed = 0;
    const stopRelaying = () => {
      relaying = false;
      drain(req);
    };
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders(answer.rawHeaders));
      res.flushHeaders();
      answer.on("error", () => res.destroy());
      if (req.complete) {
        answer.pipe(res);
        return;
      }
      // Answered before the body was all sent (a 413, a 401): the upstream connection, whose request
      // never finished, is not reused, and the client's answer ends once its body is drained.
      stopRelaying();
      answer.pipe(res, { end: false });
      answer.on("end", () => {
        upstream.destroy();
        endAfterBody(req, res);
      });
    });
    // The appliance went away before answering: 502; while answering: the client's response is cut too.
    upstream.on("error", () => {
      // Once relaying stopped the client's answer is settled (the listener's 413, or an early answer piped
      // on its own): the upstream was cut on purpose, and its "socket hang up" must not cut the answer.
      if (!relaying) return;
      stopRelaying();
      problem(req, res, 502, "the appliance did not answer; it may be starting or stopping", secure);
    });
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on("data", (chunk: Buffer) => {
      if (!relaying) return;
      relayed += chunk.length;
      if (relayed > MAX_BODY_BYTES) {
        // The appliance would answer a 413 itself, but workerd resets a connection whose body is
        // still arriving, and the reset can overtake the answer; so a body past the appliance's
        // largest cap is answered here, with the Worker's own problem.
        stopRelaying();
        upstream.destroy();
        problem(req, res, 413, `request body exceeds ${MAX_BODY_BYTES} bytes`, secure);
        return;
      }
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once("drain", () => relaying && req.resume());
      }
    });
    req.on("end", () => relaying && upstream.end());
  };

  /**
   * A request asking to upgrade: Node reads nothing after its head (`head`, what came with it, is
   * the client's), so the connection is answered by hand and then closed, unless the request is
   * the live channel's and the appliance answers 101: only then are the two sockets joined.
   */
  const onUpgrade = (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    // Node stopped parsing at the head: the request has no body it will ever read, so it ends here, and it
    // is answered like any other, on a response that closes the connection when it is done.
    req.complete = true;
    req.push(null);
    const answer = () => {
      const res = new http.ServerResponse(req);
      res.assignSocket(socket);
      res.shouldKeepAlive = false;
      res.on("finish", () => socket.end());
      return res;
    };
    if (!isLiveUpgrade(req)) return onRequest(req, answer());
    const peer = normalisePeerAddress(socket.remoteAddress);
    void target.then(({ host, port: upstreamPort }) => {
      if (socket.destroyed) return;
      const headers = [...relayedHeaders(req, peer, name), "Connection", "Upgrade", "Upgrade", "websocket"];
      const upstream = http.request({ host, port: upstreamPort, method: "GET", path: req.url, headers, agent: false });
      upstream.on("upgrade", (switched, upstreamSocket: net.Socket, upstreamHead: Buffer) => {
        // The appliance answered 101: from now on the connection is the WebSocket's, relayed byte for byte.
        socket.write(
          `HTTP/1.1 101 ${switched.statusMessage ?? "Switching Protocols"}\r\n${headLines(switched.rawHeaders)}\r\n`,
        );
        if (upstreamHead.length > 0) socket.write(upstreamHead);
        if (head.length > 0) upstreamSocket.write(head);
        upstreamSocket.setNoDelay(true);
        joinSockets(socket, upstreamSocket);
      });
      // Any other answer (a refusal): relayed, then the connection closed; whatever the client sent after its request
      // is never read.
      upstream.on("response", (refused) => {
        const res = answer();
        res.writeHead(refused.statusCode ?? 502, refused.statusMessage, responseHeaders(refused.rawHeaders));
        refused.pipe(res);
      });
      upstream.on("error", () =>
        problem(req, answer(), 502, "the appliance did not answer; it may be starting or stopping", secure),
      );
      upstream.end();
    });
  };

  const server: http.Server = secure
    ? https.createServer(
        {
          key: options.key,
          cert: options.cert,
          ALPNProtocols: ["http/1.1"],
          handshakeTimeout: limits.headersTimeoutMs,
          ...serverOptions(limits),
          requireHostHeader: false,
        },
        onRequest,
      )
    : http.createServer({ ...serverOptions(limits), requireHostHeader: false }, onRequest);
  // Relaying an upgrade as a byte stream whatever the appliance answered let a client's later requests on the
  // connection reach workerd with its own X-BNG-Peer-Address (issue #22): onUpgrade joins the sockets only
  // for the live channel and only on a 101; every other upgrade request is answered as an ordinary one
  // (RFC 9110 §7.8 lets a server ignore Upgrade) and its connection closed.
  server.on("upgrade", onUpgrade);
  // No client address holds more than its share of the listener's connections (listener-limits.ts).
  const shares = new ClientShares(limits.maxConnectionsPerClient);
  /** Every accepted connection: closed at once past its address's share, else kept track of; whether it was kept. */
  const track = (socket: net.Socket): boolean => {
    if (!shares.admit(normalisePeerAddress(socket.remoteAddress), socket)) {
      socket.destroy();
      return false;
    }
    socket.setNoDelay(true);
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    return true;
  };
  // Over HTTPS the port also takes the ACME CA's plain-HTTP challenge fetch (launcher/acme-http.ts).
  const appliance = { name, address, port, hostname: options.hostname };
  const front: net.Server =
    server instanceof https.Server ? acceptAcmeHttp(server, target, track, appliance, limits) : server;
  if (front === server) server.on("connection", track);
  front.maxConnections = limits.maxConnections;
  // A client that rejects the self-signed certificate aborts the handshake;
  // that is expected and not worth a log line.
  server.on("tlsClientError", () => {});
  server.on("clientError", (error: NodeJS.ErrnoException, socket: net.Socket) => answerUnparsed(error, socket, secure));

  await new Promise<void>((resolve, reject) => {
    front.once("error", (error) => reject(describeListenError(error, name, address, port)));
    front.listen({ host: address, port, exclusive: true }, () => resolve());
  });

  return {
    setTarget(host, upstreamPort) {
      resolveTarget({ host, port: upstreamPort });
    },
    releaseStreamsWith(given) {
      release = given;
    },
    useCertificate(key, cert) {
      if (server instanceof https.Server) server.setSecureContext({ key, cert });
    },
    close() {
      // The streams the shutdown cuts are not released one by one: Miniflare is about to stop.
      release = async () => {};
      return new Promise<void>((resolve) => {
        front.close(() => void Promise.allSettled([...releasing]).then(() => resolve()));
        for (const socket of open) socket.destroy();
        pool.close();
      });
    },
  };
}
