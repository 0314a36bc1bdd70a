/**
 * A loopback port known to be closed: bound by the OS as an ephemeral port, then released. Tests that need
 * "a receiver that is down" use it rather than assuming nothing listens on some fixed port.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

/** Binds 127.0.0.1:0, reads the port the OS chose, and closes it again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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
