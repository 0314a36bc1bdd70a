/**
 * The bench's fleet: a fleet file of N appliances of one profile written to a
 * scratch directory, launched through the real launcher (plain HTTP, a
 * bootstrap token), and the helpers that drive it over the API.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { freePortBase, launchFleet, type RunningFleet } from "../harness/fleet-process.ts";
import { WORKER } from "../../launcher/config.ts";
import { isolateHeap, type HeapFigures } from "./heap.ts";
import { parseProfile, type Profile } from "../../simulator/index.ts";

/** Well-formed: the checksum is CRC-32 in base62. */
export const TOKEN = "bngtok_" + "Bench".repeat(6) + "3QqMB3";
export const auth = { authorization: `Bearer ${TOKEN}` };

/** A shipped profile (fleet-config/profiles/<name>.json), parsed as the Worker parses it. */
export async function shippedProfile(name: string): Promise<Profile> {
  const file = path.join(import.meta.dirname, "../../fleet-config/profiles", `${name}.json`);
  const parsed = parseProfile(JSON.parse(await readFile(file, "utf8")) as unknown);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.issues.join("; ")}`);
  return parsed.profile;
}

export interface BenchFleet {
  fleet: RunningFleet;
  /** `http://127.0.0.1:<port>` of each appliance, in order (`bench-1`, `bench-2`, …). */
  bases: string[];
  names: string[];
  /** workerd's V8 inspector (through the launcher's proxy) of shard k is at this port + k. */
  inspectorPort: number;
  /**
   * The JS heap after a full collection of every workerd process's Worker isolate, summed (each appliance's object
   * lives in its process's isolate).
   */
  heap(): Promise<HeapFigures>;
}

/**
 * Launches `count` appliances of `profile` on ports from `portBase`; with `peers`, bench-1 reads the others through
 * the fleet proxy: bench-2 alone (`next`), or every one (`all`, the fleet search's fan-out).
 */
export async function launchBenchFleet(
  scratch: string,
  options: {
    count: number;
    profile: string;
    portBase: number;
    peers?: "next" | "all";
    readyTimeoutMs?: number;
    shards?: number;
    listener?: "workerd" | "relay";
  },
): Promise<BenchFleet> {
  // A scratch folder of its own (the fleet file, then the state), removed when the fleet stops: at a thousand
  // appliances the state is gigabytes, and the runs that kept theirs filled this machine's disk.
  const dir = await mkdtemp(path.join(tmpdir(), `bngfleet-${scratch}-`));
  const names = Array.from({ length: options.count }, (_, i) => `bench-${i + 1}`);
  const appliances = names.map((name, i) => ({
    name,
    seed: 7 + i,
    profile: options.profile,
    webUi: {
      listener: { address: "127.0.0.1", port: options.portBase + i },
      ...(i === 0 && options.peers
        ? { peers: (options.peers === "all" ? names.slice(1) : names.slice(1, 2)).map((peer) => ({ name: peer })) }
        : {}),
    },
  }));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(fleetFile, JSON.stringify({ portBase: options.portBase, appliances }));
  const ports = names.map((_, i) => options.portBase + i);
  // One inspector per workerd process: shard k's at inspectorPort + k (launcher/config.ts).
  const shards = Math.min(options.shards ?? 1, options.count);
  // Free now, and outside the appliances' ports (not yet bound, so a free range may fall among them at a thousand).
  let inspectorPort = await freePortBase(shards);
  while (inspectorPort + shards > options.portBase && inspectorPort < options.portBase + options.count)
    inspectorPort = await freePortBase(shards);
  // Plain HTTP, served by workerd's own sockets unless the relay is asked for (BNG_LISTENER, docs/running.md).
  const env = {
    BNG_FLEET: fleetFile,
    BNG_HTTP: "1",
    BNG_LISTENER: options.listener ?? "workerd",
    BNG_BOOTSTRAP_TOKEN: TOKEN,
    BNG_FRESH: "1",
    BNG_INSPECTOR_PORT: String(inspectorPort),
    BNG_SHARDS: String(shards),
  };
  const removeScratch = () => rm(dir, { recursive: true, force: true });
  let running: RunningFleet;
  try {
    running = await launchFleet(env, ports, path.join(dir, "data"), options.readyTimeoutMs, { reportsMemory: true });
  } catch (error) {
    await removeScratch();
    throw error;
  }
  const fleet: RunningFleet = {
    ...running,
    stop: async () => {
      try {
        return await running.stop();
      } finally {
        await removeScratch();
      }
    },
  };
  const bases = ports.map((p) => `http://127.0.0.1:${p}`);
  // The heaps of every process's isolate together; shard k serves appliance k first (bench-(k+1)), whose health nudges
  // its inspector.
  const heap = async (): Promise<HeapFigures> => {
    const each = await Promise.all(
      Array.from({ length: shards }, (_, k) =>
        isolateHeap(inspectorPort + k, WORKER, () => fetch(`${bases[k]}/api/v1/system/health`)),
      ),
    );
    return {
      usedBytes: each.reduce((n, h) => n + h.usedBytes, 0),
      backingStoreBytes: each.reduce((n, h) => n + h.backingStoreBytes, 0),
    };
  };
  return { fleet, bases, names, inspectorPort, heap };
}

/** GET with the bench's token; a non-2xx answer fails the bench. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: auth });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Advances one appliance's simulation clock; answers its session count. */
export async function advance(base: string, seconds: number): Promise<number> {
  const response = await fetch(`${base}/twin/v1/scenario`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ action: "advance-clock", seconds }),
  });
  if (!response.ok) throw new Error(`${base} advance-clock answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { state: { sessions: number } }).state.sessions;
}

/** Resident and peak memory (KiB) of a process, from /proc; null when it is gone. */
export function memoryKiB(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return { rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]), peak: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) };
  } catch {
    return null;
  }
}

/**
 * A process's CPU seconds so far, in user space and in the kernel (SQLite's writes), from /proc; null when it is gone.
 */
export function cpuSeconds(pid: number): { user: number; system: number } | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a
    // second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return null;
  }
}

/** A process's CPU seconds so far, user and kernel together; NaN when it is gone. */
export function cpuTotal(pid: number): number {
  const { user, system } = cpuSeconds(pid) ?? { user: NaN, system: NaN };
  return user + system;
}

/** The launcher's workerd processes (one, or one per shard with BNG_SHARDS), largest first. */
export function workerdPids(launcher: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(launcher)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number)
      .filter(Boolean);
  } catch {
    // none
  }
  const workerd = children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("workerd");
    } catch {
      return false;
    }
  });
  if (workerd.length === 0)
    throw new Error(`the launcher (pid ${launcher}) has no workerd child: is the fleet running?`);
  return workerd.sort((a, b) => (memoryKiB(b)?.rss ?? 0) - (memoryKiB(a)?.rss ?? 0));
}

/** The launcher's workerd, for a fleet in one process. */
export const workerdPid = (launcher: number): number => workerdPids(launcher)[0]!;

/** Compatibility date of wrangler.toml, so the references run as the product does. */
export async function compatibilityDate(): Promise<string> {
  const toml = await readFile(path.join(import.meta.dirname, "../../wrangler.toml"), "utf8");
  return /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2026-07-01";
}

/** Numbers as the bench prints them. */
export const fmt = (n: number, digits = 1) =>
  n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });
