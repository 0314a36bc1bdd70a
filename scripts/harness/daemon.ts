/**
 * A lab daemon the tests and benches run beside the fleet (FreeRADIUS, rsyslogd): started in the foreground, ready
 * once every port it serves accepts a connection on 127.0.0.1, stopped with SIGTERM; its output kept for the error.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";

/** A daemon that can be stopped and started again (a receiver's outage). */
export interface Daemon {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `command` with `args` (and `env`) until stopped, each start waiting for `ports` to listen. */
export function daemon(
  name: string,
  command: string,
  args: string[],
  ports: number[],
  env?: NodeJS.ProcessEnv,
): Daemon {
  let child: ChildProcess | null = null;
  let output = "";
  return {
    async start() {
      const process = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...(env ? { env } : {}) });
      process.stdout!.on("data", (chunk) => (output += chunk));
      process.stderr!.on("data", (chunk) => (output += chunk));
      child = process;
      for (let attempt = 0; ; attempt++) {
        if (process.exitCode !== null) throw new Error(`${name} exited with ${process.exitCode}: ${output}`);
        const up = await Promise.all(ports.map((port) => listening(port)));
        if (up.every(Boolean)) return;
        if (attempt > 200) throw new Error(`${name} is not listening on ${ports.join("/")}: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once("exit", () => resolve());
        running.kill("SIGTERM");
      });
    },
  };
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port` (the probe sends nothing, so nothing is logged). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(() => resolve(true))).once("error", () =>
      resolve(false),
    );
  });
}
