/**
 * What a Worker can call on an appliance's stub (issue #27): the object's
 * own RPC methods and nothing of partyserver's `Server` (whose `sql()` runs
 * any SQL on the appliance's database) or of the hooks it calls.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

/**
 * Every public method partyserver's Server 0.5 defines besides the runtime's own entry points
 * (node_modules/partyserver/dist/index.js), and our hooks.
 */
const OFF_THE_WIRE = [
  "sql",
  "broadcast",
  "getConnection",
  "getConnections",
  "getConnectionTags",
  "setName",
  "_initAndFetch",
  "__unsafe_ensureInitialized",
  "onStart",
  "onConnect",
  "onMessage",
  "onClose",
  "onError",
  "onRequest",
  "onException",
  "onAlarm",
] as const;

const stub = () =>
  env.Appliance.getByName("edge-1") as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

/** What calling `name` on the stub ends in: its answer, or the message it was refused with. */
async function attempt(name: string): Promise<string> {
  try {
    // sql`…` as a tagged template would call it: the strings array, then the values.
    return `answered ${JSON.stringify(await stub()[name]!(["SELECT name FROM sqlite_master"]))}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the appliance's RPC surface", () => {
  it("answers its own methods", async () => {
    expect(await stub().webUiCertificate!()).toBeNull();
  });

  it.each(OFF_THE_WIRE)("refuses %s", async (name) => {
    expect(await attempt(name)).toBe(`The RPC receiver does not implement the method "${name}".`);
  });

  it("refuses every Server method the hard-coded list may have missed", async () => {
    const { Server } = await import("partyserver");
    const runtime = new Set([
      "constructor",
      "fetch",
      "alarm",
      "webSocketMessage",
      "webSocketClose",
      "webSocketError",
      "name",
    ]);
    const methods = Object.getOwnPropertyNames(Server.prototype).filter((name) => !runtime.has(name));
    expect(methods.length).toBeGreaterThanOrEqual(OFF_THE_WIRE.length - 2);
    for (const name of methods)
      expect(await attempt(name), name).toBe(`The RPC receiver does not implement the method "${name}".`);
  });
});
