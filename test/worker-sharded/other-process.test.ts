/**
 * One workerd process of a local fleet spread over several (BNG_SHARDS): an
 * appliance another process serves is never opened here (two processes on one
 * Durable Object's SQLite would corrupt it). A request for it is refused as
 * misdirected, and the fleet proxy asks the other process over its loopback
 * socket, here one nothing answers on.
 */
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { SHARD_RELAY_PATH, shardToken, type ShardAnswer } from "../../src/fleet/shards.ts";

const TOKEN = "bngtok_" + "B".repeat(30) + "1rpRcy";

const viaListener = (appliance: string, path: string) =>
  SELF.fetch(`http://127.0.0.1${path}`, {
    headers: {
      "x-bng-wiring": env.BNG_WIRING_SECRET!,
      "x-bng-appliance": appliance,
      "x-bng-peer-address": "192.0.2.7",
      authorization: `Bearer ${TOKEN}`,
    },
  });

describe("an appliance another process of the fleet serves", () => {
  it("is refused as misdirected (421 problem+json), not opened here", async () => {
    const response = await viaListener("edge-2", "/api/v1/system/health");
    expect(response.status).toBe(421);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain("edge-2");
  });

  it(
    "is asked over the other process's socket by the fleet proxy: nothing answering " +
      "there is a 502 naming the peer",
    async () => {
      const response = await viaListener("edge-1", "/api/v1/fleet/edge-2/system/health");
      expect(response.status).toBe(502);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain("'edge-2' is unreachable");
    },
  );

  it("leaves this process's own appliances and their in-process peers as they were", async () => {
    const own = await viaListener("edge-3", "/api/v1/system/health");
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ appliance: "edge-3" });
    const relayed = await viaListener("edge-1", "/api/v1/fleet/edge-3/system/health");
    expect(relayed.status).toBe(200);
    expect(await relayed.json()).toMatchObject({ appliance: "edge-3" });
  });
});

describe("the shards' relay, served to another process of the fleet", () => {
  /**
   * A batch as another process posts it, with the shards' token (derived from the fleet secret, as the processes do).
   */
  const relay = async (paths: string[]) => {
    const token = await shardToken(env);
    const gets = paths.map((path) => ({
      appliance: "edge-3",
      target: `http://127.0.0.1:1${path}`,
      credential: TOKEN,
      accept: "application/json",
    }));
    const response = await SELF.fetch(`http://127.0.0.1${SHARD_RELAY_PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(gets),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as ShardAnswer[];
  };

  it(
    "relays only what the fleet proxy relays (the FP allowlist), whatever credential " +
      "a GET carries: 403 for the rest",
    async () => {
      const [health, tokens, users, stream] = await relay([
        "/api/v1/system/health",
        "/api/v1/auth/tokens",
        "/api/v1/auth/users",
        "/api/v1/logs/stream",
      ]);
      expect(health).toMatchObject({ status: 200, contentType: "application/json" });
      expect(JSON.parse(health!.body!)).toMatchObject({ appliance: "edge-3" });
      for (const refused of [tokens, users, stream]) {
        expect(refused).toMatchObject({ status: 403, contentType: "application/problem+json" });
        expect(JSON.parse(refused!.body!).detail).toContain("x-fleet-proxy");
      }
    },
  );
});
