/**
 * What a Worker can call on an appliance's stub (issues #27, #48): the
 * object's own RPC methods and nothing else. The object extends
 * DurableObject, so its surface is what its class declares; partyserver's
 * Server (whose `sql()` runs any SQL on the appliance's database) handles its
 * connections from inside and is never reachable.
 */
import { env } from "cloudflare:test";
import { DurableObject } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Appliance } from "../../durable-objects/appliance.ts";

/** The object's RPC methods as docs/architecture.md names them: a Worker's `call` and the local launcher's three. */
const DECLARED = ["call", "webUiCertificate", "runLauncherScenario", "releaseLogStream"];
/** The runtime's own entry points, which workerd never dispatches over RPC (worker-rpc.c++, isReservedName). */
const ENTRY_POINTS = ["constructor", "fetch", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"];

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
  it("is the class's own methods, on DurableObject itself", () => {
    expect(Object.getPrototypeOf(Appliance.prototype)).toBe(DurableObject.prototype);
    expect(Object.getOwnPropertyNames(Appliance.prototype).sort()).toEqual([...DECLARED, ...ENTRY_POINTS].sort());
  });

  it("answers its own methods", async () => {
    expect(await stub().webUiCertificate!()).toBeNull();
  });

  it("refuses every method of partyserver's Server and the object's private core", async () => {
    const { Server } = await import("partyserver");
    const names = [
      // `name` is the stub's own (the object's name), never a call.
      ...Object.getOwnPropertyNames(Server.prototype).filter((name) => !ENTRY_POINTS.includes(name) && name !== "name"),
      "onConnect",
      "open",
      "config",
      "identity",
      "dataPlane",
    ];
    expect(names).toContain("sql");
    // workerd's words for a name the class lacks, or holds as something other than a method.
    for (const name of names)
      expect(await attempt(name), name).toMatch(
        new RegExp(`^The RPC receiver does not implement (the method )?"${name}"\\.$`),
      );
  });
});
