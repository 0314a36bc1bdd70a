/**
 * When the appliance's object cannot be asked at all (the one call itself
 * fails, as when its storage will not open), health says `down` with 503, as
 * a load balancer expects; any other operation is a 500 problem.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index.ts";
import type { Env } from "../../src/env.ts";
import { BOOTSTRAP_TOKEN } from "./client.ts";
import { expectDocumented } from "./wire-check.ts";

/** The Worker's bindings with an appliance whose every call fails. */
const broken = {
  ...env,
  Appliance: { getByName: () => ({ call: () => Promise.reject(new Error("the storage would not open")) }) },
} as unknown as Env;

async function ask(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const url = `https://edge-1.bng.localhost${path}`;
  const response = await worker.fetch(new Request(url, { headers }), broken);
  await expectDocumented("GET", url, response);
  return response;
}

describe("an appliance whose object cannot be asked", () => {
  it("answers health with 503 and status down, naming the failed storage check", async () => {
    const response = await ask("/api/v1/system/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: "down",
      appliance: "edge-1",
      uptimeSeconds: null,
      checks: { storage: "failed" },
    });
  });

  it("answers other operations with a 500 problem", async () => {
    const response = await ask("/api/v1/system/status", { authorization: `Bearer ${BOOTSTRAP_TOKEN}` });
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({
      status: 500,
      detail: "the appliance could not complete the request",
    });
  });
});
