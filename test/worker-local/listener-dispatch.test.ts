/**
 * The local fleet's one Worker serves every listener: the appliance is the
 * one the listener names in X-BNG-Appliance (launcher/listeners.ts), the Host
 * being one of the names it answers to (an address here), and the listener's scheme (HTTPS unless BNG_HTTP=1) decides
 * whether the answer is marked HTTPS-only, as the Worker itself sees plain http://.
 */
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { expectDocumented } from "../worker/wire-check.ts";

async function viaListener(appliance: string, path: string, init: RequestInit = {}): Promise<Response> {
  const url = `http://127.0.0.1:8443${path}`;
  const response = await SELF.fetch(url, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      "x-bng-wiring": env.BNG_WIRING_SECRET!,
      "x-bng-appliance": appliance,
      "x-bng-peer-address": "192.0.2.7",
    },
  });
  await expectDocumented(init.method ?? "GET", url, response);
  return response;
}

describe("a request relayed by a listener of the local fleet", () => {
  it("is served by the appliance the listener names, the host an address", async () => {
    const health = await viaListener("edge-3", "/api/v1/system/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ appliance: "edge-3" });
  });

  it("answers 404 problem+json naming an appliance that is not in the fleet", async () => {
    const response = await viaListener("edge-9", "/api/v1/system/health");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain("edge-9");
  });

  it("answers with HSTS, as the listener served the client over HTTPS (the Worker itself sees http://)", async () => {
    const health = await viaListener("edge-2", "/api/v1/system/health");
    expect(health.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
  });

  it("is over plain HTTP, without HSTS, when it came straight to the Worker", async () => {
    const url = "http://edge-2.bng.localhost/api/v1/system/health";
    const health = await SELF.fetch(url);
    await expectDocumented("GET", url, health);
    expect(await health.json()).toMatchObject({ appliance: "edge-2" });
    expect(health.headers.get("strict-transport-security")).toBeNull();
  });
});
