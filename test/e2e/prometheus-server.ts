/**
 * Debian's `prometheus` for end-to-end tests: on loopback, at a port the OS picks, named in its "Listening on" log
 * line.
 */
import { spawn, spawnSync } from "node:child_process";

export interface RunningPrometheus {
  /** host:port of its web API. */
  address: string;
  log: () => string;
  stop: () => Promise<void>;
}

/** Fails naming the script that installs them when Debian's `prometheus` or `promtool` is missing. */
export function requirePrometheus(): void {
  for (const tool of ["prometheus", "promtool"]) {
    const found = spawnSync(tool, ["--version"], { encoding: "utf8" });
    if (found.error || found.status !== 0)
      throw new Error(
        `${tool} is not installed: run \`bash scripts/install-test-deps.sh\` (npm test's ` +
          `pretest does; Debian's prometheus)`,
      );
  }
}

/** Starts `prometheus` with `args` (its config and storage flags) and waits until it is ready. */
export async function startPrometheus(args: string[]): Promise<RunningPrometheus> {
  const child = spawn("prometheus", [...args, "--web.listen-address=127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (c) => (log += c));
  child.stderr.on("data", (c) => (log += c));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 30_000;
  let address: string | undefined;
  for (;;) {
    address ??= /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(log)?.[1];
    if (
      address &&
      (await fetch(`http://${address}/-/ready`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { address, log: () => log, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready in 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
