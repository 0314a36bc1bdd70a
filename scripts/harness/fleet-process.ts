/**
 * Starts the real fleet launcher (`npm start`'s script, from the sources) in a child process, and talks to it over
 * real HTTPS: for the end-to-end tests and the benchmarks alike.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";

import type { LauncherMemory } from "../../launcher/launcher-memory.ts";
import { bindAndRelease, ephemeralLow } from "../../launcher/loopback-ports.ts";

/**
 * A port base with `count` consecutive loopback ports free from it (a fleet's listeners sit at base,
 * base + 1, …), for the launcher to bind. It is drawn at random below the OS's ephemeral range: a port the
 * OS hands out for port 0 could be taken by any other bind of port 0 (workerd's own sockets, a browser, a
 * Prometheus) between this check and the launcher's bind, and two files drawing at random rarely meet.
 * The 8,000 ports just below that range are quietLoopbackPort()'s (launcher/loopback-ports.ts): a fleet never
 * answers on "a receiver that is down".
 */
export async function freePortBase(count: number): Promise<number> {
  const top = ephemeralLow() - 8000;
  const span = top - 10_000 - count;
  for (let attempt = 0; attempt < 50 && span > 0; attempt++) {
    const base = 10_000 + Math.floor(Math.random() * span);
    let free = true;
    for (let i = 0; i < count && free; i++) free = (await bindAndRelease(base + i)) !== null;
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free loopback ports from 10000 to ${top}`);
}

export interface RunningFleet {
  dataDir: string;
  /** The launcher's process id (workerd runs as its child). */
  pid: number;
  output: () => string;
  /** Sends SIGINT and resolves with the exit code. */
  stop: () => Promise<number | null>;
  /**
   * The launcher's memory, its JS heap read after a full collection (launcher/launcher-memory.ts); only when launched
   * with `reportsMemory`.
   */
  launcherMemory: () => Promise<LauncherMemory>;
}

/** Ports whose health is awaited at once while a fleet starts. */
const READY_PARALLEL = 8;

/**
 * Launches `node scripts/bngfleet.ts start` (the CLI from the sources) with the given environment and waits (60 s
 * unless told) until every port answers health.
 * `reportsMemory` opens an IPC channel to it, over which launcherMemory() asks.
 */
export async function launchFleet(
  env: Record<string, string>,
  ports: number[],
  dataDir?: string,
  readyTimeoutMs = 60_000,
  { reportsMemory = false } = {},
): Promise<RunningFleet> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-")));
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["scripts/bngfleet.ts", "start"], {
    env: { ...process.env, BNG_DATA_DIR: dir, ...env },
    stdio: reportsMemory ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + readyTimeoutMs;
  const waitFor = async (port: number) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`launcher exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`fleet not ready in ${readyTimeoutMs / 1000} s:\n${output}`);
      const health =
        env.BNG_HTTP === "1"
          ? fetch(`http://127.0.0.1:${port}/api/v1/system/health`)
          : fetchJson(`https://127.0.0.1:${port}/api/v1/system/health`, { insecure: true });
      const ready = await health.then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  // A few ports at a time: a health check opens the appliance's object, and a thousand one after another took minutes.
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(READY_PARALLEL, ports.length) }, async () => {
        while (next < ports.length) await waitFor(ports[next++]!);
      }),
    );
  } catch (error) {
    // Not left running behind the failed test or bench: it would hold its ports and a workerd.
    child.kill("SIGINT");
    throw error;
  }
  // workerd's own sockets answer as soon as workerd is up, before the launcher has finished starting (the
  // certificate watch, a scenario): its banner says when it has.
  while (!/ready in [\d.]+ s/.test(output)) {
    if (child.exitCode !== null) throw new Error(`launcher exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGINT");
      throw new Error(`fleet not ready in ${readyTimeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    dataDir: dir,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      child.kill("SIGINT");
      return exited;
    },
    launcherMemory: () => {
      if (!reportsMemory) return Promise.reject(new Error("the launcher was started without reportsMemory"));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error('the launcher did not answer "memory" within 30 s')), 30_000);
        const onMessage = (message: unknown) => {
          const memory = (message as { memory?: LauncherMemory } | null)?.memory;
          if (memory) done(null, memory);
        };
        const done = (error: Error | null, memory?: LauncherMemory) => {
          clearTimeout(timer);
          child.off("message", onMessage);
          if (error) reject(error);
          else resolve(memory!);
        };
        child.on("message", onMessage);
        child.send("memory", (error) => error && done(error));
      });
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = unknown>() => T;
  peerCertificateFingerprint: string | undefined;
}

/** One HTTPS request; trusts `ca` (a PEM) or, with `insecure`, anything. */
export function fetchJson(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; ca?: string; insecure?: boolean } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      url,
      {
        method: options.method ?? (body ? "POST" : "GET"),
        headers: { ...(body ? { "content-type": "application/json" } : {}), ...options.headers },
        ...(options.ca ? { ca: options.ca } : {}),
        rejectUnauthorized: !options.insecure,
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          const socket = res.socket as import("node:tls").TLSSocket;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
            peerCertificateFingerprint: socket.getPeerCertificate?.()?.fingerprint256,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
