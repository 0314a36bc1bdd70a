/**
 * A token's "last used" time on a live clock: shown from the use on, and
 * still there after the fleet restarts once a tick has passed (the appliance
 * writes uses with its tick's commit, not on the read that made them).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const TOKEN = "bngtok_" + "Used".repeat(7) + "Us" + "4K7f8Z"; // well-formed: the checksum is CRC-32 in base62
/**
 * The appliance's tick (TICK_MS in durable-objects/data-plane.ts) with room to spare: one has surely run after this
 * long.
 */
const AFTER_A_TICK_MS = 12_000;
const fleets: RunningFleet[] = [];

afterAll(async () => {
  await Promise.all(fleets.map((f) => f.stop()));
});

interface TokenRecord {
  name: string;
  lastUsedUtc: string | null;
}

describe("a token's last use, on a live clock", () => {
  it("is shown at once and survives a restart after the next tick", async () => {
    const port = await freePortBase(1);
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-last-used-"));
    const fleetFile = path.join(dir, "fleet.json");
    await writeFile(
      fleetFile,
      JSON.stringify({
        portBase: port,
        appliances: [
          { name: "edge-1", seed: 1, profile: "small", webUi: { listener: { address: "127.0.0.1", port } } },
        ],
      }),
    );
    const env = { BNG_FLEET: fleetFile, BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: TOKEN };
    const bootstrapUse = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/tokens`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { items: TokenRecord[] }).items.find((t) => t.name === "bootstrap")!
        .lastUsedUtc;
    };

    let fleet = await launchFleet({ ...env, BNG_FRESH: "1" }, [port], path.join(dir, "data"));
    fleets.push(fleet);
    const before = Date.now();
    // The list is read with the token it lists: the use it shows is this very request's.
    const used = await bootstrapUse();
    expect(used).not.toBeNull();
    expect(Date.parse(used!)).toBeGreaterThanOrEqual(before - 1_000);

    await new Promise((r) => setTimeout(r, AFTER_A_TICK_MS));
    expect(await fleet.stop()).toBe(0);
    fleet = await launchFleet(env, [port], path.join(dir, "data"));
    fleets.push(fleet);
    // Within the minute a use is recorded once: had the first not been written, this read would record itself anew.
    expect(await bootstrapUse()).toBe(used);
  }, 180_000);
});
