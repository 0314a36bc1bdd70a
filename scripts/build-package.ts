/**
 * `npm run build` (and `npm pack`'s prepack): makes dist/, everything the installed package runs from, so that a
 * user's `bngfleet start` builds nothing and runs no TypeScript:
 *
 *   dist/worker/          the Worker bundle, exactly as `wrangler deploy --dry-run` makes it (scripts/build.ts), with
 *                         the web UI's files; its source map and the build's records are left out (size)
 *   dist/wrangler.toml    the deploy configuration, pointing at that bundle, for a user who deploys it themselves
 *   dist/cli.js           the `bngfleet` command (launcher/bin.ts), which runs dist/main.js (launcher/bin-main.ts)
 *   dist/index.js         startFleet() (launcher/index.ts), and dist/index.d.ts its types
 *   dist/workerd-config.js  the rewriter of workerd's configuration (launcher/workerd-config.ts), and workerd.sh
 *   dist/openapi.json     the OpenAPI document every appliance serves
 *
 * Only Miniflare (with the workerd binary it brings) stays a dependency installed from the registry; zod, the
 * certificate and token code and the rest are bundled in.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { buildBundle } from "./build.ts";

const projectDir = path.resolve(import.meta.dirname, "..");
const dist = path.join(projectDir, "dist");
const worker = path.join(dist, "worker");

rmSync(dist, { recursive: true, force: true });
await buildBundle(projectDir, worker);
for (const name of readdirSync(worker)) {
  if (name.endsWith(".map") || name.endsWith(".json") || name === "README.md") rmSync(path.join(worker, name));
}

// The deploy configuration a user copies: this repository's, its entry the prebuilt bundle (uploaded as built,
// its text modules found beside it by the same rule that made them).
const toml = readFileSync(path.join(projectDir, "wrangler.toml"), "utf8")
  .replace(/^main = .*$/m, 'main = "node_modules/bngfleet/dist/worker/index.js"\n# Already bundled: uploaded as it is, with the modules beside it.\nno_bundle = true\nfind_additional_modules = true')
  .replace(/^\[\[rules\]\][\s\S]*$/m, '[[rules]]\ntype = "Text"\nglobs = ["**/*-app.js", "**/*-app.css", "**/*-swagger-ui-bundle.js", "**/*-swagger-ui.css"]\nfallthrough = false\n');
writeFileSync(path.join(dist, "wrangler.toml"), toml);

await build({
  absWorkingDir: projectDir,
  // Each file whole, all in dist/: the launcher finds the package's files from its own folder (launcher/config.ts).
  entryPoints: { cli: "launcher/bin.ts", main: "launcher/bin-main.ts", index: "launcher/index.ts", "workerd-config": "launcher/workerd-config.ts" },
  outdir: dist,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // Installed from the registry with its workerd binary; everything else is in the bundle.
  external: ["miniflare"],
  // Bundled CommonJS packages may call require(): give ESM output one.
  banner: { js: 'import { createRequire as __bngCreateRequire } from "node:module"; const require = __bngCreateRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(path.join(projectDir, "launcher", "workerd.sh"), path.join(dist, "workerd.sh"));

// The API's types: launcher/index.ts's declarations, which import nothing.
execFileSync(process.execPath, [path.join(projectDir, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(projectDir, "launcher", "tsconfig.types.json")], { stdio: "inherit" });
copyFileSync(path.join(dist, "types", "index.d.ts"), path.join(dist, "index.d.ts"));
rmSync(path.join(dist, "types"), { recursive: true });

execFileSync(process.execPath, [path.join(projectDir, "scripts", "openapi.ts"), path.join(dist, "openapi.json")], { stdio: "inherit" });

const size = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size), 0);
console.log(`dist/: ${(size(dist) / 1024 / 1024).toFixed(1)} MB (the Worker bundle ${(size(worker) / 1024 / 1024).toFixed(1)} MB)`);
