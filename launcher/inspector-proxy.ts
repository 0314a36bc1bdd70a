/**
 * BNG_INSPECTOR_PORT: the only way to workerd's V8 inspector. workerd's own
 * inspector answers any Host and any Origin on a path anyone can guess
 * (`/core:user:bngfleet`), so a web page in a browser on this machine could
 * drive the isolate and read the fleet secret and every password it holds.
 * workerd's inspector therefore sits on a random loopback port that only this
 * proxy talks to, and the proxy, on 127.0.0.1 at the port asked for, admits
 * what a DevTools client sends and nothing a web page can (as wrangler's and
 * Miniflare's inspector proxies do, stricter):
 * - `Host` must name loopback with this port (127.0.0.1, localhost, [::1]):
 *   a DNS-rebound name (`evil.example` resolving to 127.0.0.1) is refused;
 * - an `Origin`, when present, must be DevTools' own (`devtools://devtools`):
 *   Chrome sends the page's origin on every WebSocket it opens, while DevTools,
 *   chrome://inspect, IDEs and Node's WebSocket send DevTools' or none;
 * - the debugger's WebSocket path is random per launch, found only in the
 *   `/json/list` this proxy serves (which no other origin can read: no CORS).
 *
 * What the proxy cannot do (issue #47): keep other users of this machine off
 * workerd's own port. Any local process can open a loopback TCP port, and
 * workerd offers nothing narrower: given a Unix socket (`--inspector-addr=
 * unix:<path>`, which a directory of mode 0700 would close to others) workerd
 * 1.20261023.1 opens it but then serves none of its sockets, its start held
 * (measured 2026-12-02). So the launcher says so when the inspector is on.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { LaunchError } from "./config.ts";
import { joinSockets } from "./join-sockets.ts";
import { withSecurity } from "../src/http/headers.ts";
import { statusTitle } from "../src/http/problem.ts";

/** The loopback names a DevTools client may use for this port. */
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];
/** Chrome's bundled DevTools (and its older scheme) open their WebSocket with this origin. */
const DEVTOOLS_ORIGINS = new Set(["devtools://devtools", "chrome-devtools://devtools"]);
/** The WebSocket handshake headers the runtime needs; nothing else of the client's is passed on. */
const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol"];

export type InspectorProxy = { close(): Promise<void> };

/** What the launcher says once workerd's inspector is up on `runtimePort`: who else can reach it. */
export const runtimeInspectorNotice = (runtimePort: number, proxyPort: number): string =>
  `BNG_INSPECTOR_PORT: DevTools at 127.0.0.1:${proxyPort}. ` +
  `workerd's own inspector listens on 127.0.0.1:${runtimePort} without any check, ` +
  "and every user of this machine can open it and read every secret the fleet holds " +
  "(workerd offers no socket only this user could open). " +
  "Leave BNG_INSPECTOR_PORT unset where others share this machine.";

type Target = {
  id: string;
  webSocketDebuggerUrl: string;
  devtoolsFrontendUrl?: string;
  devtoolsFrontendUrlCompat?: string;
};

const problem = (status: number, detail: string) => ({
  type: "about:blank",
  title: statusTitle(status),
  status,
  detail,
});

/** Refuses a WebSocket upgrade: a whole problem answer on the raw connection, which it then closes. */
function refuseUpgrade(client: net.Socket, status: number, detail: string): void {
  const body = JSON.stringify(problem(status, detail));
  const headers = withSecurity(
    {
      "content-type": "application/problem+json",
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    },
    false,
  );
  client.end(
    `HTTP/1.1 ${status} ${statusTitle(status)}\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")}\r\n${body}`,
  );
}

/** Why a request may not reach the inspector, or null when it may. */
function refusal(req: http.IncomingMessage, port: number): { status: number; detail: string } | null {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!LOOPBACK_HOSTS.some((name) => host === `${name}:${port}`)) {
    return {
      status: 403,
      detail:
        `Host must be 127.0.0.1:${port}, localhost:${port} or [::1]:${port} (the ` +
        `inspector takes no other name: DNS rebinding)`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !DEVTOOLS_ORIGINS.has(origin)) {
    return {
      status: 403,
      detail:
        `Origin ${origin} may not use the inspector: only DevTools (devtools://devtools) ` +
        `or a client sending no Origin`,
    };
  }
  return null;
}

/**
 * Listens on 127.0.0.1:`port` in front of workerd's inspector at `runtime`
 * (a loopback port, known once workerd is up), serving `/json/list`,
 * `/json/version` and the Worker's debugger. Bound before workerd starts, so a
 * busy port fails the launch at once.
 */
export async function listenInspectorProxy(port: number, runtime: Promise<number>): Promise<InspectorProxy> {
  // Said plainly, once workerd's port is known (a launch that stops before never knows it).
  runtime.then(
    (at) => console.warn(runtimeInspectorNotice(at, port)),
    () => {},
  );
  const upgraded = new Set<net.Socket>();
  /** Random path → the runtime's path, for each of the fleet Worker's targets (fixed for this launch). */
  const paths = new Map<string, string>();
  const secretPath = new Map<string, string>();
  const pathFor = (runtimePath: string) => {
    let secret = secretPath.get(runtimePath);
    if (secret === undefined) {
      secret = `/${randomBytes(24).toString("base64url")}`;
      secretPath.set(runtimePath, secret);
      paths.set(secret, runtimePath);
    }
    return secret;
  };

  /**
   * The runtime's targets for the fleet's Worker (not Miniflare's own), with their debugger addresses rewritten to this
   * proxy's.
   */
  const list = async (host: string): Promise<Target[]> => {
    const targets = (await (await fetch(`http://127.0.0.1:${await runtime}/json/list`)).json()) as Target[];
    return targets
      .filter((t) => t.id.startsWith("core:user:"))
      .map((t) => {
        const where = `${host}${pathFor(new URL(t.webSocketDebuggerUrl).pathname)}`;
        // workerd's DevTools links carry `ws=<host>/` (no path): the front end opens whatever `ws` names.
        const frontend = (url: string | undefined) => url?.replace(/([?&]ws=)[^&]*/, `$1${where}`);
        return {
          ...t,
          webSocketDebuggerUrl: `ws://${where}`,
          devtoolsFrontendUrl: frontend(t.devtoolsFrontendUrl),
          devtoolsFrontendUrlCompat: frontend(t.devtoolsFrontendUrlCompat),
        };
      });
  };

  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown, type = "application/json") => {
      res.writeHead(status, withSecurity({ "content-type": type }, false)).end(JSON.stringify(body));
    };
    const refused = refusal(req, port);
    if (refused) return answer(refused.status, problem(refused.status, refused.detail), "application/problem+json");
    const path = (req.url ?? "/").split("?")[0];
    const reply =
      path === "/json" || path === "/json/list"
        ? list(req.headers.host!)
        : path === "/json/version"
          ? runtime.then((at) => fetch(`http://127.0.0.1:${at}/json/version`)).then((r) => r.json())
          : null;
    if (reply === null)
      return answer(
        404,
        problem(404, "the inspector serves /json/list, /json/version and the debugger paths /json/list names"),
        "application/problem+json",
      );
    reply.then(
      (body) => answer(200, body),
      () => answer(502, problem(502, "workerd's inspector did not answer"), "application/problem+json"),
    );
  });

  server.on("upgrade", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    // Nothing the client sends reaches the runtime before it has switched protocols.
    client.pause();
    client.on("error", () => client.destroy());
    const refused = refusal(req, port);
    if (refused) return refuseUpgrade(client, refused.status, refused.detail);
    const runtimePath = paths.get((req.url ?? "").split("?")[0]!);
    if (runtimePath === undefined)
      return refuseUpgrade(client, 404, "no such debugger: take its address from /json/list");
    const headers: Record<string, string> = { connection: "Upgrade", upgrade: "websocket" };
    for (const name of HANDSHAKE) if (typeof req.headers[name] === "string") headers[name] = req.headers[name];
    void runtime.then((runtimePort) =>
      relay(client, head, http.request({ host: "127.0.0.1", port: runtimePort, path: runtimePath, headers })),
    );
  });

  /** Pipes the client to the runtime once, and only if, the runtime switched protocols. */
  const relay = (client: net.Socket, head: Buffer, upstream: http.ClientRequest) => {
    upstream.on("upgrade", (answer, socket, upgradeHead) => {
      upgraded.add(client).add(socket);
      const lines = [`HTTP/1.1 101 Switching Protocols`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      client.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (upgradeHead.length > 0) client.write(upgradeHead);
      if (head.length > 0) socket.write(head);
      joinSockets(client, socket);
      client.on("close", () => upgraded.delete(client));
      socket.on("close", () => upgraded.delete(socket));
    });
    // Anything but 101 ends the client's connection: its later bytes are never read as requests.
    upstream.on("response", (answer) => {
      answer.resume();
      refuseUpgrade(client, 502, `workerd's inspector refused the debugger (${answer.statusCode})`);
    });
    upstream.on("error", () => refuseUpgrade(client, 502, "workerd's inspector did not answer"));
    upstream.end();
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new LaunchError(
              `BNG_INSPECTOR_PORT: port ${port} on 127.0.0.1 is already in use (with ` +
                `BNG_SHARDS, process k takes this port + k)`,
            )
          : error,
      ),
    );
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      }),
  };
}
