/**
 * A loopback port known to be closed, for tests that need "a receiver that
 * is down" rather than assuming nothing listens on some fixed port. It is
 * taken below the OS's ephemeral range: a port the OS once handed out and
 * got back could be handed to any later bind of port 0 in the run (workerd's
 * sockets, a listener, the browser), which would then answer in its place.
 */
import type { TestProject } from "vitest/node";
import { quietLoopbackPort } from "../launcher/loopback-ports.ts";

/** A loopback port nothing listens on (below the ephemeral range: launcher/loopback-ports.ts). */
export const closedPort = (): Promise<number> => quietLoopbackPort();

/**
 * vitest global setup: hands tests that cannot bind sockets themselves (workerd) a closed port through
 * `inject("closedPort")`.
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide("closedPort", await closedPort());
}

declare module "vitest" {
  export interface ProvidedContext {
    closedPort: number;
  }
}
