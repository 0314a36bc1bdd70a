/**
 * Issue #22: an anonymous OIDC sign-in start costs the appliance a read of
 * the provider and a stored row, so starts are throttled per client address
 * (the login buckets), the discovery document is reused, the pending rows are
 * bounded, and the provider is reached only where the destination policy
 * allows. The provider is the loopback stand-in's discovery document
 * (test/worker/peer-server.ts), which counts its reads.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import { Appliance } from "../../durable-objects/appliance.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { OIDC_PENDING_MAX } from "../../src/trust/oidc.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { allowLoopback, commit } from "./config-client.ts";

type Problem = z.output<typeof ProblemDetails>;
const port = inject("peerServerPort");
const admin = bearer(BOOTSTRAP_TOKEN);
/** How many times the stand-in served provider `name`'s discovery document. */
const discoveryReads = async (name: string) =>
  (await (await fetch(`http://127.0.0.1:${port}/hits/oidc-${name}`)).json<{ hits: number }>()).hits;

/** A provider at the stand-in (a fresh name per test, so the counts of other files never mix in); its issuer. */
async function labProvider(issuer = `http://127.0.0.1:${port}/oidc/${crypto.randomUUID()}`) {
  const body = {
    enabled: true,
    displayName: "Lab",
    issuer,
    clientId: "bng",
    clientSecret: "s",
    roleMap: { noc: "read-only" },
  };
  expect((await call("/api/v1/auth/providers/oidc/lab", json("PUT", body, admin))).status).toBe(200);
  return issuer.split("/").pop()!;
}
const start = (ip: string) =>
  call("/api/v1/auth/oidc/lab/login", { headers: { "cf-connecting-ip": ip }, redirect: "manual" });

describe("OIDC sign-in starts", () => {
  it("read the provider's discovery document once for many starts, sequential or concurrent", async () => {
    await allowLoopback();
    const name = await labProvider();
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) expect((await start(ip)).status).toBe(302);
    const concurrent = await Promise.all(["192.0.2.4", "192.0.2.5", "192.0.2.6", "192.0.2.7"].map(start));
    expect(concurrent.map((r) => r.status)).toEqual([302, 302, 302, 302]);
    expect(await discoveryReads(name)).toBe(1);
  });

  it("read it again once the provider is rewritten (its issuer may have moved)", async () => {
    await allowLoopback();
    const name = await labProvider();
    expect((await start("192.0.2.1")).status).toBe(302);
    await labProvider(`http://127.0.0.1:${port}/oidc/${name}`);
    expect((await start("192.0.2.1")).status).toBe(302);
    expect(await discoveryReads(name)).toBe(2);
  });

  it("answer 429 with Retry-After to an eleventh quick start from one address", async () => {
    await allowLoopback();
    await labProvider();
    for (let i = 0; i < 10; i++) expect((await start("198.51.100.7")).status).toBe(302);
    const throttled = await start("198.51.100.7");
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another address is not held back by this one's burst.
    expect((await start("198.51.100.8")).status).toBe(302);
  });

  it(
    "keep at most OIDC_PENDING_MAX sign-ins waiting for their provider; beyond it, a " + "429 until the oldest expires",
    async () => {
      const outcomes = await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => {
        const identity = Appliance.coreOf(instance).identity();
        const begin = (i: number) =>
          identity.beginOidcSignIn({
            stateSha256: `s${i}`,
            bindingSha256: `b${i}`,
            provider: "lab",
            nonce: "n",
            verifier: "v",
            returnTo: "/",
          });
        for (let i = 0; i < OIDC_PENDING_MAX; i++) expect(begin(i).ok).toBe(true);
        return begin(OIDC_PENDING_MAX);
      });
      expect(outcomes).toMatchObject({ ok: false, reason: "throttled" });
      // Ten minutes, the time a browser has to come back, is when the oldest makes room.
      expect((outcomes as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(590);
      const rows = await runInDurableObject(
        env.Appliance.getByName("edge-1"),
        (_instance, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM oidc_pending").one().n,
      );
      expect(rows).toBe(OIDC_PENDING_MAX);
    },
  );
});

describe("where the provider may be", () => {
  it.each([
    "https://10.1.2.3/realms/noc",
    `http://127.0.0.1:${port}/oidc/x`,
    "https://169.254.169.254/latest",
    "https://metadata.google.internal/x",
  ])(
    "a provider write naming the issuer %s, which the appliance may not reach, is 422 naming issuer",
    async (issuer) => {
      const body = {
        enabled: true,
        displayName: "Lab",
        issuer,
        clientId: "bng",
        clientSecret: "s",
        roleMap: { noc: "read-only" },
      };
      const response = await call("/api/v1/auth/providers/oidc/lab", json("PUT", body, admin));
      expect(response.status).toBe(422);
      expect((await response.json<Problem>()).errors!.map((e) => e.pointer)).toEqual(["#/issuer"]);
    },
  );

  it(
    "discovery at a loopback address the allowlist no longer holds is refused with " + "502 and nothing is sent",
    async () => {
      await allowLoopback();
      const name = await labProvider();
      await commit({ fields: { "alarms.webhookAllowlist": null } });
      const response = await start("192.0.2.9");
      expect(response.status).toBe(502);
      expect((await response.json<Problem>()).detail).toContain("not an allowed destination");
      expect(await discoveryReads(name)).toBe(0);
    },
  );
});
