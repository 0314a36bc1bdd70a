/**
 * Run by launcher/workerd.sh each time Miniflare starts workerd: the configuration Miniflare wrote, on stdin,
 * rewritten to stdout: the Worker's module sources set from their files (module-sources.ts) and the appliances'
 * public sockets (public-sockets.ts). Both come from the environment Miniflare gives workerd, as JSON: the module
 * files by name (BNG_MODULE_FILES) and the public sockets (BNG_PUBLIC_SOCKETS, whose keys stay in their files), with
 * the launch's wiring secret the sockets inject (BNG_WIRING_SECRET); workerd.sh keeps them all out of workerd's
 * environment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { applyModuleSources } from "./module-sources.ts";
import { applyPublicSockets, type PublicSocket } from "./public-sockets.ts";
import { readConfig, writeConfig } from "./workerd-message.ts";

const { message, root } = readConfig(readFileSync(0));
// The sockets' small additions first, the sources last: each addition grows the message by a copy of all of it
// (module-sources.ts), so the megabytes of sources are copied a handful of times, not once per socket header.
applyPublicSockets(
  root,
  JSON.parse(process.env.BNG_PUBLIC_SOCKETS ?? "[]") as PublicSocket[],
  process.env.BNG_WIRING_SECRET ?? "",
);
applyModuleSources(root, JSON.parse(process.env.BNG_MODULE_FILES ?? "{}") as Record<string, string>);
writeFileSync(1, writeConfig(message));
