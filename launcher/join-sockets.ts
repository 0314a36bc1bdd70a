/**
 * Two connections joined byte for byte, both ways: the web UI's live channel once the appliance has switched
 * protocols (listeners.ts), the debugger once workerd's inspector has (inspector-proxy.ts), and the bench's byte
 * pipe (bench/references.ts). Either one's error or close ends the other, so neither outlives its peer.
 */
import type net from "node:net";

export function joinSockets(a: net.Socket, b: net.Socket): void {
  for (const [one, other] of [
    [a, b],
    [b, a],
  ] as const)
    one.on("error", () => other.destroy()).on("close", () => other.destroy());
  a.pipe(b);
  b.pipe(a);
}
