/**
 * The data plane through the real launcher: a Prometheus scrape that Debian's
 * `promtool check metrics` accepts (format and naming lint), a capture
 * refused by a configured mirror allowlist, and the log stream delivered live
 * through the HTTPS listener, not buffered, its places freed the moment an
 * EventSource closes.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { Readable } from "node:stream";
import { EventSource } from "eventsource";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const PORT_BASE = await freePortBase(2);
const BOOTSTRAP = "bngtok_" + "Scr".repeat(10) + "05QhlO"; // well-formed: the checksum is CRC-32 in base62
const COLLECTORS = "203.0.113.0/24";

let fleet: RunningFleet;

beforeAll(async () => {
  // Its own fleet file: the shipped fleet configures no capture mirror allowlist.
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-scrape-"));
  const fleetFile = path.join(dir, "fleet.json");
  const appliance = (name: string, port: number, extra: Record<string, unknown> = {}) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers: [] },
    ...extra,
  });
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: 8443,
      appliances: [appliance("edge-1", 8443, { captureMirrorAllowlist: [COLLECTORS] }), appliance("edge-2", 8444)],
    }),
  );
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(PORT_BASE), BNG_FLEET: fleetFile, BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" },
    [PORT_BASE, PORT_BASE + 1],
  );
}, 120_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const asBootstrap = { authorization: `Bearer ${BOOTSTRAP}` };
const api = (path: string, options: Parameters<typeof fetchJson>[1] = {}, port = PORT_BASE) =>
  fetchJson(`https://127.0.0.1:${port}${path}`, {
    insecure: true,
    ...options,
    headers: { ...asBootstrap, ...options.headers },
  });
const advance = (seconds: number, port = PORT_BASE) =>
  api("/twin/v1/scenario", { body: { action: "advance-clock", seconds } }, port);

describe("Prometheus scrape", () => {
  it.each([PORT_BASE, PORT_BASE + 1])("passes promtool check metrics (listener %i)", async (port) => {
    expect((await advance(1800, port)).status).toBe(200);
    // Faults put alarms, dead servers and failures into the scrape.
    await api("/twin/v1/scenario", { body: { action: "fill-cgn-group", group: "cgn-1", percent: 95 } }, port);
    await api("/twin/v1/scenario", { body: { action: "fail-radius-server", server: "radius-1.isp.example" } }, port);
    await advance(60, port);
    const scrape = await api("/api/v1/metrics", {}, port);
    expect(scrape.status).toBe(200);
    expect(scrape.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const summary = (await api("/api/v1/sessions/summary", {}, port)).json<{ total: number }>();
    expect(summary.total).toBeGreaterThan(1000);
    expect(scrape.text).toContain(`\nbng_sessions ${summary.total}\n`);
    const check = spawnSync("promtool", ["check", "metrics"], { input: scrape.text, encoding: "utf8" });
    expect(check.error).toBeUndefined();
    expect(check.status, `promtool: ${check.stdout}${check.stderr}`).toBe(0);
  });
});

describe("capture mirror allowlist", () => {
  it("refuses a collector outside the allowlist with 403 and accepts one on it", async () => {
    await advance(600);
    const [session] = (await api("/api/v1/sessions?limit=1")).json<{ items: { id: number }[] }>().items;
    const capture = (destinationIp: string) =>
      api(`/api/v1/sessions/${session!.id}/capture`, {
        body: { destinationIp, maxPackets: null, maxDurationSeconds: null },
      });
    const refused = await capture("198.51.100.7");
    expect(refused.status).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toContain("allowlist");
    expect((await capture("203.0.113.9")).status).toBe(200);
    expect((await api(`/api/v1/sessions/${session!.id}/capture`, { method: "DELETE" })).json()).toEqual({
      status: "stopped",
      sessionId: session!.id,
    });
  });
});

describe("log stream through the HTTPS listener", () => {
  it("delivers a new entry while the stream stays open", async () => {
    const received: string[] = [];
    let wake = () => {};
    const req = request(`https://127.0.0.1:${PORT_BASE}/api/v1/logs/stream`, {
      headers: asBootstrap,
      rejectUnauthorized: false,
      agent: false,
    });
    const response = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      req.on("response", resolve).on("error", reject).end();
    });
    try {
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/event-stream");
      // The stream's release handle is the listener's alone (launcher/listeners.ts): never relayed to the client.
      expect(response.headers["x-bng-stream"]).toBeUndefined();
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        received.push(chunk);
        wake();
      });
      const until = async (pattern: RegExp) => {
        const deadline = Date.now() + 10_000;
        while (!pattern.test(received.join(""))) {
          if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(received.join(""))}`);
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 250);
          });
        }
      };
      await until(/: connected\n\n/);
      await api("/twin/v1/scenario", { body: { action: "set-churn-multiplier", multiplier: 2 } });
      await until(/"msgId":"audit\.scenario"/);
      expect(received.join("")).toMatch(/event: log\ndata: \{[^\n]*"msgId":"audit\.scenario"/);
    } finally {
      req.destroy();
    }
  });

  it(
    "admits four EventSources reopened at once after four were closed: a closed " + "stream frees its place at once",
    async () => {
      const created = await api("/api/v1/auth/tokens", { body: { name: "restarting-consumer", role: "read-only" } });
      expect(created.status).toBe(200);
      const token = created.json<{ token: string }>().token;
      /**
       * Four npm `eventsource` clients; resolves with how each first answered (its open, or the status that made it
       * give
       * up).
       */
      const openFour = async () => {
        const sources = Array.from(
          { length: 4 },
          () => new EventSource(`https://127.0.0.1:${PORT_BASE}/api/v1/logs/stream`, { fetch: listenerFetch(token) }),
        );
        const outcomes = await Promise.all(
          sources.map(
            (source) =>
              new Promise<number | "open">((resolve) => {
                source.onopen = () => resolve("open");
                source.onerror = (event) => resolve(event.code ?? 0);
              }),
          ),
        );
        return { sources, outcomes };
      };
      const first = await openFour();
      expect(first.outcomes).toEqual(["open", "open", "open", "open"]);
      for (const source of first.sources) source.close();
      // A consumer restarting: no pause (eventsource gives up on a 429 for good).
      const again = await openFour();
      try {
        expect(again.outcomes).toEqual(["open", "open", "open", "open"]);
      } finally {
        for (const source of again.sources) source.close();
      }
    },
  );
});

/**
 * The fetch an EventSource uses here: the launcher's HTTPS listener with its self-signed certificate
 * (Node's fetch cannot be told to trust one), the body streamed as it arrives, aborted when the source closes.
 */
function listenerFetch(token: string) {
  return (url: string | URL, init?: { headers?: Record<string, string>; signal?: AbortSignal | null }) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(
        String(url),
        {
          headers: { ...init?.headers, authorization: `Bearer ${token}` },
          rejectUnauthorized: false,
          agent: false,
          signal: init?.signal ?? undefined,
        },
        (res) => {
          const headers = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          resolve(
            new Response(Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>, {
              status: res.statusCode,
              headers,
            }),
          );
        },
      );
      req.on("error", reject).end();
    });
}
