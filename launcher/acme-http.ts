/**
 * The ACME CA's way in on an HTTPS listener. HTTP-01 validation (RFC 8555
 * §8.3) is a plain-HTTP GET of `/.well-known/acme-challenge/{token}`; the
 * local fleet has one port per appliance, so that port takes both: a
 * connection whose first byte opens a TLS handshake goes to the TLS server,
 * anything else is read as plain HTTP, where only the challenge path is
 * relayed to the appliance and every other request is redirected to https.
 * (Deployed, Cloudflare's edge owns ports 80 and 443; see docs/decisions.md, ACME.)
 */
import http from "node:http";
import net from "node:net";
import type tls from "node:tls";
import { CF_BLOB_HEADER, PEER_ADDRESS_HEADER, normalisePeerAddress } from "../src/http/client-address.ts";
import { APPLIANCE_HEADER } from "../src/fleet/listener.ts";
import { WIRING_HEADER } from "../src/fleet/wiring.ts";
import { WIRING_SECRET } from "./wiring.ts";
import { withSecurity } from "../src/http/headers.ts";
import { serverOptions, type ListenerLimits } from "./listener-limits.ts";
import { socketAddress } from "./public-sockets.ts";
import { answersToHost } from "../fleet-config/schema.ts";

/** A TLS record of type handshake (RFC 8446 §5.1) starts every ClientHello. */
const TLS_HANDSHAKE = 0x16;
const CHALLENGE_PATH = /^\/\.well-known\/acme-challenge\/[^/?#]+$/;

/** Answers plain-HTTP requests: the challenge relayed to the appliance, the rest redirected to https. */
function plainServer(
  target: Promise<{ host: string; port: number }>,
  appliance: Appliance,
  limits: ListenerLimits,
): http.Server {
  return http.createServer(serverOptions(limits), (request, response) => {
    const path = request.url ?? "/";
    if ((request.method === "GET" || request.method === "HEAD") && CHALLENGE_PATH.test(path)) {
      void target.then(({ host, port }) => {
        // As on the HTTPS side, the peer address is the connection's and the appliance the port's, never what the
        // client claims.
        // Nor the cf object Miniflare's socket would read from the client's header.
        const { [CF_BLOB_HEADER]: _cf, [WIRING_HEADER]: _wiring, ...clientHeaders } = request.headers;
        const peer = normalisePeerAddress(request.socket.remoteAddress);
        const headers = {
          ...clientHeaders,
          connection: "close",
          [PEER_ADDRESS_HEADER]: peer,
          [APPLIANCE_HEADER]: appliance.name,
          [WIRING_HEADER]: WIRING_SECRET,
        };
        const upstream = http.request({ host, port, method: request.method, path, headers }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        });
        upstream.on("error", () => response.destroy());
        upstream.end();
      });
      return;
    }
    // Plain HTTP carries no credentials here: everything else belongs on https (permanent, method kept).
    // The Worker's header rule, without HSTS: a browser ignores it over plain HTTP (RFC 6797 §7.2).
    const location = `${httpsOrigin(request.headers.host, appliance)}${path}`;
    response.writeHead(308, withSecurity({ location, "content-length": "0" }, false));
    response.end();
  });
}

/** The appliance a port serves: its name, where it listens and the host name it answers to besides its address. */
export type Appliance = { name: string; address: string; port: number; hostname?: string | undefined };

/**
 * Where the plain-HTTP redirect sends a client: the https origin it asked for when its Host is one this appliance
 * answers to (fleet-config/schema.ts, answersToHost), else the listener's own (issue #47: a Host copied into
 * Location sent a client wherever its request claimed).
 */
function httpsOrigin(host: string | undefined, appliance: Appliance): string {
  const asked = host === undefined ? null : URL.parse(`https://${host}`);
  const accepted = asked !== null && asked.pathname === "/" && answersToHost(appliance.hostname, asked.hostname);
  if (accepted) return asked.origin;
  return `https://${socketAddress(appliance.address, appliance.port)}`;
}

/**
 * A server for appliance `appliance`'s port that hands TLS connections to
 * `secure` and plain-HTTP ones to the challenge relay. `onSocket` sees every
 * accepted socket (so close() can drop them), and closes one past its client's
 * share (false). A connection that sends nothing is closed after the headers
 * timeout, as the servers behind close one that stalls later (`limits`).
 */
export function acceptAcmeHttp(
  secure: tls.Server,
  target: Promise<{ host: string; port: number }>,
  onSocket: (socket: net.Socket) => boolean,
  appliance: Appliance,
  limits: ListenerLimits,
): net.Server {
  const plain = plainServer(target, appliance, limits);
  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    if (!onSocket(socket)) return;
    socket.on("error", () => socket.destroy());
    socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy());
    socket.once("readable", () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) return void socket.destroy();
      socket.setTimeout(0);
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? secure : plain).emit("connection", socket);
    });
    socket.resume();
    socket.pause();
  });
  // Node checks its servers' headers timeouts from 'listening' to 'close': the servers behind the front never
  // listen themselves, so they follow its lifecycle (without this, a connection handed over stalls for ever).
  for (const server of [secure, plain])
    front.on("listening", () => server.emit("listening")).on("close", () => server.close());
  return front;
}
