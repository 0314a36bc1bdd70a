/**
 * BNG_INSPECTOR_PORT against the real launcher: workerd's V8 inspector is
 * reached only through our proxy, which a web page cannot drive (foreign
 * Origin, DNS-rebound Host, the predictable path all refused), while a
 * DevTools-style client (the bench's heap reader) still works; and with the
 * variable unset no inspector is opened at all.
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolateHeap } from "../../scripts/bench/heap.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { listeningSockets } from "./running-fleet.ts";

const PORT_BASE = await freePortBase(3);
const INSPECTOR = await freePortBase(1);
let fleet: RunningFleet;

/** The command lines of the launcher's child processes (workerd among them). */
function childCommands(pid: number): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === pid ? [readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ")] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/**
 * A WebSocket opening handshake; resolves with the status answered (101 when the debugger was opened) and closes at
 * once.
 */
function handshake(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port: INSPECTOR,
      path,
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
        ...headers,
      },
    });
    req.on("upgrade", (answer, socket) => {
      socket.destroy();
      resolve({ status: answer.statusCode!, text: "" });
    });
    req.on("response", (answer) => {
      let text = "";
      answer
        .setEncoding("utf8")
        .on("data", (chunk) => (text += chunk))
        .on("end", () => resolve({ status: answer.statusCode!, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** GET on the inspector with the given headers. */
const get = (path: string, headers: Record<string, string> = {}) => getOn(INSPECTOR, path, headers);

/** GET on a loopback port with the given headers (given up after 3 s). */
function getOn(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers, agent: false, timeout: 3000 }, (answer) => {
      let text = "";
      answer
        .setEncoding("utf8")
        .on("data", (chunk) => (text += chunk))
        .on("end", () => resolve({ status: answer.statusCode!, text }));
    });
    req.on("timeout", () => req.destroy(new Error("no answer in 3 s"))).on("error", reject);
  });
}

const debuggerPath = async () => {
  const targets = JSON.parse((await get("/json/list")).text) as {
    id: string;
    webSocketDebuggerUrl: string;
    devtoolsFrontendUrl: string;
  }[];
  const target = targets.find((t) => t.id === "core:user:bngfleet")!;
  return { target, path: new URL(target.webSocketDebuggerUrl).pathname };
};

beforeAll(async () => {
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(PORT_BASE), BNG_HTTP: "1", BNG_INSPECTOR_PORT: String(INSPECTOR) },
    [PORT_BASE],
  );
});

afterAll(async () => {
  await fleet?.stop();
});

describe("the V8 inspector behind BNG_INSPECTOR_PORT", () => {
  it("puts workerd's own inspector on a loopback port the OS picks, not on BNG_INSPECTOR_PORT", () => {
    const workerd = childCommands(fleet.pid).find((command) => command.includes("workerd"));
    expect(workerd).toContain("--inspector-addr=127.0.0.1:0");
  });

  it("lists the Worker under a random debugger path, the same in its DevTools link", async () => {
    const { target, path } = await debuggerPath();
    expect(path).not.toBe("/core:user:bngfleet");
    expect(path.length).toBeGreaterThan(20);
    expect(target.webSocketDebuggerUrl).toBe(`ws://127.0.0.1:${INSPECTOR}${path}`);
    expect(target.devtoolsFrontendUrl).toContain(`ws=127.0.0.1:${INSPECTOR}${path}`);
  });

  it("refuses a WebSocket to the debugger from a web page's Origin", async () => {
    const { path } = await debuggerPath();
    const refused = await handshake(path, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 403, detail: expect.stringContaining("Origin") });
    // The same handshake from DevTools' own origin, or with none, opens the debugger.
    expect((await handshake(path, { origin: "devtools://devtools" })).status).toBe(101);
    expect((await handshake(path)).status).toBe(101);
  });

  it("refuses a Host that is not loopback with this port (DNS rebinding), on the list and the debugger", async () => {
    const { path } = await debuggerPath();
    expect((await get("/json/list", { host: `evil.example:${INSPECTOR}` })).status).toBe(403);
    expect((await handshake(path, { host: `evil.example:${INSPECTOR}` })).status).toBe(403);
    expect((await handshake(path, { host: `127.0.0.1:${INSPECTOR + 1}` })).status).toBe(403);
  });

  it("refuses the predictable path workerd uses", async () => {
    expect((await handshake("/core:user:bngfleet")).status).toBe(404);
  });

  it(
    "says plainly that workerd's own inspector is open to every user of the machine, " +
      "naming the one other port that serves it (issue #47)",
    async () => {
      const said = new RegExp(
        String.raw`workerd's own inspector listens on 127\.0\.0\.1:(\d+) without any check, ` +
          "and every user of this machine can open it",
      ).exec(fleet.output());
      expect(said, fleet.output()).not.toBeNull();
      // Every port the fleet listens on, asked for /json/list as any local process could: the proxy, and the port
      // named.
      const serving: number[] = [];
      for (const { port } of listeningSockets(fleet.pid)) {
        const list = await getOn(port, "/json/list").catch(() => null);
        if (list?.status === 200 && list.text.trimStart().startsWith("[")) serving.push(port);
      }
      expect(serving.sort()).toEqual([INSPECTOR, Number(said![1])].sort());
    },
  );

  it(
    "answers a DevTools-style client (the bench's heap reader: no Origin, loopback " + "Host, path from /json/list)",
    async () => {
      const heap = await isolateHeap(INSPECTOR, "bngfleet", () =>
        fetch(`http://127.0.0.1:${PORT_BASE}/api/v1/system/health`),
      );
      expect(heap.usedBytes).toBeGreaterThan(0);
    },
  );
});

describe("without BNG_INSPECTOR_PORT", () => {
  it("opens no inspector at all", async () => {
    const base = await freePortBase(3);
    const plain = await launchFleet({ BNG_PORT_BASE: String(base), BNG_HTTP: "1" }, [base]);
    try {
      const workerd = childCommands(plain.pid).find((command) => command.includes("workerd"));
      expect(workerd).toBeDefined();
      expect(workerd).not.toContain("--inspector-addr");
    } finally {
      await plain.stop();
    }
  });
});
