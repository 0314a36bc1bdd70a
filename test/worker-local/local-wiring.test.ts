/**
 * Issue #47: the Worker's loopback socket answers any process of the machine, so the appliance and the client's
 * address the launcher's relay names (X-BNG-Appliance, X-BNG-Peer-Address) count only on a request carrying the
 * launcher's per-launch secret (X-BNG-Wiring); anything else is a client of that loopback socket, whatever it
 * claims. And a claimed address is parsed as one.
 */
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { LogTail } from "../../src/schemas/logs.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { BOOTSTRAP_TOKEN } from "../worker/client.ts";

type Problem = z.output<typeof ProblemDetails>;

/** A login attempt on the loopback socket, addressed by host name (edge-1), with the headers given. */
const login = (password: string, headers: Record<string, string>) =>
  SELF.fetch("http://edge-1.bng.localhost/api/v1/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ username: "admin", password }),
  });

/** The source addresses edge-1 logged for failed logins, oldest first. */
async function failedSources(): Promise<unknown[]> {
  const headers = { authorization: `Bearer ${BOOTSTRAP_TOKEN}` };
  const tail = (await (
    await SELF.fetch("http://edge-1.bng.localhost/api/v1/logs/tail?count=1000", { headers })
  ).json()) as LogTail;
  return tail.entries.filter((e) => e.msgId === "auth.login.failed").map((e) => e.fields.sourceIp);
}

describe("a request on the Worker's loopback socket without the launcher's secret", () => {
  it.each([
    ["no secret", {}],
    ["a wrong secret", { "x-bng-wiring": "not-the-launchers-secret" }],
    ["the secret's first half", { "x-bng-wiring": env.BNG_WIRING_SECRET!.slice(0, 18) }],
  ])("with %s, is a loopback client: a forged X-BNG-Peer-Address per attempt dodges no lockout", async (_, wiring) => {
    for (let i = 1; i <= 5; i++) {
      const forged = {
        "x-bng-peer-address": `203.0.113.${i}`,
        "mf-cf-blob": JSON.stringify({ clientIp: `192.0.2.${i}:1` }),
      };
      const failed = await login("wrong-password", { ...wiring, ...forged });
      expect(failed.status).toBe(401);
    }
    const locked = await login("bngfleet-admin", { ...wiring, "x-bng-peer-address": "203.0.113.99" });
    expect(locked.status).toBe(423);
    expect(((await locked.json()) as Problem).detail).toContain("from 127.0.0.1");
    expect(await failedSources()).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"]);
  });

  it("is served by the appliance its host names, whatever X-BNG-Appliance says", async () => {
    const headers = { "x-bng-appliance": "edge-3", "x-bng-wiring": "guess" };
    const health = await SELF.fetch("http://edge-2.bng.localhost/api/v1/system/health", { headers });
    expect(await health.json()).toMatchObject({ appliance: "edge-2" });
  });
});

describe("the launcher's relay (its secret sent)", () => {
  const wired = (peer: string) => ({ "x-bng-wiring": env.BNG_WIRING_SECRET!, "x-bng-peer-address": peer });

  it("names the appliance and the client's address", async () => {
    const headers = { ...wired("192.0.2.8"), "x-bng-appliance": "edge-3" };
    const health = await SELF.fetch("http://127.0.0.1:8445/api/v1/system/health", { headers });
    expect(await health.json()).toMatchObject({ appliance: "edge-3" });
    expect((await login("wrong-password", wired("192.0.2.8"))).status).toBe(401);
    expect(await failedSources()).toEqual(["192.0.2.8"]);
  });

  it("has its addresses parsed as addresses: anything else is logged as unknown, IPv6 in canonical form", async () => {
    const claims = [
      "198.51.100.116912",
      "1.2.3.4.5",
      "999.1.1.1",
      "::ffff:198.51.100.7",
      "2001:DB8:0:0:0:0:0:1",
      "::ffff:c633:6407",
    ];
    for (const claimed of claims) expect((await login("wrong-password", wired(claimed))).status).toBe(401);
    expect(await failedSources()).toEqual([
      "unknown",
      "unknown",
      "unknown",
      "198.51.100.7",
      "2001:db8::1",
      "198.51.100.7",
    ]);
  });
});

describe("a request the launcher's listener relays, by its host name", () => {
  /** GET `path` on edge-1's listener with the Host `host`. */
  const relay = {
    "x-bng-wiring": env.BNG_WIRING_SECRET!,
    "x-bng-appliance": "edge-1",
    "x-bng-peer-address": "192.0.2.8",
  };
  const relayed = (host: string, path = "/api/v1/system/health") =>
    SELF.fetch(`http://${host}${path}`, { headers: relay });

  const own = [
    "edge-1.bng.localhost:8443",
    "EDGE-1.bng.localhost.:8443",
    "127.0.0.1:8443",
    "localhost:8443",
    "[::1]:8443",
    "192.0.2.10:9443",
  ];
  it.each(own)(
    "is served when the host is one edge-1 answers to: %s (its own name, localhost, an address)",
    async (host) => {
      const health = await relayed(host);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ appliance: "edge-1" });
    },
  );

  it.each(["evil.example:8443", "edge-2.bng.localhost:8444", "edge-1.bng.localhost.evil.example"])(
    "is refused 421 when the host is another name (DNS rebinding, another appliance's): %s",
    async (host) => {
      const refused = await relayed(host);
      expect(refused.status).toBe(421);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      const named = host.split(":")[0];
      expect(((await refused.json()) as Problem).detail).toContain(`does not answer to the host name '${named}'`);
    },
  );

  it(
    "still reaches the ACME challenge under any name (the CA names what it " + "validates): 404 for an unknown token",
    async () => {
      const challenge = await relayed("edge-1.example.net", "/.well-known/acme-challenge/AAAAAAAAAAAAAAAAAAAAAA");
      expect(challenge.status).toBe(404);
    },
  );
});

describe("OIDC sign-in starts on the local fleet (throttled per client address, as logins are)", () => {
  /** A provider whose discovery nothing answers (a start is admitted, then fails 502): the throttle comes first. */
  async function labProvider() {
    const issuer = "http://127.0.0.1:9/oidc/lab";
    const body = {
      enabled: true,
      displayName: "Lab",
      issuer,
      clientId: "bng",
      clientSecret: "s",
      roleMap: { noc: "read-only" },
    };
    const put = await SELF.fetch("http://edge-1.bng.localhost/api/v1/auth/providers/oidc/lab", {
      method: "PUT",
      headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(put.status, await put.clone().text()).toBe(200);
  }
  const start = (headers: Record<string, string>) =>
    SELF.fetch("http://edge-1.bng.localhost/api/v1/auth/oidc/lab/login", { headers, redirect: "manual" });

  it(
    "the launcher's relay: the 11th quick start from one address is 429 naming it, " + "another address's is not",
    async () => {
      await labProvider();
      const from = (peer: string) => ({ "x-bng-wiring": env.BNG_WIRING_SECRET!, "x-bng-peer-address": peer });
      for (let i = 0; i < 10; i++) expect((await start(from("192.0.2.50"))).status).not.toBe(429);
      const throttled = await start(from("192.0.2.50"));
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await throttled.json()) as Problem).detail).toContain("from 192.0.2.50");
      expect((await start(from("192.0.2.51"))).status).not.toBe(429);
    },
  );

  it(
    "the loopback socket without the secret: a forged address per start is one " + "client, throttled at the 11th",
    async () => {
      await labProvider();
      for (let i = 0; i < 10; i++) {
        expect((await start({ "x-bng-peer-address": `203.0.113.${i + 1}` })).status).not.toBe(429);
      }
      const throttled = await start({ "x-bng-peer-address": "203.0.113.99" });
      expect(throttled.status).toBe(429);
      expect(((await throttled.json()) as Problem).detail).toContain("from 127.0.0.1");
    },
  );
});
