/**
 * The options a fleet start takes, in one table: each one's command-line flag, its environment variable (the
 * variables came first, and keep working; a flag wins over its variable), the placeholder of its value (none: an
 * on/off flag) and one line of help. The CLI's parser and `--help`, the settings (config.ts) and startFleet()'s
 * options (index.ts) all read it, so a new option is one row here.
 */

/** One option of `bngfleet start`. */
export type OptionSpec = {
  /** The flag without its dashes: `port-base` is `--port-base`. */
  readonly flag: string;
  /** The environment variable it has always had, if any. */
  readonly env?: string;
  /** The placeholder of its value in `--help`; absent for an on/off flag. */
  readonly value?: string;
  readonly help: string;
};

export const START_OPTIONS = {
  appliances: {
    flag: "appliances",
    value: "N",
    help: "run N appliances, edge-1 to edge-N, each peering with the others (1-1000; default: the shipped fleet of 3)",
  },
  profile: {
    flag: "profile",
    value: "NAME",
    help: "their size: small, default, large, xlarge, or a profile file of your own (.json) (default: small)",
  },
  fleet: {
    flag: "fleet",
    env: "BNG_FLEET",
    value: "FILE",
    help: "a fleet file instead (appliances, ports, seeds, profiles, peers)",
  },
  http: { flag: "http", env: "BNG_HTTP", help: "serve plain HTTP instead of HTTPS with self-signed certificates" },
  portBase: {
    flag: "port-base",
    env: "BNG_PORT_BASE",
    value: "PORT",
    help: "the first appliance's port; the others follow (default 8443)",
  },
  dataDir: {
    flag: "data-dir",
    env: "BNG_DATA_DIR",
    value: "DIR",
    help: "where state, certificates and secrets live (default .bngfleet/data)",
  },
  fresh: {
    flag: "fresh",
    env: "BNG_FRESH",
    help: "start every appliance from empty state (secrets and certificates are kept)",
  },
  scenario: {
    flag: "scenario",
    env: "BNG_SCENARIO",
    value: "FILE",
    help: "run a scenario file (or a shipped one by name) on every appliance once up",
  },
  clock: {
    flag: "clock",
    env: "BNG_CLOCK",
    value: "manual",
    help: "manual: simulated time moves only when a scenario advances it",
  },
  clockStart: {
    flag: "clock-start",
    env: "BNG_CLOCK_START",
    value: "INSTANT",
    help: "the instant a fresh appliance's clock starts at (ISO 8601 with zone)",
  },
  adminPassword: {
    flag: "admin-password",
    env: "BNG_ADMIN_PASSWORD",
    value: "PASSWORD",
    help: "the first admin's password (prefer the variable: a flag shows in ps)",
  },
  bootstrapToken: {
    flag: "bootstrap-token",
    env: "BNG_BOOTSTRAP_TOKEN",
    value: "TOKEN",
    help: "a super-user API token every appliance accepts (default: one made and kept in the data dir)",
  },
  listener: {
    flag: "listener",
    env: "BNG_LISTENER",
    value: "workerd|relay",
    help: "who serves the public ports (default workerd with --http, else relay)",
  },
  shards: {
    flag: "shards",
    env: "BNG_SHARDS",
    value: "N",
    help: "spread the fleet over N workerd processes (1-16; default 1)",
  },
  inspectorPort: {
    flag: "inspector-port",
    env: "BNG_INSPECTOR_PORT",
    value: "PORT",
    help: "open workerd's V8 inspector (Chrome DevTools) on this loopback port",
  },
} as const satisfies Record<string, OptionSpec>;

export type StartOptionName = keyof typeof START_OPTIONS;

/** What a start was given on its command line: the option's text, or true for an on/off flag that was present. */
export type StartFlags = { [K in StartOptionName]?: string | boolean };
