/**
 * Launcher settings: the fleet file (validated with the same schema the Worker
 * uses) plus the BNG_* environment variables, resolved into one plain object
 * so the rest of the launcher never reads process.env itself.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FleetFile, describeIssues, isShippedProfile, listenerOrigin } from "../fleet-config/schema.ts";
import { isWellFormedToken } from "../src/trust/tokens.ts";
import { clockStartOf } from "../src/fleet/clock-start.ts";
import { isNewPassword } from "../src/auth/accounts.ts";
import { parseProfile } from "../simulator/profile.ts";

/** A problem the user can fix (bad file, busy port…): printed without a stack trace. */
export class LaunchError extends Error {
  override name = "LaunchError";
}

/** Where one appliance listens, as the launcher and the Worker both see it. */
export type ApplianceListener = {
  name: string;
  /** Address the public listener binds (from webUi.listener.address). */
  address: string;
  /** Public port after moving the file's ports by BNG_PORT_BASE. */
  port: number;
  /** e.g. "https://127.0.0.1:8443": what a browser or curl should use. */
  origin: string;
  hostname: string | undefined;
};

export type Settings = {
  projectDir: string;
  fleetPath: string;
  fleet: FleetFile;
  /** Effective port base (BNG_PORT_BASE, else the file's portBase). */
  portBase: number;
  dataDir: string;
  http: boolean;
  /**
   * BNG_LISTENER: who serves the appliances' public ports. `workerd` (the default with BNG_HTTP=1): workerd
   * itself, one socket per appliance (scripts/public-sockets.ts); `relay` (the default over HTTPS): a Node
   * listener per appliance relaying to workerd (scripts/listeners.ts), for what workerd's sockets cannot do:
   * a certificate changed without restarting workerd, ACME HTTP-01 on the HTTPS port, a closed log stream's
   * place freed at once.
   */
  listener: "workerd" | "relay";
  fresh: boolean;
  /** BNG_INSPECTOR_PORT: workerd's V8 inspector (Chrome DevTools, the bench's heap figures), loopback only; unset = none. Shard k's is this port + k. */
  inspectorPort: number | undefined;
  /** BNG_SHARDS: workerd processes the fleet is spread over (1 unless told); appliance i runs in shard i mod shards. */
  shards: number;
  /**
   * MINIFLARE_WORKERD_V8_FLAGS as workerd gets it: as set, else none (V8's defaults) at any size. `--optimize-for-size`
   * (among others, a 1 MB semi-space) held 1,000 `default` appliances in 260-320 MiB less RSS, but cost 10-15 % more of
   * workerd's CPU for the bring-up and 30-50 % more for a fleet-wide search (docs/benchmark.md, session 25).
   */
  v8Flags: string;
  adminPassword: string | undefined;
  bootstrapToken: string | undefined;
  /** BNG_CLOCK=manual: the simulated clock moves only when a scenario advances it (a pipeline's own pace). */
  manualClock: boolean;
  /** BNG_CLOCK_START: the instant a fresh appliance's simulated clock starts at (ISO 8601 with its zone); unset = the wall clock. */
  clockStart: string | undefined;
  appliances: ApplianceListener[];
  /** The fleet file's own profile files, keyed by the path as written there (the Worker's BNG_PROFILES). */
  profiles: Record<string, unknown>;
};

/** BNG_SHARDS at most: a process per core is the point, and each holds a copy of the Worker's code. */
export const MAX_SHARDS = 16;

/** The fleet Worker's name in Miniflare (wrangler.toml's `name`). */
export const WORKER = "bngfleet";

/** The repository root: scripts/ lives directly under it. */
export const projectDir = path.resolve(import.meta.dirname, "..");

/** Reads, parses and validates a fleet file, throwing a LaunchError that names the file and every bad field. */
export async function loadFleetFile(fleetPath: string): Promise<FleetFile> {
  let text: string;
  try {
    text = await readFile(fleetPath, "utf8");
  } catch (error) {
    throw new LaunchError(`Cannot read fleet file ${fleetPath}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LaunchError(`Fleet file ${fleetPath} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = FleetFile.safeParse(json);
  if (!parsed.success) {
    const lines = describeIssues(parsed.error, "  ");
    throw new LaunchError(`Fleet file ${fleetPath} is invalid:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/**
 * Reads each profile file the fleet file names (a path relative to the fleet file) and validates it with the
 * shipped profiles' schema, throwing a LaunchError that names the fleet file, the field, the profile file and
 * every bad field in it.
 */
export async function loadUserProfiles(fleetPath: string, fleet: FleetFile): Promise<Record<string, unknown>> {
  const profiles: Record<string, unknown> = {};
  for (const [i, appliance] of fleet.appliances.entries()) {
    const name = appliance.profile;
    if (isShippedProfile(name) || Object.hasOwn(profiles, name)) continue;
    const file = path.resolve(path.dirname(fleetPath), name);
    const field = `Fleet file ${fleetPath}: appliances.${i}.profile`;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new LaunchError(`${field}: cannot read the profile file ${file}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new LaunchError(`${field}: the profile file ${file} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = parseProfile(json);
    if (!parsed.ok) throw new LaunchError(`${field}: the profile file ${file} is invalid:\n${parsed.issues.map((issue) => `  ${issue}`).join("\n")}`);
    profiles[name] = json;
  }
  return profiles;
}

/** Reads an on/off environment variable; anything but the usual spellings is a mistake worth reporting. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = (env[name] ?? "").trim().toLowerCase();
  if (["", "0", "false", "no", "off"].includes(value)) return false;
  if (["1", "true", "yes", "on"].includes(value)) return true;
  throw new LaunchError(`${name} must be 1 or 0, not '${env[name]}'`);
}

/** An unset or empty variable is "not configured": the Worker then gets no binding at all. */
function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
}

/** BNG_DATA_DIR (relative to where the command ran), else the repository's .bngfleet/data. */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return optional(env, "BNG_DATA_DIR") ? path.resolve(env.BNG_DATA_DIR!) : path.join(projectDir, ".bngfleet", "data");
}

/** Resolves the fleet file, ports and data dir from the environment (BNG_FLEET, BNG_PORT_BASE, BNG_DATA_DIR, BNG_HTTP, BNG_FRESH, …). */
export async function loadSettings(env: NodeJS.ProcessEnv = process.env): Promise<Settings> {
  // Paths given in the environment are the user's, so relative to where they
  // ran the command; the defaults belong to the repository.
  const fleetPath = optional(env, "BNG_FLEET")
    ? path.resolve(env.BNG_FLEET!)
    : path.join(projectDir, "fleet-config", "fleet.json");
  const dataDir = dataDirOf(env);
  const http = flag(env, "BNG_HTTP");
  const fresh = flag(env, "BNG_FRESH");
  const listener = optional(env, "BNG_LISTENER") ?? (http ? "workerd" : "relay");
  if (listener !== "workerd" && listener !== "relay") throw new LaunchError(`BNG_LISTENER must be 'workerd' or 'relay', not '${listener}'`);

  const fleet = await loadFleetFile(fleetPath);
  const profiles = await loadUserProfiles(fleetPath, fleet);

  let portBase = fleet.portBase;
  const portBaseText = optional(env, "BNG_PORT_BASE");
  if (portBaseText !== undefined) {
    portBase = Number(portBaseText);
    if (!/^\d+$/.test(portBaseText.trim()) || !Number.isInteger(portBase) || portBase < 1 || portBase > 65535) {
      throw new LaunchError(`BNG_PORT_BASE must be a port number (1-65535), not '${portBaseText}'`);
    }
  }

  const appliances = fleet.appliances.map((appliance, i): ApplianceListener => {
    const { address, port: filePort } = appliance.webUi.listener;
    // Every listener keeps its offset from the file's portBase, so one
    // variable moves the whole fleet (e.g. to run two fleets side by side).
    const port = filePort - fleet.portBase + portBase;
    if (port < 1 || port > 65535) {
      throw new LaunchError(
        `Fleet file ${fleetPath}: appliances.${i}.webUi.listener.port ${filePort} moved by BNG_PORT_BASE=${portBase} ` +
          `(file portBase ${fleet.portBase}) gives port ${port}, outside 1-65535`,
      );
    }
    // The Worker derives its peers' origins with this same function.
    const origin = listenerOrigin(fleet, appliance, { portBase, http });
    return { name: appliance.name, address, port, origin, hostname: appliance.webUi.hostname };
  });

  // The schema does not forbid two appliances on one listener, and such a
  // clash would otherwise surface as our own "port already in use" at bind time.
  const seen = new Map<string, string>();
  for (const appliance of appliances) {
    const key = `${appliance.address}:${appliance.port}`;
    const other = seen.get(key);
    if (other) throw new LaunchError(`Fleet file ${fleetPath}: ${other} and ${appliance.name} both listen on ${key}`);
    seen.set(key, appliance.name);
  }

  const inspectorText = optional(env, "BNG_INSPECTOR_PORT");
  const inspectorPort = inspectorText === undefined ? undefined : Number(inspectorText);
  if (inspectorPort !== undefined && (!/^\d+$/.test(inspectorText!.trim()) || inspectorPort < 1 || inspectorPort > 65535)) {
    throw new LaunchError(`BNG_INSPECTOR_PORT must be a port number (1-65535), not '${inspectorText}'`);
  }

  // One workerd runs every isolate on one thread: a fleet too big for one core's bring-up is spread over several.
  const shardsText = optional(env, "BNG_SHARDS") ?? "1";
  const shards = Number(shardsText);
  if (!/^\d+$/.test(shardsText.trim()) || shards < 1 || shards > MAX_SHARDS) {
    throw new LaunchError(`BNG_SHARDS must be a whole number of workerd processes from 1 to ${MAX_SHARDS}, not '${shardsText}'`);
  }

  const bootstrapToken = optional(env, "BNG_BOOTSTRAP_TOKEN");
  if (bootstrapToken !== undefined && !isWellFormedToken(bootstrapToken)) {
    throw new LaunchError("BNG_BOOTSTRAP_TOKEN is not a well-formed token (bngtok_ + 30 base62 characters + a 6-character checksum); make one with 'npm run -s token'");
  }

  // The password the first admin gets is held to the account rules (length, not a common one: issue #22).
  const adminPassword = optional(env, "BNG_ADMIN_PASSWORD");
  if (adminPassword !== undefined && !(await isNewPassword(adminPassword))) {
    throw new LaunchError("BNG_ADMIN_PASSWORD must be 8-256 characters, not the development default and not a commonly used password; choose another");
  }

  const clock = optional(env, "BNG_CLOCK");
  if (clock !== undefined && clock !== "manual") throw new LaunchError(`BNG_CLOCK must be 'manual' or unset, not '${clock}'`);
  const clockStart = optional(env, "BNG_CLOCK_START");
  if (clockStart !== undefined && clockStartOf({ BNG_CLOCK_START: clockStart }) === null) {
    throw new LaunchError(`BNG_CLOCK_START must be an ISO 8601 instant with its zone, such as 2026-03-02T09:00:00Z, not '${clockStart}'`);
  }

  return {
    projectDir,
    fleetPath,
    fleet,
    portBase,
    dataDir,
    http,
    listener,
    fresh,
    inspectorPort,
    shards: Math.min(shards, appliances.length),
    v8Flags: env.MINIFLARE_WORKERD_V8_FLAGS ?? "",
    adminPassword,
    bootstrapToken,
    manualClock: clock === "manual",
    clockStart,
    appliances,
    profiles,
  };
}
