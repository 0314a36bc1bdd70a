import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import { advance, get, scenario } from "./helpers.ts";

type Pool = z.output<typeof RadiusPoolStatus>;

describe("RADIUS servers", () => {
  it("lists the configured servers, all live, with the requests the sessions needed", async () => {
    const fresh = await get<Pool>("/api/v1/radius/servers");
    expect(fresh).toMatchObject({ configured: true, totalServers: 2, liveServers: 2, deadServers: 0 });
    expect(fresh.servers.map((s) => [s.host, s.port, s.weight, s.requestsSent, s.lastSuccess])).toEqual([
      ["radius-1.isp.example", 1812, 100, 0, null],
      ["radius-2.isp.example", 1812, 100, 0, null],
    ]);
    await advance(600);
    const pool = await get<Pool>("/api/v1/radius/servers");
    expect(pool.servers.every((s) => s.requestsSent > 100 && s.lastSuccess !== null)).toBe(true);
  });

  it("marks a failed server dead after consecutive failures, and live again when it is revived", async () => {
    // During bring-up (200 setups a second) three lost requests in a row come at once.
    await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    await advance(20);
    const failed = await get<Pool>("/api/v1/radius/servers");
    expect(failed).toMatchObject({ liveServers: 1, deadServers: 1 });
    expect(failed.servers[0]).toMatchObject({ isDead: true });
    expect(failed.servers[0]!.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(failed.servers[0]!.lastFailure).not.toBeNull();
    await scenario({ action: "revive-radius-server", server: "radius-1.isp.example" });
    expect(await get<Pool>("/api/v1/radius/servers")).toMatchObject({
      liveServers: 2,
      deadServers: 0,
      servers: [{ isDead: false, consecutiveFailures: 0 }, { isDead: false }],
    });
  });

  it("is readable through the fleet proxy", async () => {
    expect(await get<Pool>("/api/v1/fleet/edge-3/radius/servers")).toMatchObject({ configured: true, totalServers: 2 });
  });
});
