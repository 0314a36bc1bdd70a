/**
 * The package's CLI on the package's own files: the prebuilt Worker bundle (dist/worker/), the public sockets'
 * configuration rewriter, the OpenAPI document made when the package was packed (scripts/build-package.ts), and the
 * default data dir under the directory the command runs in.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { runCli } from "./cli.ts";
import { projectDir } from "./config.ts";

/** dist/, where the bundled CLI runs from. */
const here = import.meta.dirname;

const code = await runCli(process.argv.slice(2), {
  version: (JSON.parse(readFileSync(path.join(projectDir, "package.json"), "utf8")) as { version: string }).version,
  home: process.cwd(),
  worker: {
    dir: path.join(here, "worker"),
    workerdWrapper: { script: path.join(here, "workerd.sh"), rewriter: path.join(here, "workerd-config.js") },
    wranglerToml: path.join(here, "wrangler.toml"),
  },
  openapi: () => readFile(path.join(here, "openapi.json"), "utf8"),
});
// Not process.exit() at once: a stopped fleet's Miniflare removes its temporary folder without waiting for it.
process.exitCode = code;
setTimeout(() => process.exit(code), 2000).unref();
