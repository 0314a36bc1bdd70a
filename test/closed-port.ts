/**
 * A loopback port known to be closed, for tests that need "a receiver that
 * is down" rather than assuming nothing listens on some fixed port. It is
 * taken below the OS's ephemeral range: a port the OS once handed out and
 * got back could be handed to any later bind of port 0 in the run (workerd's
 * sockets, a listener, the browser), which would then answer in its place.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

/** Binds 127.0.0.1 at `port` (0: one the OS chooses) and closes it again; the port, or null when it is taken. */
export async function bindAndRelease(port: number): Promise<number | null> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => server.once("error", () => resolve(false)).listen(port, "127.0.0.1", () => resolve(true)));
  if (!bound) return null;
  const { port: chosen } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return chosen;
}

/** The low end of the range the OS hands out for port 0 (Linux's default where it cannot be read). */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : 32768;
  } catch {
    return 32768;
  }
}

export async function closedPort(): Promise<number> {
  const low = ephemeralLow();
  // Up to 8,000 ports below the range, above the well-known and registered-by-habit ones under 10,000.
  const span = Math.min(8000, low - 10_000);
  for (let attempt = 0; attempt < 50 && span > 0; attempt++) {
    const free = await bindAndRelease(low - 1 - Math.floor(Math.random() * span));
    if (free !== null) return free;
  }
  // An OS whose ephemeral range starts low: a released ephemeral port, as before.
  return (await bindAndRelease(0))!;
}

/** vitest global setup: hands tests that cannot bind sockets themselves (workerd) a closed port through `inject("closedPort")`. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide("closedPort", await closedPort());
}

declare module "vitest" {
  export interface ProvidedContext {
    closedPort: number;
  }
}
