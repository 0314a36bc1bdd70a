#!/usr/bin/env node
/**
 * The package's `bngfleet` command (dist/cli.js). The version check comes first, in a module of its own: Miniflare
 * needs Node.js 22 or newer, and an older one should hear so in a sentence, not a stack trace. The CLI itself is
 * dist/main.js, bundled from launcher/bin-main.ts (scripts/build-package.ts).
 */
const [major] = process.versions.node.split(".").map(Number);
if (major! < 22) {
  console.error(`bngfleet needs Node.js 22 or newer; this is ${process.version}`);
  process.exit(1);
}
// V8's compiled code for the CLI and Miniflare (4 MB of JavaScript each start) kept on disk between runs, in the
// system's temporary folder: about a tenth of a start's CPU in the launcher (Node.js 22.1 and later).
(await import("node:module")).enableCompileCache?.();
// A name esbuild leaves alone: main.js is built beside this file, not bundled into it.
const main = "./main.js";
await import(main);
export {};
