/**
 * `bngfleet`: the command line. Each command is a function of its arguments that answers an exit status; bad
 * input is a UsageError (one line, status 2), a failure the user can act on a LaunchError (status 1).
 */
import { LaunchError, UsageError } from "./config.ts";
import { startCommand, START_USAGE } from "./cli-start.ts";
import { scenarioCommand, SCENARIO_USAGE } from "./cli-scenario.ts";
import { licenceCommand, LICENCE_USAGE } from "./licence.ts";
import { upgradePackageCommand, UPGRADE_PACKAGE_USAGE } from "./upgrade-package.ts";
import { newToken } from "../src/trust/tokens.ts";
import type { Product } from "./cli-args.ts";

const TOKEN_USAGE = `Usage: bngfleet token

Prints a new well-formed API token (bngtok_…), for --bootstrap-token or BNG_BOOTSTRAP_TOKEN.`;

const OPENAPI_USAGE = `Usage: bngfleet openapi

Prints the OpenAPI 3.1 document of the management API, as every appliance serves it at /api/v1/openapi/v1.json:
for client generators (openapi-typescript), mock and contract tools (Prism, Dredd) and linters.`;

const usage = (
  version: string,
) => `bngfleet ${version}: a fleet of broadband gateway (BNG) twins, each serving its management REST API
and web UI, with state that agrees with itself, events and faults.

Usage: bngfleet <command> [options]

Commands:
  start             run a fleet until stopped (Ctrl-C, SIGTERM)
  token             print a new well-formed API token
  scenario FILE     run a scenario file against a running appliance
  openapi           print the API's OpenAPI 3.1 document
  upgrade-package   make a software package the fleet's appliances accept
  licence           issue a licence activation token or offline lease

Options:
  -h, --help        show help (bngfleet <command> --help for a command's)
  -v, --version     print the version

Run 'bngfleet start --help' to begin.`;

/** The commands, each with its usage text and what runs it. */
const COMMANDS: Record<string, { usage: string; run: (args: string[], product: Product) => Promise<number> }> = {
  start: { usage: START_USAGE, run: startCommand },
  token: { usage: TOKEN_USAGE, run: async (args) => (noArguments("token", args), console.log(newToken()), 0) },
  scenario: { usage: SCENARIO_USAGE, run: scenarioCommand },
  openapi: {
    usage: OPENAPI_USAGE,
    run: async (args, product) => (noArguments("openapi", args), process.stdout.write(await product.openapi()), 0),
  },
  "upgrade-package": { usage: UPGRADE_PACKAGE_USAGE, run: upgradePackageCommand },
  licence: { usage: LICENCE_USAGE, run: licenceCommand },
};

/** A command that takes nothing refuses anything it is given. */
function noArguments(command: string, args: string[]): void {
  if (args.length > 0) throw new UsageError(`bngfleet ${command} takes no arguments, not '${args[0]}'`);
}

/** Runs `bngfleet <args>` and answers its exit status. */
export async function runCli(args: string[], product: Product): Promise<number> {
  try {
    const [first, ...rest] = args;
    if (first === undefined || first === "-h" || first === "--help" || first === "help") {
      const topic = first === "help" ? rest[0] : undefined;
      if (topic !== undefined && !Object.hasOwn(COMMANDS, topic))
        throw new UsageError(`unknown command '${topic}' (bngfleet --help lists them)`);
      console.log(topic ? COMMANDS[topic]!.usage : usage(product.version));
      return first === undefined ? 2 : 0;
    }
    if (first === "-v" || first === "--version") return (console.log(product.version), 0);
    if (first.startsWith("-"))
      throw new UsageError(`unknown option '${first}': a command comes first (bngfleet --help lists them)`);
    const command = COMMANDS[first];
    if (!command) throw new UsageError(`unknown command '${first}' (bngfleet --help lists them)`);
    if (rest.includes("--help") || rest.includes("-h")) return (console.log(command.usage), 0);
    return await command.run(rest, product);
  } catch (error) {
    if (error instanceof LaunchError) {
      // A message that names its command ("bngfleet start: …") says whose it is already.
      console.error(error.message.startsWith("bngfleet ") ? error.message : `bngfleet: ${error.message}`);
      return error.exitCode;
    }
    console.error("bngfleet: failed:", error);
    return 1;
  }
}
