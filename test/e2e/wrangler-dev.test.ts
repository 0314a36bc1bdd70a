/**
 * `npm run dev` (scripts/dev.ts, issue #50): the fleet through `wrangler dev` as docs/running.md describes
 * it: at 127.0.0.1 the default appliance (edge-1), each other appliance at its fleet-file hostname, every one
 * through the fleet proxy, the web UI at `/`, signed in with the credentials the first run wrote and printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";

let dev: ChildProcess;
let output = "";
let port: number;
let token: string;

beforeAll(async () => {
  port = await freePortBase(1);
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-dev-"));
  dev = spawn(process.execPath, [path.join(import.meta.dirname, "../../scripts/dev.ts"), "--port", String(port)], {
    env: { ...process.env, BNG_DEV_DIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: wrangler and its workerd are ended with it.
    detached: true,
  });
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 90_000;
  while (!output.includes(`Ready on http://127.0.0.1:${port}`)) {
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  token = /bootstrap token (bngtok_\w+)/.exec(output)![1]!;
}, 120_000);

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    process.kill(-dev.pid, "SIGTERM");
    await exited;
  }
});

/** A GET to the dev server with the Host a browser would send for `host`. */
function get(host: string, pathname: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        headers: { host: `${host}:${port}`, authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body }),
        );
      },
    );
    req.on("error", reject).end();
  });
}

describe("npm run dev", () => {
  it(
    "serves edge-1 at 127.0.0.1, the others at their hostnames and through the fleet " + "proxy, and the web UI",
    async () => {
      const health = (answer: { body: string }) => (JSON.parse(answer.body) as { appliance: string }).appliance;
      expect(health(await get("127.0.0.1", "/api/v1/system/health"))).toBe("edge-1");
      expect(health(await get("edge-2.bng.localhost", "/api/v1/system/health"))).toBe("edge-2");
      expect(health(await get("127.0.0.1", "/api/v1/fleet/edge-3/system/health"))).toBe("edge-3");
      const page = await get("127.0.0.1", "/");
      expect(page.status).toBe(200);
      expect(page.type).toContain("text/html");
      // Any host naming no appliance is the default one's: `localhost` too.
      expect(health(await get("localhost", "/api/v1/system/health"))).toBe("edge-1");
    },
  );
});
