/**
 * Loopback ports chosen below the OS's ephemeral range. A port the OS hands
 * out for port 0 and gets back can be handed to any later bind of port 0 or
 * any outgoing connection (a busy machine makes hundreds a second): a process
 * told to listen on it a moment later may find it taken. The launcher's
 * shard sockets and the tests' closed ports and fleets are taken from here.
 */
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";

/** Binds 127.0.0.1 at `port` (0: one the OS chooses) and closes it again; the port, or null when it is taken. */
export async function bindAndRelease(port: number): Promise<number | null> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) =>
    server.once("error", () => resolve(false)).listen(port, "127.0.0.1", () => resolve(true)),
  );
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

/**
 * A free port among the 8,000 below the ephemeral range (above the well-known and registered-by-habit ones under
 * 10,000), not one of `taken`; an ephemeral one as a last resort, on an OS whose range starts low.
 */
export async function quietLoopbackPort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  const low = ephemeralLow();
  const span = Math.min(8000, low - 10_000);
  for (let attempt = 0; attempt < 50 && span > 0; attempt++) {
    const port = low - 1 - Math.floor(Math.random() * span);
    if (taken.has(port)) continue;
    const free = await bindAndRelease(port);
    if (free !== null) return free;
  }
  return (await bindAndRelease(0))!;
}
