import { describe, expect, it } from "vitest";
import { routes } from "../../src/routes/index.ts";
import { floorOf } from "../../src/auth/authenticate.ts";
import { ROLES, defaultFloor, meetsFloor } from "../../src/auth/roles.ts";
import { ADMIN_PASSWORD, call, enrolAndLogin, tokenWithRole } from "./client.ts";

// A concrete URL for each route: placeholders get plausible values (authorization runs before validation).
const SAMPLE: Record<string, string> = { username: "admin", id: "0123456789abcdef", name: "corp", appliance: "edge-2", path: "system/health", asset: "init.js", bindingIndex: "7", kind: "ipoe", key: "1:100:42" };
const urlOf = (path: string) => path.replace(/\{(\w+)\+?\}/g, (_, name: string) => SAMPLE[name] ?? "x");
const operations = routes.map((r) => ({ ...r, label: `${r.method} ${r.path}`, floor: floorOf(r) }));
const mutations = operations.filter((r) => r.method !== "GET");
const protectedOps = operations.filter((r) => r.floor !== "anonymous");

// Routes whose floor differs from the spec's common rule, each for a stated reason.
const DOCUMENTED_EXCEPTIONS: Record<string, string> = {
  "POST /api/v1/auth/login": "anonymous (spec)",
  "POST /api/v1/auth/enrol": "anonymous (spec)",
  "GET /api/v1/system/health": "anonymous (spec)",
  "POST /api/v1/auth/logout": "any account may end its own session",
  "POST /api/v1/auth/password": "any account may change its own password",
  "GET /api/v1/auth/tokens": "token inventory is for super-users",
  "GET /api/v1/auth/users": "account inventory is for super-users",
  "GET /api/v1/auth/tokens/{id}": "token inventory is for super-users",
  "GET /api/v1/auth/sessions": "session inventory is for super-users",
  "POST /api/v1/auth/passkeys/registration-options": "an account registers its own passkeys",
  "POST /api/v1/auth/passkeys": "an account registers its own passkeys",
  "PATCH /api/v1/auth/passkeys/{id}": "an account manages its own passkeys (a super-user anyone's)",
  "DELETE /api/v1/auth/passkeys/{id}": "an account manages its own passkeys (a super-user anyone's)",
  "GET /api/v1/auth/oidc/{name}/login": "a browser on its way to sign in has no credential yet",
  "GET /api/v1/auth/oidc/{name}/callback": "the provider's redirect cannot carry a credential: state, PKCE and the browser binding authenticate it",
  "GET /api/v1/auth/users/{username}": "account inventory is for super-users",
  "GET /twin/v1/scenario": "the twin's control surface is super-user only",
  "POST /twin/v1/scenario": "the twin's control surface is super-user only",
  "POST /twin/v1/scenario/run": "the twin's control surface is super-user only",
  "POST /api/v1/alarms/clear": "the spec's floor is admin (super-user)",
  "POST /api/v1/alarms/test": "the spec's floor is admin (super-user)",
  "POST /api/v1/source-vrf-rules": "the spec's floor is super-user (a configuration commit)",
  "PUT /api/v1/source-vrf-rules/{name}": "a configuration commit, as its create: super-user",
  "DELETE /api/v1/source-vrf-rules/{name}": "a configuration commit, as its create: super-user",
  "POST /api/v1/licensing/activate": "the spec's floor is super-user",
  "POST /api/v1/licensing/load-offline": "the spec's floor is super-user",
  "POST /api/v1/licensing/renew": "a licence change, as activation: super-user",
};

describe("the route table", () => {
  it("follows the spec's role-floor rule except where documented", () => {
    const exceptions = operations.filter((r) => r.floor !== defaultFloor(r.method, r.path)).map((r) => r.label);
    expect(exceptions.sort()).toEqual(Object.keys(DOCUMENTED_EXCEPTIONS).sort());
  });

  it("leaves exactly login, enrol and health anonymous, and the two legs of an OIDC sign-in", () => {
    expect(operations.filter((r) => r.floor === "anonymous").map((r) => r.label).sort()).toEqual([
      "GET /api/v1/auth/oidc/{name}/callback",
      "GET /api/v1/auth/oidc/{name}/login",
      "GET /api/v1/system/health",
      "POST /api/v1/auth/enrol",
      "POST /api/v1/auth/login",
    ]);
  });
});

describe("authorization matrix", () => {
  describe.each(protectedOps)("$label", (op) => {
    it("answers 401 without a credential", async () => {
      const response = await call(urlOf(op.path), { method: op.method });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    });

    it.each(ROLES)("admits a %s token exactly when the role meets the floor", async (role) => {
      const token = await tokenWithRole(role);
      const response = await call(urlOf(op.path), { method: op.method, headers: { authorization: `Bearer ${token}` } });
      await response.body?.cancel(); // the log stream never ends on its own
      // Session-only operations belong to a logged-in account: every token is refused.
      if (op.credentials === "session") expect(response.status).toBe(403);
      else if (meetsFloor(role, op.floor)) expect([401, 403]).not.toContain(response.status);
      else expect(response.status).toBe(403);
    });
  });

  describe.each(mutations.filter((r) => r.floor !== "anonymous"))("$label with a session cookie", (op) => {
    it("answers 403 without X-CSRF-Token", async () => {
      const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
      const response = await call(urlOf(op.path), { method: op.method, headers: { cookie } });
      expect(response.status).toBe(403);
    });
  });

  it("refuses a session cookie on bearer-only operations", async () => {
    const bearerOnly = operations.filter((r) => r.credentials === "bearer");
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    for (const op of bearerOnly) expect((await call(urlOf(op.path), { method: op.method, headers: { cookie } })).status).toBe(401);
  });
});
