/** Reading a command's arguments, shared by every command of the CLI (launcher/cli.ts). */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./config.ts";

/**
 * node:util's parseArgs, strict, with its complaints (an unknown option, a missing value) as UsageErrors naming
 * the command, so each reads as one line with exit status 2.
 */
export function parseCommand<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    // Strict by default: an unknown option or a missing value is an error.
    return parseArgs(config);
  } catch (error) {
    const message = (error as Error).message.split("\n")[0]!.replace(/\. To specify a positional argument.*$/, "");
    throw new UsageError(`bngfleet ${command}: ${message.charAt(0).toLowerCase()}${message.slice(1)} (see bngfleet ${command} --help)`);
  }
}
