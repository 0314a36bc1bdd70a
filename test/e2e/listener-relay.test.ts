/**
 * The listener's relay against a stand-in for workerd that resets a kept-alive
 * connection as the next request arrives on it (what workerd does to a
 * connection it closed meanwhile): a request without a body is sent again on
 * a fresh connection and answered, never a 502; a request with a body is
 * never put on a reused connection. And a client still sending its body when
 * the appliance answers early (or goes away) reads that answer (or a 502)
 * instead of a reset connection.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenFrontend, type Frontend } from "../../launcher/listeners.ts";
import { WIRING_SECRET } from "../../launcher/wiring.ts";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";

let upstream: net.Server;
let frontend: Frontend;
let base = "";
/** Per upstream connection, how many requests it has seen. */
const served: number[] = [];
/** Every request head the stand-in read, in order. */
const heads: string[] = [];

beforeAll(async () => {
  // Answers the first request of every connection (keep-alive) and resets the connection at its second.
  upstream = net.createServer((socket) => {
    const index = served.push(0) - 1;
    // The listener cuts connections it gave up on; that is not the stand-in's error.
    socket.on("error", () => {});
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
        const head = buffered.slice(0, end);
        // Under /early/ the stand-in acts on the headers alone, as workerd does for a refused upload left
        // unread: it answers 401 and resets the connection at once (the relay's next write fails, and the
        // answer must still be read), or resets it without an answer (/early/reset).
        if (head.startsWith("POST /early/answer")) {
          const body = JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401 });
          socket.write(
            `HTTP/1.1 401 Unauthorized\r\ncontent-type: ` +
              `application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
            () => socket.resetAndDestroy(),
          );
          return;
        }
        if (head.startsWith("POST /early/reset")) return void socket.resetAndDestroy();
        // The live channel, as the appliance answers it: 101 and then an echo for the cookie `ok`, else a refusal.
        if (head.startsWith("GET /ui/live ")) {
          heads.push(head);
          buffered = buffered.slice(end + 4);
          if (/^cookie: ok$/im.test(head)) {
            socket.write(
              "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: " +
                "Upgrade\r\nsec-websocket-accept: stand-in\r\n\r\n",
            );
            socket.removeAllListeners("data");
            socket.on("data", (bytes) => socket.write(bytes));
            if (buffered.length > 0) socket.write(buffered);
            return;
          }
          const body = JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401 });
          socket.write(
            `HTTP/1.1 401 Unauthorized\r\ncontent-type: ` +
              `application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
          continue;
        }
        // Answers as workerd frames them, for the relay's own reader (launcher/response-reader.ts): a large chunked
        // body, one cut by a reset part-way, and an event stream whose head comes before its first event.
        if (head.startsWith("GET /answers/")) {
          buffered = buffered.slice(end + 4);
          answerAs(head.split(" ")[1]!, socket);
          continue;
        }
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        // As workerd does with a declared body past every cap: it resets the connection at once (its 413 may be lost).
        if (length > 1024 * 1024) {
          heads.push(head);
          return void socket.resetAndDestroy();
        }
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        heads.push(head);
        served[index]!++;
        if (served[index]! > 1) {
          socket.resetAndDestroy();
          return;
        }
        const body = JSON.stringify({ connection: index, method: head.split(" ")[0] });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: ` +
            `application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: ` +
            `keep-alive\r\n\r\n${body}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const port = await freePortBase(1);
  frontend = await listenFrontend({ name: "edge-1", address: "127.0.0.1", port });
  frontend.setTarget("127.0.0.1", (upstream.address() as net.AddressInfo).port);
  base = `http://127.0.0.1:${port}`;
});

/** The stand-in's framed answers (see above), each on a connection the relay may keep. */
function answerAs(target: string, socket: net.Socket): void {
  if (target === "/answers/large") {
    // 4 MiB in 64 KiB chunks, each byte its offset mod 251, so a lost, doubled or reordered piece shows.
    socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n");
    for (let offset = 0; offset < LARGE_BYTES; offset += 65_536) {
      const chunk = Buffer.from(Array.from({ length: 65_536 }, (_, i) => (offset + i) % 251));
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      socket.write("\r\n");
    }
    socket.write("0\r\n\r\n");
  } else if (target === "/answers/cut") {
    // Chunked, so only the relay's own handling could make the client's copy look complete (a closing chunk).
    socket.write(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nb\r\n{"partial":\r\n',
      () => setTimeout(() => socket.resetAndDestroy(), 100),
    );
  } else if (target === "/answers/stream") {
    socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
    streamEvent = () => socket.write("d\r\ndata: first\n\n\r\n0\r\n\r\n");
  } else if (target === "/answers/burst") {
    // Two events in one write (the relay reads them at once), the third when the test asks for it.
    socket.write(
      "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: " +
        "chunked\r\n\r\nb\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n",
    );
    streamEvent = () => socket.write("d\r\ndata: three\n\n\r\n0\r\n\r\n");
  }
}
const LARGE_BYTES = 4 * 1024 * 1024;
/** Sends the event stream's one event: the test calls it once the client has the head. */
let streamEvent = () => {};

afterAll(async () => {
  await frontend.close();
  await new Promise((resolve) => upstream.close(resolve));
});

/** One request on a connection of its own from the client, so only the listener's upstream side reuses connections. */
function request(
  method: string,
  body?: string,
): Promise<{ status: number; json: { connection: number; method: string } | null }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v1/system/health`,
      {
        method,
        agent: false,
        headers:
          body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            json: res.headers["content-type"] === "application/json" ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the listener's relay to workerd", () => {
  it("sends a GET again on a fresh connection when its kept-alive one is reset before any answer", async () => {
    const first = await request("GET");
    expect(first).toEqual({ status: 200, json: { connection: 0, method: "GET" } });
    // The listener puts this one on connection 0, which the stand-in resets: the answer comes from connection 1.
    const second = await request("GET");
    expect(second).toEqual({ status: 200, json: { connection: 1, method: "GET" } });
    expect(served.slice(0, 2)).toEqual([2, 1]);
  });

  it(
    "sends it again on a fresh connection, not on another kept-alive one that " + "workerd may have closed as well",
    async () => {
      // Two requests at once leave two kept-alive connections in the pool, and the stand-in resets each at its next
      // request.
      const pair = await Promise.all([request("GET"), request("GET")]);
      expect(pair.map((r) => r.status)).toEqual([200, 200]);
      const before = served.length;
      const third = await request("GET");
      expect(third.status).toBe(200);
      // Put on one of the two, reset, then sent on a new connection: the other kept one is not tried.
      expect(third.json!.connection).toBe(before);
    },
  );

  it("never puts a request with a body on a reused connection", async () => {
    // A GET leaves a kept-alive connection in the listener's pool, which the stand-in resets at its next request.
    expect((await request("GET")).status).toBe(200);
    const before = served.length;
    const posted = await request("POST", JSON.stringify({ action: "advance-clock", seconds: 10 }));
    expect(posted.status).toBe(200);
    // A connection of its own: the stand-in saw a new connection, whose first request it was.
    expect(served.length).toBe(before + 1);
    expect(posted.json).toEqual({ connection: before, method: "POST" });
  });
});

/**
 * Sends a request with a `total`-byte body over a raw socket, one 64 KiB chunk per event-loop turn, and reads
 * the answer only once it has sent everything (as a simple client or a script does): a connection the listener
 * closes before the body is through fails the writes instead of handing over the answer.
 */
function streamBody(
  pathname: string,
  total: number,
  declared = total,
): Promise<{ status: number; contentType: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    const answer = () => {
      const [head = "", body = ""] = received.split("\r\n\r\n");
      return {
        status: Number(head.split(" ")[1]),
        contentType: /^content-type: *(.*)$/im.exec(head)?.[1],
        length: Number(/^content-length: *(\d+)$/im.exec(head)?.[1]),
        body,
      };
    };
    socket.on("data", (c) => {
      received += c.toString("latin1");
      // A client that sent only part of its declared body reads the answer once it is whole, then leaves.
      const { length, ...rest } = answer();
      if (total < declared && received.includes("\r\n\r\n") && Buffer.byteLength(rest.body) >= length) {
        socket.destroy();
        resolve(rest);
      }
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const { length: _, ...rest } = answer();
      resolve(rest);
    });
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ` +
        `application/json\r\ncontent-length: ${declared}\r\nconnection: close\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      if (sent >= total) return;
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      if (socket.write(piece)) setImmediate(pump);
      else socket.once("drain", pump);
    };
    pump();
  });
}

describe("a client still sending its body", () => {
  it("reads the appliance's early answer, not a reset connection", async () => {
    // Under the 1 MiB cap, so the answer is the appliance's and not the listener's own 413.
    const result = await streamBody("/early/answer", 15 * 64 * 1024);
    expect(result.status).toBe(401);
    expect(result.contentType).toBe("application/problem+json");
    expect(JSON.parse(result.body)).toMatchObject({ status: 401 });
  });

  it(
    "reads the listener's own 413 for a body declared past the cap, before anything " +
      "is relayed (never the 502 of workerd's reset)",
    async () => {
      const before = heads.length;
      const result = await streamBody("/api/v1/auth/login", 2 * 1024 * 1024);
      expect(result.status).toBe(413);
      expect(result.contentType).toBe("application/problem+json");
      expect(JSON.parse(result.body)).toMatchObject({
        status: 413,
        title: "Content Too Large",
        detail: "request body exceeds 1048576 bytes",
      });
      expect(heads.length).toBe(before);
    },
  );

  it("reads that 413 having sent only part of the declared body", async () => {
    const before = heads.length;
    const result = await streamBody("/api/v1/auth/login", 64 * 1024, 2 * 1024 * 1024);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ status: 413, title: "Content Too Large" });
    expect(heads.length).toBe(before);
  });

  it("reads a 502 problem when the appliance goes away mid-body, not a reset connection", async () => {
    const result = await streamBody("/early/reset", 15 * 64 * 1024);
    expect(result.status).toBe(502);
    expect(result.contentType).toBe("application/problem+json");
    expect(JSON.parse(result.body)).toMatchObject({ status: 502, title: "Bad Gateway" });
  });
});

describe("a request asking to upgrade (no route takes one)", () => {
  it(
    "is answered as any other and closes its connection: a request smuggled after it " + "never reaches the appliance",
    async () => {
      const before = heads.length;
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
      let received = "";
      socket.on("data", (c) => (received += c.toString("latin1")));
      const closed = new Promise((resolve) => socket.on("close", resolve));
      socket.write(
        "GET /api/v1/system/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: " +
          "Upgrade\r\nupgrade: websocket\r\nx-bng-wiring: forged\r\n\r\n" +
          ("POST /api/v1/auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\nx-bng-peer-address: " +
            "203.0.113.9\r\nx-bng-appliance: edge-2\r\ncontent-length: 0\r\n\r\n"),
      );
      await closed;
      const seen = heads.slice(before);
      expect(seen.length).toBeGreaterThan(0);
      for (const head of seen) {
        expect(head).toMatch(/^GET \/api\/v1\/system\/health /);
        expect(head).toMatch(/^x-bng-peer-address: 127\.0\.0\.1$/im);
        expect(head).toMatch(/^x-bng-appliance: edge-1$/im);
        expect(head).not.toContain("203.0.113.9");
        // The launcher's own wiring secret (issue #47), once, whatever the client sent under its name.
        expect(head.match(/^x-bng-wiring: .*$/gim)).toEqual([`x-bng-wiring: ${WIRING_SECRET}`]);
      }
      // One answer (the health GET's), after which the listener closed the connection.
      expect(received.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toMatch(/^connection: close$/im);
    },
  );
});

describe("the live channel's upgrade", () => {
  const upgrade = (cookie: string) =>
    `GET /ui/live HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: Upgrade\r\nupgrade: ` +
    `websocket\r\nsec-websocket-key: ` +
    `dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n` +
    `x-bng-peer-address: 203.0.113.9\r\nx-bng-appliance: edge-2\r\ncookie: ${cookie}\r\n\r\n`;

  it(
    "is refused by the appliance: the refusal is relayed, the connection closed, and " +
      "a request smuggled after it never reaches the appliance",
    async () => {
      const before = heads.length;
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
      let received = "";
      socket.on("data", (c) => (received += c.toString("latin1")));
      const closed = new Promise((resolve) => socket.on("close", resolve));
      socket.write(
        upgrade("none") +
          ("POST /api/v1/auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\nx-bng-peer-address: " +
            "203.0.113.9\r\nx-bng-appliance: edge-2\r\ncontent-length: 0\r\n\r\n"),
      );
      await closed;
      const seen = heads.slice(before);
      // The upgrade request alone reached the appliance, with the listener's own peer and appliance headers.
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^GET \/ui\/live /);
      expect(seen[0]).toMatch(/^x-bng-peer-address: 127\.0\.0\.1$/im);
      expect(seen[0]).toMatch(/^x-bng-appliance: edge-1$/im);
      expect(seen[0]).not.toContain("203.0.113.9");
      expect(received.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
      expect(received).toMatch(/^HTTP\/1\.1 401 /);
      expect(received).toMatch(/^connection: close$/im);
    },
  );

  it("becomes a byte stream once the appliance answers 101, its request cleaned as any other", async () => {
    const before = heads.length;
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    const echoed = new Promise<void>((resolve) =>
      socket.on("data", (c) => {
        received += c.toString("latin1");
        if (received.includes("frame-bytes")) resolve();
      }),
    );
    socket.write(upgrade("ok"));
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.write("frame-bytes");
    await echoed;
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 101 /);
    expect(received).toMatch(/^sec-websocket-accept: stand-in$/im);
    const seen = heads.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^upgrade: websocket$/im);
    expect(seen[0]).toMatch(/^sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==$/im);
    expect(seen[0]).toMatch(/^x-bng-peer-address: 127\.0\.0\.1$/im);
    expect(seen[0]).not.toContain("203.0.113.9");
  });
});

describe("an answer the relay reads from workerd and passes on", () => {
  /** A GET on a connection of its own, its answer read by a client that takes its time (backpressure). */
  const get = (target: string, onHead?: (res: http.IncomingMessage) => void) =>
    new Promise<{ status: number; body: Buffer; complete: boolean }>((resolve, reject) => {
      http
        .get(`${base}${target}`, { agent: false }, (res) => {
          onHead?.(res);
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            res.pause();
            setTimeout(() => res.resume(), 1);
          });
          res.on("close", () =>
            resolve({ status: res.statusCode!, body: Buffer.concat(chunks), complete: res.complete }),
          );
          res.on("error", () => {});
        })
        .on("error", reject);
    });

  it("a 4 MiB chunked body arrives whole and in order to a slow reader", async () => {
    const { status, body, complete } = await get("/answers/large");
    expect(status).toBe(200);
    expect(complete).toBe(true);
    expect(body.length).toBe(LARGE_BYTES);
    expect(body.every((byte, offset) => byte === offset % 251)).toBe(true);
  });

  it("an answer workerd cuts part-way is cut for the client too, never passed off as complete", async () => {
    const { status, body, complete } = await get("/answers/cut");
    expect(status).toBe(200);
    expect(body.toString()).toBe('{"partial":');
    expect(complete).toBe(false);
  });

  it("an event stream's head reaches the client before its first event is sent", async () => {
    let headFirst = false;
    const { body, complete } = await get("/answers/stream", (res) => {
      headFirst = res.headers["content-type"] === "text/event-stream";
      streamEvent();
    });
    expect(headFirst).toBe(true);
    expect(body.toString()).toBe("data: first\n\n");
    expect(complete).toBe(true);
  });

  it("events that come in one read reach the client before the stream's next event is sent", async () => {
    // The third is sent only once the client has the first two: held back, they would wait for it forever.
    const { body, complete } = await new Promise<{ body: string; complete: boolean }>((resolve, reject) => {
      http
        .get(`${base}/answers/burst`, { agent: false }, (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString();
            if (text === "data: one\n\ndata: two\n\n") streamEvent();
          });
          res.on("close", () => resolve({ body: text, complete: res.complete }));
        })
        .on("error", reject);
    });
    expect(body).toBe("data: one\n\ndata: two\n\ndata: three\n\n");
    expect(complete).toBe(true);
  });
});
