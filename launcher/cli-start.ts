/**
 * `bngfleet start`: runs a fleet until stopped. Without --json it says what it is doing and prints the banner;
 * with --json everything for a person goes to stderr and stdout carries exactly one line, once every appliance
 * answers:
 * `{"appliances":[{"name":"edge-1","url":"http://127.0.0.1:8443","webUi":"http://edge-1.bng.localhost:8443/"},…],
 * "token":"bngtok_…","dataDir":"…"}`: `url` for API clients, `webUi` for a browser (launch.ts).
 * SIGINT and SIGTERM stop everything it started; so does its parent going away, when it was started with an IPC
 * channel (startFleet() starts it so: a test runner that dies leaves no fleet behind).
 */
import { loadSettings, UsageError } from "./config.ts";
import { launch, type RunningFleet } from "./launch.ts";
import { START_OPTIONS, type StartFlags, type StartOptionName } from "./options.ts";
import { banner } from "./banner.ts";
import { answerMemoryQueries } from "./launcher-memory.ts";
import { parseCommand } from "./cli-args.ts";
import type { Product } from "./cli-args.ts";

export const START_USAGE = `Usage: bngfleet start [options]

Runs a fleet of appliances on loopback until stopped (Ctrl-C or SIGTERM). Each flag but --json has an
environment variable of the same meaning (shown in brackets); a flag wins over its variable.

Options:
${Object.values(START_OPTIONS)
  .map((o) => {
    const left = `  --${o.flag}${"value" in o ? ` ${o.value}` : ""}`;
    return `${left.padEnd(30)}${o.help}${"env" in o ? ` [${o.env}]` : ""}`;
  })
  .join("\n")}
${"  --json".padEnd(30)}print one JSON line when every appliance answers (URLs, token, data dir), nothing else on stdout
${"  -h, --help".padEnd(30)}show this help

Examples:
  bngfleet start                                  the shipped fleet of three, HTTPS from port 8443
  bngfleet start --http --appliances 2 --json     two appliances over plain HTTP, for a test run
  bngfleet start --profile large --fresh          three large appliances from empty state`;

/** parseArgs's configuration for start: every option of the table, by its flag, plus --json. */
const parseOptions = {
  ...Object.fromEntries(
    Object.values(START_OPTIONS).map((o) => [
      o.flag,
      { type: "value" in o ? ("string" as const) : ("boolean" as const) },
    ]),
  ),
  json: { type: "boolean" as const },
};

export async function startCommand(args: string[], product: Product): Promise<number> {
  const { values, positionals } = parseCommand("start", { args, options: parseOptions, allowPositionals: true });
  if (positionals.length > 0)
    throw new UsageError(`bngfleet start takes options only, not '${positionals[0]}' (see bngfleet start --help)`);
  const flags: StartFlags = {};
  for (const [key, spec] of Object.entries(START_OPTIONS) as [
    StartOptionName,
    (typeof START_OPTIONS)[StartOptionName],
  ][]) {
    const value = (values as Record<string, string | boolean | undefined>)[spec.flag];
    if (value !== undefined) flags[key] = value as string | boolean;
  }
  const json = values.json === true;
  // What a person reads: stdout, or stderr when stdout is the pipeline's.
  const human = json ? process.stderr : process.stdout;
  const say = (line: string) => void human.write(line + "\n");

  answerMemoryQueries();
  const settings = await loadSettings(process.env, flags, product.home);
  const interrupt = new AbortController();
  let running: RunningFleet | undefined;
  let stopping = false;
  let stopped!: (code: number) => void;
  const ended = new Promise<number>((resolve) => (stopped = resolve));
  const stop = async (why: string) => {
    if (stopping) {
      console.error(`\n${why} again: exiting without waiting for shutdown`);
      process.exit(1);
    }
    stopping = true;
    // A start in progress is interrupted: launch() stops what it started and rejects.
    interrupt.abort();
    if (!running) return;
    say(`\n${why}: stopping the fleet…`);
    try {
      await running.stop();
      stopped(0);
    } catch (error) {
      console.error(`bngfleet: ${(error as Error).message}`);
      stopped(1);
    }
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal));
  // Started by startFleet() (an IPC channel): a parent that goes away, however it went, takes the fleet with it.
  process.on("disconnect", () => void stop("The process that started the fleet went away"));
  watchNpmParent(() => void stop("npm, which started the fleet, has ended"));

  try {
    running = await launch(settings, {
      worker: product.worker,
      say,
      signal: interrupt.signal,
      runtimeOutput: json ? "stderr" : "default",
    });
  } catch (error) {
    // Stopped by a signal while starting: not a failure.
    if (stopping) return 0;
    throw error;
  }
  if (json) {
    const { appliances, token, dataDir } = running;
    process.stdout.write(JSON.stringify({ appliances, token, dataDir }) + "\n");
  } else {
    say(banner(settings, performance.now() / 1000, running.tokenFile));
  }
  // Runs until stopped: the listeners and workerd keep the process alive.
  return ended;
}

/**
 * Run by npm (`npx bngfleet start`, `npm start`): npm passes no SIGTERM on to its child, so a script's
 * `kill $!` (the npx process) would leave the fleet running with no parent. Once the npm process that started
 * this one is gone, the fleet stops too. (Started any other way, a parent's end changes nothing: `nohup` keeps it.)
 */
function watchNpmParent(stop: () => void): void {
  if (process.env.npm_command === undefined) return;
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 1000).unref();
}
