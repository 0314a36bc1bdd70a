/**
 * `npm run bench -- --package`: the package as a user meets it (issue #46). The tarball `npm pack` makes; `npm
 * install` of it into an empty project, with this machine's npm cache and with an empty one (every dependency from
 * the registry); and the time from `bngfleet start --json` (and from `startFleet()`) to every appliance of a
 * three-appliance fleet answering, with a fresh data folder and again with the same one. The goal for a test runner
 * that starts a fleet per suite: 1.5 s. A Node loop's time is printed beside it, as a measure of this machine's
 * speed at that moment (full speed: 0.72-0.77 s).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePortBase } from "../harness/fleet-process.ts";
import { quantile } from "./load.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** Seconds a loop of 3·10⁸ additions takes in this process: the machine's speed now. */
function nodeLoopSeconds(): number {
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < 3e8; i++) x += i;
  if (x < 0) console.log(x);
  return (performance.now() - t0) / 1000;
}

const fmt = (seconds: number) => seconds.toFixed(2);
const spread = (values: number[]) =>
  `median ${fmt(
    quantile(
      values.toSorted((a, b) => a - b),
      0.5,
    ),
  )} s (${fmt(Math.min(...values))}-${fmt(Math.max(...values))}, ${values.length} runs)`;

/** Seconds from spawning `bngfleet start --json` to its line; the fleet then stopped with SIGINT, as Ctrl-C does. */
async function cliStart(project: string, env: NodeJS.ProcessEnv, dataDir: string): Promise<number> {
  const portBase = await freePortBase(3);
  const t0 = performance.now();
  const child = spawn(
    path.join(project, "node_modules", ".bin", "bngfleet"),
    ["start", "--http", "--appliances", "3", "--port-base", String(portBase), "--data-dir", dataDir, "--json"],
    { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr!.on("data", (chunk) => (err += chunk));
  const seconds = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", () => resolve((performance.now() - t0) / 1000));
    child.once("exit", (code) => reject(new Error(`bngfleet start exited with ${code}:\n${err}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
  return seconds;
}

/** Seconds from calling startFleet() to its promise resolving, measured in the script that calls it. */
async function apiStart(project: string, env: NodeJS.ProcessEnv, dataDir: string): Promise<number> {
  const portBase = await freePortBase(3);
  const script = path.join(project, "bench-start.mjs");
  await writeFile(
    script,
    `import { startFleet } from "bngfleet";
const t0 = performance.now();
const fleet = await startFleet({
  appliances: 3,
  http: true,
  portBase: ${portBase},
  dataDir: ${JSON.stringify(dataDir)},
});
const seconds = (performance.now() - t0) / 1000;
await fleet.stop();
console.log(seconds);
`,
  );
  const { stdout } = await run(process.execPath, [script], { cwd: project, env });
  return Number(stdout.trim());
}

export async function packageBench(options: { rounds: number }): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), "bngfleet-bench-package-"));
  try {
    console.log(`Machine: a Node loop of 3·10⁸ additions takes ${fmt(nodeLoopSeconds())} s (full speed 0.72-0.77 s)`);
    await run("npm", ["pack", "--pack-destination", scratch], { cwd: ROOT, maxBuffer: 64 << 20 });
    const tarball = path.join(scratch, (await readdir(scratch)).find((name) => name.endsWith(".tgz"))!);
    console.log(`Tarball: ${path.basename(tarball)}, ${((await stat(tarball)).size / 1024 / 1024).toFixed(2)} MB`);

    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
    for (const [label, extra] of [
      ["npm's cache on this machine", ["--prefer-offline"]],
      ["an empty npm cache (every package from the registry)", ["--cache", path.join(scratch, "empty-cache")]],
    ] as const) {
      const project = path.join(scratch, label.startsWith("an empty") ? "cold" : "warm");
      await rm(project, { recursive: true, force: true });
      await run("mkdir", ["-p", project]);
      await writeFile(
        path.join(project, "package.json"),
        JSON.stringify({ name: "bench", private: true, type: "module" }),
      );
      const t0 = performance.now();
      await run("npm", ["install", "--no-audit", "--no-fund", ...extra, tarball], { cwd: project, env });
      const seconds = (performance.now() - t0) / 1000;
      // Counted from what npm installed, not its "added N packages" line, which `npm run -s` silences.
      const installed = JSON.parse(
        await readFile(path.join(project, "node_modules", ".package-lock.json"), "utf8"),
      ) as { packages: Record<string, unknown> };
      const added = Object.keys(installed.packages).filter((key) => key.startsWith("node_modules/")).length;
      const { stdout: du } = await run("du", ["-sm", path.join(project, "node_modules")]);
      console.log(
        `npm install, ${label}: ${fmt(seconds)} s, ${added} packages, ${du.split("\t")[0]} MB in node_modules`,
      );
    }

    const project = path.join(scratch, "warm");
    for (const [what, start] of [
      ["bngfleet start --json", cliStart],
      ["startFleet()", apiStart],
    ] as const) {
      const fresh: number[] = [];
      const again: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const dataDir = path.join(scratch, `data-${what.length}-${round}`);
        fresh.push(await start(project, env, dataDir));
        again.push(await start(project, env, dataDir));
      }
      console.log(
        `${what} to three appliances answering: fresh data ${spread(fresh)}; the same ` +
          `data again ${spread(again)} (goal 1.5 s)`,
      );
    }
    console.log(`Machine after: a Node loop of 3·10⁸ additions takes ${fmt(nodeLoopSeconds())} s`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
