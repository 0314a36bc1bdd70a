/**
 * `bngfleet` run from this repository's sources (`npm start` is `bngfleet start`): the same CLI the package ships
 * (launcher/cli.ts), with the Worker bundle built from the sources when they changed (scripts/build.ts) instead of
 * the package's prebuilt one. BNG_BUNDLE_DIR runs an already-built bundle instead (the e2e suite builds one per run).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { stop as stopEsbuild } from "esbuild";
import { runCli } from "../launcher/cli.ts";
import type { Product } from "../launcher/cli-args.ts";
import { projectDir } from "../launcher/config.ts";
import { buildBundle } from "./build.ts";
import { UNCHANGED_NOTE } from "./bundle-digest.ts";

const prebuilt = process.env.BNG_BUNDLE_DIR ? path.resolve(process.env.BNG_BUNDLE_DIR) : undefined;
const bundleDir = prebuilt ?? path.join(projectDir, ".bngfleet", "build");

const product: Product = {
  version: (JSON.parse(readFileSync(path.join(projectDir, "package.json"), "utf8")) as { version: string }).version,
  home: projectDir,
  worker: {
    dir: bundleDir,
    ...(prebuilt
      ? {}
      : {
          build: async (signal, say) => {
            try {
              const outcome = await buildBundle(projectDir, bundleDir, signal, say);
              if (outcome === "unchanged")
                say(
                  `${UNCHANGED_NOTE} since ${path.relative(process.cwd(), bundleDir) || "."} was ` +
                    `built; not built again`,
                );
            } finally {
              // esbuild's service process (the web UI's build, in this process) would otherwise ping the launcher every
              // second for the fleet's life, and nothing else here uses it.
              await stopEsbuild();
            }
          },
        }),
    workerdWrapper: {
      script: path.join(projectDir, "launcher", "workerd.sh"),
      rewriter: path.join(projectDir, "launcher", "workerd-config.ts"),
    },
    wranglerToml: path.join(projectDir, "wrangler.toml"),
  },
  openapi: async () =>
    (
      await promisify(execFile)(process.execPath, [path.join(projectDir, "scripts", "openapi.ts")], {
        maxBuffer: 64 << 20,
      })
    ).stdout,
};

const code = await runCli(process.argv.slice(2), product);
// Not process.exit() at once: a stopped fleet's Miniflare removes its temporary folder without waiting for it.
process.exitCode = code;
setTimeout(() => process.exit(code), 2000).unref();
