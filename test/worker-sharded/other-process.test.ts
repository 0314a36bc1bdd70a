/**
 * One workerd process of a local fleet spread over several (BNG_SHARDS): an
 * appliance another process serves is never opened here (two processes on one
 * Durable Object's SQLite would corrupt it). A request for it is refused as
 * misdirected, and the fleet proxy asks the other process over its loopback
 * socket, here one nothing answers on.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";

const TOKEN = "bngtok_" + "B".repeat(30) + "1rpRcy";

const viaListener = (appliance: string, path: string) =>
  SELF.fetch(`http://edge-1.bng.localhost${path}`, { headers: { "x-bng-appliance": appliance, "x-bng-peer-address": "192.0.2.7", authorization: `Bearer ${TOKEN}` } });

describe("an appliance another process of the fleet serves", () => {
  it("is refused as misdirected (421 problem+json), not opened here", async () => {
    const response = await viaListener("edge-2", "/api/v1/system/health");
    expect(response.status).toBe(421);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain("edge-2");
  });

  it("is asked over the other process's socket by the fleet proxy: nothing answering there is a 502 naming the peer", async () => {
    const response = await viaListener("edge-1", "/api/v1/fleet/edge-2/system/health");
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain("'edge-2' is unreachable");
  });

  it("leaves this process's own appliances and their in-process peers as they were", async () => {
    const own = await viaListener("edge-3", "/api/v1/system/health");
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ appliance: "edge-3" });
    const relayed = await viaListener("edge-1", "/api/v1/fleet/edge-3/system/health");
    expect(relayed.status).toBe(200);
    expect(await relayed.json()).toMatchObject({ appliance: "edge-3" });
  });
});
