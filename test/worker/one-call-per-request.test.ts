/**
 * One Worker → Durable Object call per request: the appliance authenticates
 * the credential and runs the operation in the same call. The Worker is
 * called directly with its bindings wrapped, so every method call on an
 * appliance's stub is counted, per appliance.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import worker from "../../src/index.ts";
import { routes } from "../../src/routes/index.ts";
import type { Env } from "../../src/env.ts";
import type { LoginResponse, TokenCreated } from "../../src/schemas/auth.ts";
import { ADMIN_PASSWORD, BOOTSTRAP_TOKEN, cookieFrom, tokenWithRole } from "./client.ts";
import { totpCode } from "./totp.ts";
import { expectDocumented } from "./wire-check.ts";

/**
 * The operations anyone may call, written out from the spec (as test/worker/authorization.test.ts has them), not read
 * from the route table.
 */
const ANONYMOUS = new Set([
  "POST /api/v1/auth/login",
  "POST /api/v1/auth/enrol",
  "GET /api/v1/auth/oidc/{name}/login",
  "GET /api/v1/auth/oidc/{name}/callback",
  "GET /.well-known/acme-challenge/{token}",
  "GET /api/v1/system/health",
]);

// Placeholders get plausible values; a value the operation refuses still costs exactly the one call that refuses it.
const SAMPLE: Record<string, string> = {
  username: "admin",
  id: "0123456789abcdef",
  name: "corp",
  appliance: "edge-2",
  path: "system/health",
  asset: "init.js",
  bindingIndex: "7",
  kind: "ipoe",
  key: "1:100:42",
  token: "evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ",
};
const urlOf = (path: string) => path.replace(/\{(\w+)\+?\}/g, (_, name: string) => SAMPLE[name] ?? "x");

/** The Worker's bindings with every appliance stub's method calls recorded, by appliance name. */
function counted() {
  const calls: Record<string, string[]> = {};
  /** What each `call` carried (its one argument), in order. */
  const carried: Record<string, unknown>[] = [];
  const record = (name: string, stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          (calls[name] ??= []).push(String(property));
          if (property === "call") carried.push(args[0] as Record<string, unknown>);
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      },
    });
  const namespace = new Proxy(env.Appliance, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        if (property === "getByName") return record(String(args[0]), result as object);
        if (property === "get") return record((args[0] as DurableObjectId).name ?? String(args[0]), result as object);
        return result;
      };
    },
  });
  return { env: { ...env, Appliance: namespace } as Env, calls, carried };
}

/**
 * Sends one request to edge-1 through the Worker; answers its status, its body (a stream is cancelled unread), the
 * response and the calls it made.
 */
async function send(path: string, init: RequestInit = {}) {
  const { env: bindings, calls, carried } = counted();
  const url = `https://edge-1.bng.localhost${path}`;
  const response = await worker.fetch(new Request(url, init), bindings);
  await expectDocumented(init.method ?? "GET", url, response);
  const streaming = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  const text = streaming ? (await response.body?.cancel(), "") : await response.text();
  return { status: response.status, text, response, calls: (name = "edge-1") => calls[name] ?? [], carried };
}

const bearer = { authorization: `Bearer ${BOOTSTRAP_TOKEN}` };

/** The object's one entry point for a request: `call`, the one port a handler in the Worker asks for (issue #27). */
const ONE_CALL = /^call$/;
const expectOneCall = (calls: string[]) => {
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatch(ONE_CALL);
};
const withJson = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("one call per request", () => {
  const authenticated = routes
    .filter((r) => !r.hidden && !ANONYMOUS.has(`${r.method} ${r.path}`))
    .map((r) => ({ label: `${r.method} ${r.path}`, route: r }));

  it.each(authenticated)("$label with a bearer token asks the appliance exactly once", async ({ route }) => {
    const init: RequestInit = route.body
      ? withJson(route.method, {}, bearer)
      : { method: route.method, headers: bearer };
    const answer = await send(urlOf(route.path), init);
    expect(answer.status, answer.text).not.toBe(500);
    expectOneCall(answer.calls());
  });

  it("a fleet-proxied read asks the addressed appliance once and the peer once", async () => {
    const answer = await send("/api/v1/fleet/edge-2/system/status", { headers: bearer });
    expect(answer.status).toBe(200);
    expectOneCall(answer.calls("edge-1"));
    expectOneCall(answer.calls("edge-2"));
  });

  it.each([
    ["GET /api/v1/sessions?limit=5", "/api/v1/sessions?limit=5"],
    ["GET /api/v1/sessions/summary", "/api/v1/sessions/summary"],
    ["GET /api/v1/system/status", "/api/v1/system/status"],
    ["GET /api/v1/config", "/api/v1/config"],
    ["GET /api/v1/alarms", "/api/v1/alarms"],
    ["GET /api/v1/routing/bgp/summary", "/api/v1/routing/bgp/summary"],
    ["GET /api/v1/metrics", "/api/v1/metrics"],
  ])("%s succeeds with one call", async (_label, path) => {
    const answer = await send(path, { headers: bearer });
    expect(answer.status, answer.text).toBe(200);
    expectOneCall(answer.calls());
  });

  it("a sign-in's call carries the caller's address, a data read's and a health check's none", async () => {
    // Deployed, the address is Cloudflare's CF-Connecting-IP (src/http/client-address.ts).
    const from = { "cf-connecting-ip": "198.51.100.23" };
    const login = await send(
      "/api/v1/auth/login",
      withJson("POST", { username: "admin", password: ADMIN_PASSWORD }, from),
    );
    expect(login.status, login.text).toBe(200);
    expect(login.carried.map((c) => c.clientIp)).toEqual(["198.51.100.23"]);
    for (const path of ["/api/v1/sessions?limit=5", "/api/v1/system/health"]) {
      const read = await send(path, { headers: { ...bearer, ...from } });
      expect(read.status, read.text).toBe(200);
      expect(
        read.carried.map((c) => c.clientIp),
        path,
      ).toEqual(["unknown"]);
    }
  });

  it(
    "a token is created, read and revoked with one call each, and the revoked token " + "is refused in one call",
    async () => {
      const created = await send(
        "/api/v1/auth/tokens",
        withJson("POST", { name: "counted", role: "operator" }, bearer),
      );
      expect(created.status).toBe(200);
      expectOneCall(created.calls());
      const { token, id } = JSON.parse(created.text) as z.output<typeof TokenCreated>;
      const read = await send("/api/v1/system/status", { headers: { authorization: `Bearer ${token}` } });
      expect(read.status).toBe(200);
      expectOneCall(read.calls());
      const revoked = await send(`/api/v1/auth/tokens/${id}`, { method: "DELETE", headers: bearer });
      expect(revoked.status).toBe(200);
      expectOneCall(revoked.calls());
      const refused = await send("/api/v1/system/status", { headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(401);
      expectOneCall(refused.calls());
    },
  );

  it("a browser signs in, reads, changes and signs out with one call per request", async () => {
    const login = await send("/api/v1/auth/login", withJson("POST", { username: "admin", password: ADMIN_PASSWORD }));
    expect(login.status).toBe(200);
    expectOneCall(login.calls());
    const challenge = JSON.parse(login.text) as LoginResponse;
    const enrolment = await send(
      "/api/v1/auth/enrol",
      withJson("POST", { enrolmentToken: challenge.enrolmentToken, totpCode: await totpCode(challenge.secret!) }),
    );
    expect(enrolment.status).toBe(200);
    expectOneCall(enrolment.calls());
    const cookie = cookieFrom(enrolment.response);
    const csrfToken = (JSON.parse(enrolment.text) as LoginResponse).csrfToken!;

    const whoami = await send("/api/v1/auth/whoami", { headers: { cookie } });
    expect(whoami.status).toBe(200);
    expectOneCall(whoami.calls());
    const token = await send(
      "/api/v1/auth/tokens",
      withJson("POST", { name: "from-browser", role: "read-only" }, { cookie, "x-csrf-token": csrfToken }),
    );
    expect(token.status).toBe(200);
    expectOneCall(token.calls());
    const logout = await send("/api/v1/auth/logout", {
      method: "POST",
      headers: { cookie, "x-csrf-token": csrfToken },
    });
    expect(logout.status).toBe(200);
    expectOneCall(logout.calls());
    const ended = await send("/api/v1/auth/whoami", { headers: { cookie } });
    expect(ended.status).toBe(401);
    expectOneCall(ended.calls());
  });

  it.each([
    ["GET /api/v1/system/health", "/api/v1/system/health", {}, 200],
    [
      "POST /api/v1/auth/login with a wrong password",
      "/api/v1/auth/login",
      withJson("POST", { username: "admin", password: "not-the-password" }),
      401,
    ],
    [
      "POST /api/v1/auth/enrol with an unknown enrolment token",
      "/api/v1/auth/enrol",
      withJson("POST", { enrolmentToken: "unknown", totpCode: "123456" }),
      401,
    ],
    ["GET /api/v1/auth/oidc/{name}/login for an unknown provider", "/api/v1/auth/oidc/corp/login", {}, 404],
    [
      "GET /api/v1/auth/oidc/{name}/callback for an unknown provider",
      "/api/v1/auth/oidc/corp/callback?code=c&state=s",
      {},
      404,
    ],
    [
      "GET /.well-known/acme-challenge/{token} for an unknown token",
      "/.well-known/acme-challenge/evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ",
      {},
      404,
    ],
  ] as const)("anonymous %s is one call", async (_label, path, init, status) => {
    const answer = await send(path, init);
    expect(answer.status, answer.text).toBe(status);
    expectOneCall(answer.calls());
  });

  it("refuses an anonymous caller's malformed input without asking the appliance", async () => {
    const answer = await send("/api/v1/auth/login", withJson("POST", { username: "admin" }));
    expect(answer.status).toBe(400);
    expect(answer.calls()).toEqual([]);
  });

  it("refuses a missing or malformed credential without asking the appliance", async () => {
    const missing = await send("/api/v1/system/status");
    expect(missing.status).toBe(401);
    expect(missing.calls()).toEqual([]);
    const mistyped = await send("/api/v1/system/status", {
      headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN.slice(0, -1)}x` },
    });
    expect(mistyped.status).toBe(401);
    expect(mistyped.calls()).toEqual([]);
  });

  it("answers a caller below the floor 403, not 400, for input a Worker handler refuses before its call", async () => {
    // A route of the spec's super-user prefix /routing/config, whose handler refuses a route given twice itself.
    const route = { vrf: "default", prefix: "192.0.2.0/24", nextHop: "10.0.0.1" };
    const operator = await tokenWithRole("operator");
    const answer = await send(
      "/api/v1/routing/config/static-routes",
      withJson("PUT", { routes: [route, route] }, { authorization: `Bearer ${operator}` }),
    );
    expect(answer.status, answer.text).toBe(403);
    expectOneCall(answer.calls());
    const admin = await send(
      "/api/v1/routing/config/static-routes",
      withJson("PUT", { routes: [route, route] }, bearer),
    );
    expect(admin.status, admin.text).toBe(400);
  });

  it(
    "answers a revoked token 401, not 400, for input it would refuse: the appliance " + "judges the caller first",
    async () => {
      const created = await send(
        "/api/v1/auth/tokens",
        withJson("POST", { name: "soon-revoked", role: "super-user" }, bearer),
      );
      const { token, id } = JSON.parse(created.text) as z.output<typeof TokenCreated>;
      expect((await send(`/api/v1/auth/tokens/${id}`, { method: "DELETE", headers: bearer })).status).toBe(200);
      const answer = await send(
        "/api/v1/auth/tokens",
        withJson("POST", { role: "no-such-role" }, { authorization: `Bearer ${token}` }),
      );
      expect(answer.status).toBe(401);
      expectOneCall(answer.calls());
    },
  );
});

describe("the object's RPC surface", () => {
  const stub = () =>
    env.Appliance.getByName("edge-1") as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

  // The stores and the internal wiring that used to answer over RPC (issue #10's list among them).
  it.each([
    "dataPlane",
    "identity",
    "config",
    "passkeys",
    "providers",
    "licensing",
    "upgrade",
    "routing",
    "ipsec",
    "acme",
    "gre",
    "health",
    "scrape",
    "open",
    "tick",
    "persist",
    "setPools",
    "onReboot",
    "watchSteps",
    "syncAccounts",
    "provisionTokens",
    "seed",
    "scenario",
    "runScenario",
    "coreOf",
  ])("does not answer %s()", async (name) => {
    const refusal = await new Promise<string>((resolve) => {
      // Observed through then() on the call's own promise: the RPC call rejects once, and nothing is left unhandled.
      void Promise.resolve(stub()[name]!()).then(
        () => resolve("answered"),
        (error: Error) => resolve(error.message),
      );
    });
    expect(refusal).toMatch(/does not implement/);
  });

  it("refuses a call that names a protected operation without a credential, whatever the caller claims", async () => {
    const answer = await stub().call!({
      section: "tokens",
      operation: "create",
      args: ["forged", "super-user", null],
      method: "POST",
      credential: null,
      csrfToken: null,
      secure: true,
      clientIp: "192.0.2.1",
      ifMatch: null,
    });
    expect(answer).toMatchObject({ ok: false, reason: "unauthenticated" });
    const tokens = await worker.fetch(
      new Request("https://edge-1.bng.localhost/api/v1/auth/tokens", { headers: bearer }),
      env,
    );
    expect(JSON.stringify(await tokens.json())).not.toContain("forged");
  });

  describe("a port call (a handler in the Worker)", () => {
    const port = (
      section: string,
      operation: string,
      args: unknown[] | null,
      credential: { via: "token"; sha256: string } | null,
      method = "DELETE",
    ) =>
      stub().call!({
        section,
        operation,
        args,
        method,
        credential,
        csrfToken: null,
        clientIp: "192.0.2.1",
        secure: true,
        ifMatch: null,
      }) as Promise<Record<string, unknown>>;
    const hashOf = async (token: string) => ({
      via: "token" as const,
      sha256: [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join(""),
    });

    it(
      "is authorized for the operation it runs: a read-only token cannot disconnect a " + "session by naming the port",
      async () => {
        const advanced = await worker.fetch(
          new Request(
            "https://edge-1.bng.localhost/twin/v1/scenario",
            withJson("POST", { action: "advance-clock", seconds: 600 }, bearer),
          ),
          env,
        );
        expect(advanced.status).toBe(200);
        const sessions = await (
          await worker.fetch(
            new Request("https://edge-1.bng.localhost/api/v1/sessions?limit=1", { headers: bearer }),
            env,
          )
        ).json<{ items: { id: number }[] }>();
        const id = sessions.items[0]!.id;
        const readOnly = await hashOf(await tokenWithRole("read-only"));
        // The spec: session disconnect is an operator's mutation.
        expect(await port("sessions", "disconnect", [id], readOnly)).toMatchObject({ ok: false, reason: "forbidden" });
        expect(await port("sessions", "disconnect", [id], null)).toMatchObject({
          ok: false,
          reason: "unauthenticated",
        });
        const still = await worker.fetch(
          new Request(`https://edge-1.bng.localhost/api/v1/sessions/${id}`, { headers: bearer }),
          env,
        );
        expect(still.status).toBe(200);
      },
    );

    it.each([
      ["__proto__", "constructor"],
      ["sessions", "constructor"],
      ["sessions", "__proto__"],
      ["toString", "call"],
      ["sessions", "hasOwnProperty"],
    ])("refuses %s.%s: only the contract's own operations are named", async (section, operation) => {
      expect(await port(section, operation, [], await hashOf(BOOTSTRAP_TOKEN), "GET")).toMatchObject({
        ok: false,
        reason: "not-found",
      });
    });
  });
});
