/**
 * Frees a closed log stream's place in its appliance at once (issue #25): the listener sees the client leave,
 * workerd would tell the appliance only at the stream's next write (a keepalive, up to 15 s later), and a
 * consumer that restarts meanwhile would get 429 for a stream that no longer exists.
 */
import type { Miniflare } from "miniflare";
import type { ApplianceRpc } from "../src/env.ts";

/**
 * Ends log stream `handle` of `appliance` through Miniflare (Appliance.releaseLogStream); an unknown handle is a no-op.
 */
export async function releaseLogStream(mf: Miniflare, owner: string, appliance: string, handle: string): Promise<void> {
  const namespace = await mf.getDurableObjectNamespace("Appliance", owner);
  const stub = namespace.get(namespace.idFromName(appliance)) as unknown as Pick<ApplianceRpc, "releaseLogStream">;
  try {
    await stub.releaseLogStream(handle);
  } finally {
    // Released at once: an undisposed proxy stub keeps Miniflare's dispose() waiting at shutdown.
    (stub as Partial<Disposable>)[Symbol.dispose]?.();
  }
}
