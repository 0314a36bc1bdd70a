/**
 * `npm run dev`: the fleet through `wrangler dev` (workerd, as deployed: no launcher, no BNG_LOCAL_FLEET), on
 * http://127.0.0.1:8787. A host naming no appliance is `edge-1`'s (BNG_DEFAULT_APPLIANCE); each appliance
 * also answers at its fleet-file hostname (`http://edge-2.bng.localhost:8787`), and every one through the
 * fleet proxy. Deployed rules hold, so the first run writes `.bngfleet/dev/dev.vars` with a fleet secret,
 * an administrator password and a bootstrap token, printed here and kept for later runs.
 *
 * Usage: npm run dev [-- <wrangler dev options, e.g. --port 9000>]   (BNG_DEV_DIR moves .bngfleet/dev)
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildUi } from "./build-ui.ts";
import { newToken } from "../src/trust/tokens.ts";

const root = path.resolve(import.meta.dirname, "..");
const dir = path.resolve(process.env.BNG_DEV_DIR ?? path.join(root, ".bngfleet", "dev"));
const vars = path.join(dir, "dev.vars");
mkdirSync(dir, { recursive: true });
if (!existsSync(vars)) {
  const lines = [
    `BNG_FLEET_SECRET=${randomBytes(32).toString("hex")}`,
    `BNG_ADMIN_PASSWORD=${randomBytes(12).toString("base64url")}`,
    `BNG_BOOTSTRAP_TOKEN=${newToken()}`,
  ];
  writeFileSync(vars, lines.join("\n") + "\n", { mode: 0o600 });
}
const values = Object.fromEntries(
  readFileSync(vars, "utf8")
    .split("\n")
    .filter((l) => l.includes("="))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
);
console.log(
  `Credentials (${vars}): admin / ${values.BNG_ADMIN_PASSWORD}; bootstrap token ${values.BNG_BOOTSTRAP_TOKEN}`,
);
await buildUi({ quiet: true });
const wrangler = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const extra = process.argv.slice(2);
const port = extra.some((a) => a.startsWith("--port")) ? [] : ["--port", "8787"];
const args = [
  "dev",
  "--ip",
  "127.0.0.1",
  ...port,
  "--env-file",
  vars,
  "--var",
  "BNG_DEFAULT_APPLIANCE:edge-1",
  "--persist-to",
  path.join(dir, "state"),
  "--show-interactive-dev-session=false",
  ...extra,
];
// Offline as the rest of the project: no `Request.cf` download (Miniflare's placeholder is used), no usage metrics.
const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", ...process.env };
const child = spawn(process.execPath, [wrangler, ...args], { cwd: root, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
