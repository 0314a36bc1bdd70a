/**
 * Launcher settings: the fleet (a fleet file, validated with the same schema the Worker uses, or one made from
 * `--appliances`/`--profile`) plus the start options of options.ts, each from its flag or its BNG_* variable,
 * resolved into one plain object so the rest of the launcher never reads process.env itself.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FleetFile, PROFILE_NAMES, describeIssues, isShippedProfile, listenerOrigin } from "../fleet-config/schema.ts";
import { isWellFormedToken } from "../src/trust/tokens.ts";
import { clockStartOf } from "../src/fleet/clock-start.ts";
import { isNewPassword } from "../src/auth/accounts.ts";
import { parseProfile } from "../simulator/profile.ts";
import { START_OPTIONS, type OptionSpec, type StartFlags } from "./options.ts";

/** A problem the user can fix (busy port, damaged state file…): printed without a stack trace, exit status 1. */
export class LaunchError extends Error {
  override name = "LaunchError";
  /** The CLI's exit status for it. */
  readonly exitCode: number = 1;
}

/** Bad input (an unknown flag, a count of 0, a port out of range, an invalid fleet file): exit status 2. */
export class UsageError extends LaunchError {
  override name = "UsageError";
  override readonly exitCode = 2;
}

/** Where one appliance listens, as the launcher and the Worker both see it. */
export type ApplianceListener = {
  name: string;
  /** Address the public listener binds (from webUi.listener.address). */
  address: string;
  /** Public port after moving the file's ports by the port base. */
  port: number;
  /** e.g. "https://127.0.0.1:8443": what a browser or curl should use. */
  origin: string;
  hostname: string | undefined;
};

export type Settings = {
  projectDir: string;
  /** The fleet file, or a description of the fleet `--appliances`/`--profile` made. */
  fleetPath: string;
  fleet: FleetFile;
  /** Effective port base (--port-base, else the file's portBase). */
  portBase: number;
  dataDir: string;
  http: boolean;
  /**
   * Who serves the appliances' public ports. `workerd` (the default with --http): workerd
   * itself, one socket per appliance (launcher/public-sockets.ts); `relay` (the default over HTTPS): a Node
   * listener per appliance relaying to workerd (launcher/listeners.ts), for what workerd's sockets cannot do:
   * a certificate changed without restarting workerd, ACME HTTP-01 on the HTTPS port, a closed log stream's
   * place freed at once.
   */
  listener: "workerd" | "relay";
  fresh: boolean;
  /**
   * workerd's V8 inspector (Chrome DevTools, the bench's heap figures), loopback only; unset = none. Shard k's is this
   * port + k.
   */
  inspectorPort: number | undefined;
  /** workerd processes the fleet is spread over (1 unless told); appliance i runs in shard i mod shards. */
  shards: number;
  /**
   * MINIFLARE_WORKERD_V8_FLAGS as workerd gets it: as set, else none (V8's defaults) at any size. `--optimize-for-size`
   * (among others, a 1 MB semi-space) held 1,000 `default` appliances in 260-320 MiB less RSS, but cost 10-15 % more of
   * workerd's CPU for the bring-up and 30-50 % more for a fleet-wide search (docs/benchmark.md).
   */
  v8Flags: string;
  adminPassword: string | undefined;
  /** The super-user token as given; unset, the launcher makes one and keeps it in the data dir (state.ts). */
  bootstrapToken: string | undefined;
  /** --clock manual: the simulated clock moves only when a scenario advances it (a pipeline's own pace). */
  manualClock: boolean;
  /** The instant a fresh appliance's simulated clock starts at (ISO 8601 with its zone); unset = the wall clock. */
  clockStart: string | undefined;
  /** A scenario file run on every appliance once the fleet is up, and what named it (its flag or variable). */
  scenario: { path: string; label: string } | undefined;
  appliances: ApplianceListener[];
  /** The fleet file's own profile files, keyed by the path as written there (the Worker's BNG_PROFILES). */
  profiles: Record<string, unknown>;
};

/** At most this many shards: a process per core is the point, and each holds a copy of the Worker's code. */
export const MAX_SHARDS = 16;

/** The largest fleet `--appliances` makes: the largest measured on one machine (docs/benchmark.md). */
export const MAX_APPLIANCES = 1000;

/**
 * A fleet `--appliances` makes peers every appliance with every other, as the shipped fleet file does, up to this
 * size; a larger one peers edge-1 with every other and every other with edge-1 (a full mesh of a thousand would be a
 * million peer entries in every appliance's configuration).
 */
export const FULL_MESH_LIMIT = 32;

/** The fleet Worker's name in Miniflare (wrangler.toml's `name`). */
export const WORKER = "bngfleet";

/**
 * The repository's root, or the installed package's: the launcher lives one folder below it either way (launcher/
 * in the repository, dist/ in the package), beside fleet-config/ and scenarios/.
 */
export const projectDir = path.resolve(import.meta.dirname, "..");

/** The scenario files the product ships (scenarios/*.json), which `--scenario` also takes by name. */
const SHIPPED_SCENARIOS = path.join(projectDir, "scenarios");

/** Reads, parses and validates a fleet file, throwing a UsageError that names the file and every bad field. */
export async function loadFleetFile(fleetPath: string): Promise<FleetFile> {
  let text: string;
  try {
    text = await readFile(fleetPath, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read fleet file ${fleetPath}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Fleet file ${fleetPath} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = FleetFile.safeParse(json);
  if (!parsed.success) {
    const lines = describeIssues(parsed.error, "  ");
    throw new UsageError(`Fleet file ${fleetPath} is invalid:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/**
 * Reads each profile file the fleet names (a path relative to `baseDir`: the fleet file's folder, or where the
 * command ran for a fleet made from `--profile`) and validates it with the shipped profiles' schema, throwing a
 * UsageError that names the fleet, the field, the profile file and every bad field in it.
 */
export async function loadUserProfiles(
  fleetPath: string,
  baseDir: string,
  fleet: FleetFile,
): Promise<Record<string, unknown>> {
  const profiles: Record<string, unknown> = {};
  for (const [i, appliance] of fleet.appliances.entries()) {
    const name = appliance.profile;
    if (isShippedProfile(name) || Object.hasOwn(profiles, name)) continue;
    const file = path.resolve(baseDir, name);
    const field = `${fleetPath}: appliances.${i}.profile`;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(`${field}: cannot read the profile file ${file}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${field}: the profile file ${file} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = parseProfile(json);
    if (!parsed.ok)
      throw new UsageError(
        `${field}: the profile file ${file} is invalid:\n${parsed.issues.map((issue) => `  ${issue}`).join("\n")}`,
      );
    profiles[name] = json;
  }
  return profiles;
}

/**
 * A fleet of `count` appliances of one profile, as the shipped fleet file is written: edge-1 to edge-N with seeds
 * 1001 on, on consecutive loopback ports from 8443 (moved by the port base like any fleet file's), each peering with
 * every other (a star around edge-1 past FULL_MESH_LIMIT).
 */
export function generatedFleet(count: number, profile: string): FleetFile {
  const names = Array.from({ length: count }, (_, i) => `edge-${i + 1}`);
  const peersOf = (name: string) =>
    count <= FULL_MESH_LIMIT || name === "edge-1" ? names.filter((other) => other !== name) : ["edge-1"];
  return FleetFile.parse({
    portBase: 8443,
    appliances: names.map((name, i) => ({
      name,
      seed: 1001 + i,
      profile,
      webUi: {
        listener: { address: "127.0.0.1", port: 8443 + i },
        hostname: `${name}.bng.localhost`,
        peers: peersOf(name).map((peer) => ({ name: peer })),
      },
    })),
  });
}

/** The fleet to run: `--appliances`/`--profile`'s own, else the fleet file given, else the shipped one. */
async function fleetOf(
  given: (key: keyof typeof START_OPTIONS) => Given,
): Promise<{ fleetPath: string; fleet: FleetFile; baseDir: string }> {
  const count = given("appliances");
  const profile = given("profile");
  const file = given("fleet");
  if (count.text === undefined && profile.text === undefined) {
    const fleetPath =
      file.text !== undefined ? path.resolve(file.text) : path.join(projectDir, "fleet-config", "fleet.json");
    return { fleetPath, fleet: await loadFleetFile(fleetPath), baseDir: path.dirname(fleetPath) };
  }
  // The flag, not BNG_FLEET: a variable left in the environment gives way to the flags typed.
  if (file.label === "--fleet")
    throw new UsageError(
      `${count.text !== undefined ? count.label : profile.label} makes a fleet of its ` +
        `own: give it or --fleet, not both`,
    );
  const appliances =
    wholeNumber(count, 1, MAX_APPLIANCES, `a whole number of appliances from 1 to ${MAX_APPLIANCES}`) ?? 3;
  const profileName = profile.text ?? "small";
  if (!isShippedProfile(profileName) && !/\.json$/i.test(profileName)) {
    throw new UsageError(
      `${profile.label} must be one of ${PROFILE_NAMES.join(", ")} or a profile file ` +
        `ending in .json, not '${profileName}'`,
    );
  }
  const fleetPath =
    `the fleet of ${appliances} '${profileName}' ` +
    `appliance${appliances === 1 ? "" : "s"} (--appliances, --profile)`;
  return { fleetPath, fleet: generatedFleet(appliances, profileName), baseDir: process.cwd() };
}

/** A scenario given by path, or by the name of a shipped one (`radius-outage` for scenarios/radius-outage.json). */
export function scenarioPathOf(text: string): string {
  const shipped = path.join(SHIPPED_SCENARIOS, `${text}.json`);
  return /^[a-z0-9-]+$/.test(text) && !existsSync(text) && existsSync(shipped) ? shipped : path.resolve(text);
}

/**
 * What a start was given for one option: the command line's flag if present, else its environment variable. `label`
 * names whichever was used, so a message names what the user typed.
 */
type Given = { text: string | undefined; label: string };

/** Reads an option given as a flag (`--port-base 9443`) or, failing that, as its variable (`BNG_PORT_BASE=9443`). */
function reader(env: NodeJS.ProcessEnv, flags: StartFlags) {
  return (key: keyof typeof START_OPTIONS): Given => {
    const spec: OptionSpec = START_OPTIONS[key];
    const flag = flags[key];
    if (flag !== undefined) return { text: flag === true ? "1" : String(flag), label: `--${spec.flag}` };
    const value = spec.env ? env[spec.env] : undefined;
    // An unset or empty variable is "not configured": the Worker then gets no binding at all.
    return { text: value === undefined || value === "" ? undefined : value, label: spec.env ?? `--${spec.flag}` };
  };
}

/** An on/off option; anything but the usual spellings is a mistake worth reporting. */
function onOff({ text, label }: Given): boolean {
  const value = (text ?? "").trim().toLowerCase();
  if (["", "0", "false", "no", "off"].includes(value)) return false;
  if (["1", "true", "yes", "on"].includes(value)) return true;
  throw new UsageError(`${label} must be 1 or 0, not '${text}'`);
}

/** A whole number from `min` to `max`, or undefined when not given. */
function wholeNumber({ text, label }: Given, min: number, max: number, what: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max)
    throw new UsageError(`${label} must be ${what}, not '${text}'`);
  return value;
}

/** The data dir as given (relative to where the command ran), else `.bngfleet/data` under `home`. */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env, flags: StartFlags = {}, home = projectDir): string {
  const { text } = reader(env, flags)("dataDir");
  return text !== undefined ? path.resolve(text) : path.join(home, ".bngfleet", "data");
}

/**
 * Resolves a start's settings from its flags (the CLI's, or startFleet()'s options) and the environment (BNG_FLEET,
 * BNG_PORT_BASE, BNG_DATA_DIR, BNG_HTTP, BNG_FRESH, …): a flag wins over its variable. `home` is where the default
 * data dir lives (the repository, or the directory a packaged CLI runs in). Throws a UsageError naming the flag or
 * variable at fault.
 */
export async function loadSettings(
  env: NodeJS.ProcessEnv = process.env,
  flags: StartFlags = {},
  home = projectDir,
): Promise<Settings> {
  const given = reader(env, flags);
  const dataDir = dataDirOf(env, flags, home);
  const http = onOff(given("http"));
  const fresh = onOff(given("fresh"));
  const listenerGiven = given("listener");
  const listener = listenerGiven.text ?? (http ? "workerd" : "relay");
  if (listener !== "workerd" && listener !== "relay")
    throw new UsageError(`${listenerGiven.label} must be 'workerd' or 'relay', not '${listener}'`);

  // Paths given are the user's, so relative to where they ran the command; the shipped fleet file is the product's.
  const { fleetPath, fleet, baseDir } = await fleetOf(given);
  const profiles = await loadUserProfiles(fleetPath, baseDir, fleet);

  const portBaseGiven = given("portBase");
  const portBase = wholeNumber(portBaseGiven, 1, 65535, "a port number (1-65535)") ?? fleet.portBase;

  const appliances = fleet.appliances.map((appliance, i): ApplianceListener => {
    const { address, port: filePort } = appliance.webUi.listener;
    // Every listener keeps its offset from the file's portBase, so one
    // option moves the whole fleet (e.g. to run two fleets side by side).
    const port = filePort - fleet.portBase + portBase;
    if (port < 1 || port > 65535) {
      throw new UsageError(
        `${fleetPath}: appliances.${i}.webUi.listener.port ${filePort} moved by ${portBaseGiven.label}=${portBase} ` +
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
    if (other) throw new UsageError(`${fleetPath}: ${other} and ${appliance.name} both listen on ${key}`);
    seen.set(key, appliance.name);
  }

  const inspectorPort = wholeNumber(given("inspectorPort"), 1, 65535, "a port number (1-65535)");

  // One workerd runs every isolate on one thread: a fleet too big for one core's bring-up is spread over several.
  const shards =
    wholeNumber(given("shards"), 1, MAX_SHARDS, `a whole number of workerd processes from 1 to ${MAX_SHARDS}`) ?? 1;

  const tokenGiven = given("bootstrapToken");
  const bootstrapToken = tokenGiven.text;
  if (bootstrapToken !== undefined && !isWellFormedToken(bootstrapToken)) {
    throw new UsageError(
      `${tokenGiven.label} is not a well-formed token (bngtok_ + 30 base62 characters ` +
        `+ a 6-character checksum); make one with 'bngfleet token'`,
    );
  }

  // The password the first admin gets is held to the account rules (length, not a common one: issue #22).
  const passwordGiven = given("adminPassword");
  const adminPassword = passwordGiven.text;
  if (adminPassword !== undefined && !(await isNewPassword(adminPassword))) {
    throw new UsageError(
      `${passwordGiven.label} must be 8-256 characters, not the development default ` +
        `and not a commonly used password; choose another`,
    );
  }

  const clockGiven = given("clock");
  if (clockGiven.text !== undefined && clockGiven.text !== "manual")
    throw new UsageError(`${clockGiven.label} must be 'manual' or unset, not '${clockGiven.text}'`);
  const clockStartGiven = given("clockStart");
  const clockStart = clockStartGiven.text;
  if (clockStart !== undefined && clockStartOf({ BNG_CLOCK_START: clockStart }) === null) {
    throw new UsageError(
      `${clockStartGiven.label} must be an ISO 8601 instant with its zone, such as ` +
        `2026-03-02T09:00:00Z, not '${clockStart}'`,
    );
  }

  const scenarioGiven = given("scenario");
  const scenario =
    scenarioGiven.text === undefined
      ? undefined
      : { path: scenarioPathOf(scenarioGiven.text), label: scenarioGiven.label };

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
    manualClock: clockGiven.text === "manual",
    clockStart,
    scenario,
    appliances,
    profiles,
  };
}
