/** A scratch project outside the repository with the packed bngfleet installed, as a user's own project has it. */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/** The environment a command in the project runs with: `node` (and so npm and npx) is the given Node.js binary. */
export function envWith(node: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: "1",
    ...extra,
    PATH: `${path.dirname(node)}:${process.env.PATH}`,
  };
  // Not the repository's: a user's shell has none of vitest's or npm's own variables.
  for (const name of Object.keys(env))
    if (name.startsWith("npm_") || name.startsWith("VITEST") || name === "NODE_OPTIONS" || name === "FORCE_COLOR")
      delete env[name];
  return env;
}

/** Runs a command in `cwd` to its end; rejects with its output when it fails. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeout = 300_000,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout, maxBuffer: 64 << 20 });
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: unknown };
    throw new Error(`${command} ${args.join(" ")} exited with ${String(code)}:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** Runs a command to its end and answers its status and output, failing or not. */
export function attempt(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeout = 120_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/**
 * Makes `dir` a project with the package installed from `tarball` (and, from `example`, an example's files and
 * dependencies).
 */
export async function installedProject(
  dir: string,
  tarball: string,
  env: NodeJS.ProcessEnv,
  example?: string,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (example) {
    await cp(example, dir, { recursive: true });
    const file = path.join(dir, "package.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as { devDependencies?: Record<string, string> };
    // The example names the published package; here it is the one just packed.
    if (manifest.devDependencies?.bngfleet) manifest.devDependencies.bngfleet = `file:${tarball}`;
    await writeFile(file, JSON.stringify(manifest, null, 2));
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], dir, env);
  } else {
    await writeFile(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "user-project", private: true, type: "module" }),
    );
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], dir, env);
  }
}

/** A command left running in its own process group (as a shell job is), its output kept. */
export function background(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  child.stderr!.on("data", (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The processes whose command line names `dir` (a fleet's launcher and workerd run from its node_modules). */
export async function processesIn(dir: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)("ps", ["-eo", "pid=,args="]).catch(() => ({ stdout: "" }));
  return stdout.split("\n").filter((line) => line.includes(dir) && !line.includes("ps -eo"));
}

/** Whether anything accepts a connection on 127.0.0.1:`port`. */
export async function listening(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Waits until `done` holds, up to `ms`. */
export async function until(done: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}
