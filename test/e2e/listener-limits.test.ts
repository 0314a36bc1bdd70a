/**
 * The public listeners' own limits and answers, against a stand-in for
 * workerd: a connection that stalls before its headers are in (nothing sent,
 * half a request line, half a TLS handshake) or sits idle between requests is
 * closed; past the connection cap new connections are closed as they arrive;
 * and the listener's own answers (413, 502, the plain-HTTP redirect) carry the
 * Worker's security headers, HSTS only over HTTPS. Timeouts are shortened here;
 * the test waits for the close, never for a time.
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCertificate } from "../../launcher/certificates.ts";
import { listenFrontend, type Frontend } from "../../launcher/listeners.ts";
import { LISTENER_LIMITS, type ListenerLimits } from "../../launcher/listener-limits.ts";
import { HSTS } from "../../src/http/headers.ts";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";
import { closedPort } from "../closed-port.ts";

const SHORT: ListenerLimits = {
  headersTimeoutMs: 300,
  keepAliveTimeoutMs: 300,
  maxConnections: 64,
  maxConnectionsPerClient: 64,
};
let upstream: http.Server;
const frontends: Frontend[] = [];
const ports = { http: 0, https: 0, capped: 0, down: 0 };
let tlsPair: { key: string; cert: string } | null = null;
let upstreamPort = 0;

async function frontend(
  limits: ListenerLimits,
  tlsPair: { key: string; cert: string } | null,
  targetPort: number,
): Promise<number> {
  const port = await freePortBase(1);
  const front = await listenFrontend({ name: "edge-1", address: "127.0.0.1", port, limits, ...(tlsPair ?? {}) });
  front.setTarget("127.0.0.1", targetPort);
  frontends.push(front);
  return port;
}

beforeAll(async () => {
  // Heads as large as workerd takes (200 KB and more): Node's default 16 KiB would answer 431 in the listener's stead.
  upstream = http.createServer({ maxHeaderSize: 1024 * 1024 }, (_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  );
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const up = (upstream.address() as net.AddressInfo).port;
  const pair = await generateCertificate({ name: "edge-1", address: "127.0.0.1", hostname: undefined });
  tlsPair = pair;
  upstreamPort = up;
  ports.http = await frontend(SHORT, null, up);
  ports.https = await frontend(SHORT, pair, up);
  ports.capped = await frontend(
    { headersTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000, maxConnections: 2, maxConnectionsPerClient: 2 },
    null,
    up,
  );
  ports.down = await frontend(SHORT, pair, await closedPort());
});

afterAll(async () => {
  await Promise.all(frontends.map((f) => f.close()));
  await new Promise((resolve) => upstream.close(resolve));
});

/**
 * A raw connection (TLS over `https`) collecting what it receives; `closed` resolves with it once the listener closes
 * the connection.
 */
function connect(mode: "http" | "https", port: number): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    let received = "";
    const socket: net.Socket =
      mode === "https"
        ? tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false })
        : net.connect(port, "127.0.0.1");
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    const closed = new Promise<string>((done) => socket.on("close", () => done(received)));
    socket.once("error", () => {});
    socket.once(mode === "https" ? "secureConnect" : "connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

describe.each(["http", "https"] as const)("a stalled connection over %s", (mode) => {
  it("is closed when it sends half a request line and no more (slowloris)", async () => {
    const { socket, closed } = await connect(mode, ports[mode]);
    socket.write("GET /api/v1/sys");
    expect(await closed).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it("is closed when it sends nothing at all", async () => {
    const { closed } = await connect(mode, ports[mode]);
    expect(await closed).toBe("");
  });

  it("is closed when it sits idle after a request (keep-alive timeout)", async () => {
    const { socket, closed } = await connect(mode, ports[mode]);
    socket.write("GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/^connection: keep-alive$/im);
  });
});

it("closes half a plain-HTTP request line on an HTTPS port (the ACME challenge's way in)", async () => {
  const { socket, closed } = await connect("http", ports.https);
  socket.write("GET /.well-known/acme-chal");
  // Closed with Node's 408 or without a word, never served.
  expect(await closed).not.toMatch(/^HTTP\/1\.1 [23]/);
});

it("closes half a TLS handshake", async () => {
  const socket = net.connect(ports.https, "127.0.0.1");
  socket.resume();
  const closed = new Promise((resolve) => socket.on("close", resolve));
  socket.on("error", () => {});
  // A ClientHello's record header and a few bytes of it, and then silence.
  socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]));
  await closed;
  expect(socket.destroyed).toBe(true);
});

it("closes connections past its cap as they arrive, and serves those under it", async () => {
  const held = [await connect("http", ports.capped), await connect("http", ports.capped)];
  // Both accepted and served: the listener counts them.
  for (const { socket } of held) socket.write("GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
  await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once("data", resolve))));
  const third = await connect("http", ports.capped);
  third.socket.write("GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
  expect(await third.closed).toBe("");
  for (const { socket } of held) expect(socket.destroyed).toBe(false);
  for (const { socket } of held) socket.destroy();
});

describe.each(["http", "https"] as const)("one client's connections, over %s, with the shipped limits", (mode) => {
  it("300 idle connections from one client leave another client's health answered 200 (issue #47)", {
    timeout: 60_000,
  }, async () => {
    const port = await frontend(LISTENER_LIMITS, mode === "https" ? tlsPair : null, upstreamPort);
    /** A connection from `from` (127.0.0.1 is the hog, 127.0.0.2 the other client), open or closed by the listener. */
    const open = (from: string) =>
      new Promise<{ socket: net.Socket; closed: Promise<void> }>((resolve) => {
        const socket = net.connect({ port, host: "127.0.0.1", localAddress: from });
        const closed = new Promise<void>((done) => socket.on("close", () => done()));
        socket.on("error", () => {});
        socket.once("connect", () => resolve({ socket, closed }));
        socket.once("close", () => resolve({ socket, closed }));
      });
    const hog = await Promise.all(Array.from({ length: 300 }, () => open("127.0.0.1")));
    // What the listener closed of them: past the address's share (64), as they arrived, never left hanging.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await ask(`${mode}://127.0.0.1:${port}/api/v1/system/health`, { localAddress: "127.0.0.2" }).catch(
      (error: Error) => error,
    );
    expect(health instanceof Error ? health.message : health.statusCode).toBe(200);
    expect(hog.filter(({ socket }) => !socket.destroyed).length).toBe(LISTENER_LIMITS.maxConnectionsPerClient);
    for (const { socket } of hog) socket.destroy();
  });
});

/** One request over HTTP(S) with a fresh connection; the answer's status and headers. */
function ask(
  url: string,
  options: http.RequestOptions = {},
  body?: string,
): Promise<http.IncomingMessage & { text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(
      url,
      { agent: false, rejectUnauthorized: false, ...options },
      (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (c) => (text += c))
          .on("end", () => resolve(Object.assign(res, { text })));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(["http", "https"] as const)("a request the listener cannot read, over %s", (mode) => {
  /** The whole exchange of one raw request, once the listener has closed the connection or the client gave up. */
  const exchange = async (head: string) => {
    const { socket, closed } = await connect(mode, ports[mode]);
    socket.write(head);
    setTimeout(() => socket.end(), 2000).unref();
    return closed;
  };
  const problemOf = (received: string) =>
    JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4)) as { status: number; title: string };

  it("a head of 100 KB (a large sign-on cookie) is relayed and served", async () => {
    const received = await exchange(
      `GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\ncookie: ` +
        `sso=${"a".repeat(100_000)}\r\nconnection: close\r\n\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("a head past 128 KiB is answered 431 (RFC 6585) as problem details, then the connection closed", async () => {
    const received = await exchange(
      `GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\ncookie: sso=${"a".repeat(140_000)}\r\n\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(received).toMatch(/^content-type: application\/problem\+json$/im);
    expect(received).toMatch(/^x-content-type-options: nosniff$/im);
    expect(problemOf(received)).toMatchObject({ status: 431, title: "Request Header Fields Too Large" });
  });

  it(
    "an HTTP/1.1 request without Host is answered 400 (RFC 9112, section 3.2) as " +
      "problem details, then the connection closed",
    async () => {
      const received = await exchange("GET /api/v1/system/health HTTP/1.1\r\n\r\n");
      expect(received).toMatch(/^HTTP\/1\.1 400 /);
      expect(received).toMatch(/^content-type: application\/problem\+json$/im);
      expect(received).toMatch(/^connection: close$/im);
      expect(problemOf(received)).toMatchObject({ status: 400, title: "Bad Request" });
    },
  );

  it("a request line that is not HTTP is answered 400 as problem details, then the connection closed", async () => {
    const received = await exchange("HELLO THERE\r\n\r\n");
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received).toMatch(/^connection: close$/im);
    expect(problemOf(received)).toMatchObject({ status: 400, title: "Bad Request" });
  });
});

describe("the listener's own answers carry the Worker's security headers", () => {
  const oversized = {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
  };

  it("a 413 over HTTPS: nosniff, no-store and HSTS", async () => {
    const res = await ask(`https://127.0.0.1:${ports.https}/api/v1/auth/login`, oversized);
    expect(res.statusCode).toBe(413);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["strict-transport-security"]).toBe(HSTS);
  });

  it("a 413 over plain HTTP: nosniff, and no HSTS", async () => {
    const res = await ask(`http://127.0.0.1:${ports.http}/api/v1/auth/login`, oversized);
    expect(res.statusCode).toBe(413);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("a 502 when the appliance is down", async () => {
    const res = await ask(`https://127.0.0.1:${ports.down}/api/v1/system/health`);
    expect(res.statusCode).toBe(502);
    expect(JSON.parse(res.text)).toMatchObject({ status: 502, title: "Bad Gateway" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBe(HSTS);
  });

  it("the plain-HTTP redirect on an HTTPS port: nosniff, and no HSTS (a browser ignores it over HTTP)", async () => {
    const res = await ask(`http://127.0.0.1:${ports.https}/api/v1/system/health`);
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe(`https://127.0.0.1:${ports.https}/api/v1/system/health`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it(
    "the plain-HTTP redirect goes to a name the appliance answers to, else to its " +
      "own address, never to a client's Host (issue #47)",
    async () => {
      const to = async (host: string) =>
        (await ask(`http://127.0.0.1:${ports.https}/api/v1/system/health`, { headers: { host } })).headers.location;
      expect(await to(`localhost:${ports.https}`)).toBe(`https://localhost:${ports.https}/api/v1/system/health`);
      expect(await to("evil.example")).toBe(`https://127.0.0.1:${ports.https}/api/v1/system/health`);
      expect(await to("evil.example/phish?")).toBe(`https://127.0.0.1:${ports.https}/api/v1/system/health`);
    },
  );
});
