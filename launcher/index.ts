/**
 * The package's API for test runners: `startFleet()` runs `bngfleet start --json` in a child process of its own
 * (a fleet's relays, workerd and any crash stay out of the caller's process) and resolves once every appliance
 * answers, with where each is and the super-user token. The child ends with `stop()`, and with the caller: it
 * stops its fleet when the IPC channel to its parent closes, however the parent went.
 *
 * This file's declarations are the package's types (dist/index.d.ts): they import nothing.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { START_OPTIONS, type StartOptionName } from "./options.ts";

/** How to start a fleet: the options of `bngfleet start`, each also readable from its BNG_* environment variable. */
export interface StartFleetOptions {
  /**
   * Run this many appliances, edge-1 to edge-N, each peering with the others (1-1000). Default: the shipped fleet of
   * three.
   */
  appliances?: number;
  /** Their size: `small` (the default), `default`, `large`, `xlarge`, or the path of a profile file of your own. */
  profile?: string;
  /** A fleet file instead of `appliances`/`profile` (appliances, ports, seeds, profiles, peers). */
  fleet?: string;
  /** Serve plain HTTP instead of HTTPS with self-signed certificates. */
  http?: boolean;
  /** The first appliance's port; the others follow. Default 8443. */
  portBase?: number;
  /** Where state, certificates and secrets live. Default: a new temporary folder, removed by `stop()`. */
  dataDir?: string;
  /** Start every appliance from empty state (the data dir's secrets and certificates are kept). */
  fresh?: boolean;
  /** A scenario file (or a shipped one by name, such as `radius-outage`) run on every appliance once it is up. */
  scenario?: string;
  /** `manual`: simulated time moves only when a scenario advances it (`advance-clock`). */
  clock?: "manual";
  /** The instant a fresh appliance's simulated clock starts at (ISO 8601 with its zone). Default: now. */
  clockStart?: string;
  /**
   * The first admin's password (8-256 characters, not a common one). Default: the development default,
   * `bngfleet-admin`.
   */
  adminPassword?: string;
  /**
   * A super-user API token every appliance accepts (`bngfleet token` makes one). Default: one made and kept in the data
   * dir.
   */
  bootstrapToken?: string;
  /**
   * Who serves the public ports: workerd itself (the default with `http`) or a relay per appliance (the default over
   * HTTPS).
   */
  listener?: "workerd" | "relay";
  /** Spread the fleet over this many workerd processes (1-16). Default 1. */
  shards?: number;
  /** Open workerd's V8 inspector (Chrome DevTools) on this loopback port. */
  inspectorPort?: number;
  /**
   * Receives each line the fleet writes for a person (progress, warnings, the appliances' console output). Default:
   * kept, and shown in the error if the start fails.
   */
  log?: (line: string) => void;
}

/** One appliance of a running fleet. */
export interface FleetAppliance {
  /** Its name, as the fleet proxy addresses it (`/api/v1/fleet/{name}/…`). */
  name: string;
  /** Its origin for API clients, such as `http://127.0.0.1:8443`: the API is under `/api/v1`. */
  url: string;
  /**
   * Its web UI for a browser, such as `http://edge-1.bng.localhost:8443/`: each appliance at a `*.localhost` name of
   * its own, which browsers resolve to loopback (Node's resolver does not), so their session cookies stay apart.
   */
  webUi: string;
}

/** A running fleet. */
export interface Fleet {
  appliances: FleetAppliance[];
  /** A super-user API token every appliance accepts: `Authorization: Bearer <token>`. */
  token: string;
  /** Where the fleet keeps its state. */
  dataDir: string;
  /** Stops every process the fleet started; resolves once they are gone and their ports closed. Safe to call twice. */
  stop(): Promise<void>;
  /** The same as `stop()`, for `await using fleet = await startFleet(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** The options that are not `bngfleet start` flags. */
type OwnOption = "log";
// The options above and the CLI's table are one list: a flag added there and missing here fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameOptions: Same<Exclude<keyof StartFleetOptions, OwnOption>, StartOptionName> = true;
void sameOptions;

/**
 * Options carried to the child in its environment rather than its command line, where any local user could read them.
 */
const SECRET: ReadonlySet<StartOptionName> = new Set(["adminPassword", "bootstrapToken"]);

/** Lines of the fleet's output kept for an error message when none is handed to `log`. */
const KEPT_LINES = 40;
/** How long `stop()` waits for the fleet to stop by itself before it is killed. */
const STOP_GRACE_MS = 15_000;

/**
 * Starts a fleet and resolves once every appliance answers `GET /api/v1/system/health`. Rejects, having left
 * nothing running, with an error saying why (a busy port, a bad option), its `exitCode` that of `bngfleet start`
 * (2: bad input; 1: anything else).
 */
export async function startFleet(options: StartFleetOptions = {}): Promise<Fleet> {
  const ownDataDir = options.dataDir === undefined ? await mkdtemp(path.join(tmpdir(), "bngfleet-")) : undefined;
  const args = [path.join(import.meta.dirname, "cli.js"), "start", "--json"];
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, spec] of Object.entries(START_OPTIONS) as [
    StartOptionName,
    (typeof START_OPTIONS)[StartOptionName],
  ][]) {
    const value = key === "dataDir" ? (options.dataDir ?? ownDataDir) : options[key];
    if (value === undefined || value === false) continue;
    if (SECRET.has(key)) env[(spec as { env: string }).env] = String(value);
    else args.push(`--${spec.flag}`, ...(value === true ? [] : [String(value)]));
  }
  // Its own process group: stop() can end workerd with it should the fleet not stop by itself.
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe", "ipc"], detached: true });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const kept: string[] = [];
  const log = options.log ?? ((line: string) => void (kept.push(line) > KEPT_LINES && kept.shift()));
  lines(child.stderr!, log);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => killGroup(child.pid!), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    })());

  const ready = await new Promise<{ appliances: FleetAppliance[]; token: string; dataDir: string } | null>(
    (resolve) => {
      lines(child.stdout!, (line) => {
        try {
          resolve(JSON.parse(line));
        } catch {
          log(line);
        }
      });
      void exited.then(() => resolve(null));
    },
  );
  if (ready === null) {
    const code = await exited;
    await stop();
    const error = new Error(
      `bngfleet start exited with ${code}${kept.length > 0 ? `:\n${kept.join("\n")}` : ""}`,
    ) as Error & { exitCode: number | null };
    error.exitCode = code;
    throw error;
  }
  // The channel keeps neither process alive: the fleet lives while its listeners do, the caller as it pleases.
  child.channel?.unref();
  child.unref();
  return { ...ready, stop, [Symbol.asyncDispose]: stop };
}

/** Calls `each` with every line a stream carries. */
function lines(stream: NodeJS.ReadableStream, each: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) each(part);
  });
  stream.on("end", () => rest && each(rest));
}

/** Kills a process group that did not stop in time: the launcher and the workerd processes it started. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
