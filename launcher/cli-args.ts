/** Reading a command's arguments, shared by every command of the CLI (launcher/cli.ts). */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./config.ts";
import type { WorkerSource } from "./launch.ts";

/** What the CLI runs with: the package's prebuilt files, or the repository's sources. */
export type Product = {
  version: string;
  /** Where the default data dir (.bngfleet/data) goes: the directory the command ran in, or the repository. */
  home: string;
  worker: WorkerSource;
  /** The OpenAPI document every appliance serves at /api/v1/openapi/v1.json, as text. */
  openapi(): Promise<string>;
};

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
    throw new UsageError(
      `bngfleet ${command}: ${message.charAt(0).toLowerCase()}${message.slice(1)} (see bngfleet ${command} --help)`,
    );
  }
}
