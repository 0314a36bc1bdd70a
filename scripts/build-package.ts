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
import { copyFileSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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

// The deploy configuration a user copies into their project: this repository's Worker, object and migration, its
// entry the prebuilt bundle, uploaded as built with its text modules beside it.
const repositoryToml = readFileSync(path.join(projectDir, "wrangler.toml"), "utf8");
const line = (key: string) => new RegExp(`^${key} = .*$`, "m").exec(repositoryToml)?.[0] ?? "";
writeFileSync(
  path.join(dist, "wrangler.toml"),
  `# bngfleet's Worker, deployed from your project to your Cloudflare account: copy this file to your project as
# wrangler.toml, set its secrets (docs: "Deploying the package's Worker"), then \`npx wrangler deploy\`.
# One Worker serves every appliance of the fleet; each appliance is one Durable Object of the \`Appliance\` class,
# and the request's hostname picks it.
name = "bngfleet"
# Built when the package was packed (the same bundle \`bngfleet start\` runs): uploaded as it is.
main = "node_modules/bngfleet/dist/worker/index.js"
no_bundle = true
find_additional_modules = true
${line("compatibility_date")}
${line("compatibility_flags")}

[[durable_objects.bindings]]
name = "Appliance"
class_name = "Appliance"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["Appliance"]

# The web UI and the API reference viewer, beside the bundle as text modules.
[[rules]]
type = "Text"
globs = ["**/*-app.js", "**/*-app.css", "**/*-swagger-ui-bundle.js", "**/*-swagger-ui.css"]
fallthrough = false
`,
);

await build({
  absWorkingDir: projectDir,
  // Each file whole, all in dist/: the launcher finds the package's files from its own folder (launcher/config.ts).
  // (Split into chunks, a start parsed 1.3 MB less, but measured no faster, and a CommonJS package imported
  // dynamically lost its named exports.)
  entryPoints: {
    cli: "launcher/bin.ts",
    main: "launcher/bin-main.ts",
    index: "launcher/index.ts",
    "workerd-config": "launcher/workerd-config.ts",
  },
  outdir: dist,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // Installed from the registry with its workerd binary; everything else is in the bundle.
  external: ["miniflare"],
  // Bundled CommonJS packages may call require(): give ESM output one.
  banner: {
    js:
      'import { createRequire as __bngCreateRequire } from "node:module"; const ' +
      "require = __bngCreateRequire(import.meta.url);",
  },
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(path.join(projectDir, "launcher", "workerd.sh"), path.join(dist, "workerd.sh"));

// The API's types: launcher/index.ts's declarations, which import nothing.
execFileSync(
  process.execPath,
  [
    path.join(projectDir, "node_modules", "typescript", "bin", "tsc"),
    "-p",
    path.join(projectDir, "launcher", "tsconfig.types.json"),
  ],
  { stdio: "inherit" },
);
copyFileSync(path.join(dist, "types", "index.d.ts"), path.join(dist, "index.d.ts"));
rmSync(path.join(dist, "types"), { recursive: true });

execFileSync(process.execPath, [path.join(projectDir, "scripts", "openapi.ts"), path.join(dist, "openapi.json")], {
  stdio: "inherit",
});

const size = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, e) => sum + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
    0,
  );
console.log(
  `dist/: ${(size(dist) / 1024 / 1024).toFixed(1)} MB (the Worker ` +
    `bundle ${(size(worker) / 1024 / 1024).toFixed(1)} MB)`,
);
