import { describe, expect, it } from "vitest";
import { routes } from "../../src/routes/index.ts";
import { ADMIN_PASSWORD, call, enrolAndLogin, tokenWithRole } from "./client.ts";

type Floor = "anonymous" | "read-only" | "operator" | "super-user";
const ROLES = ["read-only", "operator", "super-user"] as const;
/** The roles at or above `floor`, written out rather than computed by production's `meetsFloor`. */
const ADMITTED: Record<Floor, readonly string[]> = {
  anonymous: ROLES,
  "read-only": ROLES,
  operator: ["operator", "super-user"],
  "super-user": ["super-user"],
};

// A concrete URL for each route: placeholders get plausible values (authorization runs before validation).
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

/**
 * Every operation's floor, written by hand from the spec's Endpoints text: its common rule ("any GET
 * read-only; most mutations operator; mutations under /auth, /config, /vrfs, /routing/config, /cgn
 * super-user"), its per-section Role columns ("admin" is super-user), and, where a line says so, our
 * own documented decision for operations the spec does not itemise. The oracle is this table, never the
 * route table's own floors.
 */
const FLOORS: Record<string, Floor> = {
  // Authentication section: login and enrol anonymous (spec), whoami any role, the rest of /auth's mutations
  // super-user.
  "POST /api/v1/auth/login": "anonymous",
  "POST /api/v1/auth/enrol": "anonymous",
  "POST /api/v1/auth/logout": "read-only", // decision: any account may end its own session
  "GET /api/v1/auth/whoami": "read-only",
  "POST /api/v1/auth/password": "read-only", // decision: any account may change its own password
  "POST /api/v1/auth/tokens": "super-user",
  "GET /api/v1/auth/tokens": "super-user", // decision: token inventory is for super-users
  "GET /api/v1/auth/tokens/{id}": "super-user", // decision: as above
  "DELETE /api/v1/auth/tokens/{id}": "super-user",
  // decision: the sign-in page's single sign-on buttons (enabled providers' names and labels only)
  "GET /api/v1/auth/oidc": "anonymous",
  "GET /api/v1/auth/oidc/{name}/login": "anonymous", // decision: a browser on its way to sign in has no credential yet
  "GET /api/v1/auth/oidc/{name}/callback": "anonymous", // decision: state, PKCE and the browser binding authenticate it
  // The web UI certificate's ACME HTTP-01 answer: the CA validating it has no credential (RFC 8555 §8.3).
  "GET /.well-known/acme-challenge/{token}": "anonymous",
  "POST /api/v1/auth/passkeys/registration-options": "read-only", // decision: an account registers its own passkeys
  "POST /api/v1/auth/passkeys": "read-only", // decision: as above
  "GET /api/v1/auth/passkeys": "read-only",
  // decision: an account manages its own passkeys (a super-user anyone's)
  "PATCH /api/v1/auth/passkeys/{id}": "read-only",
  "DELETE /api/v1/auth/passkeys/{id}": "read-only", // decision: as above
  "GET /api/v1/auth/sessions": "super-user", // decision: session inventory is for super-users
  "DELETE /api/v1/auth/sessions/{id}": "super-user",
  "GET /api/v1/auth/users": "super-user", // decision: account inventory is for super-users
  "POST /api/v1/auth/users": "super-user",
  "GET /api/v1/auth/users/{username}": "super-user", // decision: as above
  "PATCH /api/v1/auth/users/{username}": "super-user",
  "DELETE /api/v1/auth/users/{username}": "super-user",
  "PUT /api/v1/auth/users/{username}/password": "super-user",
  "POST /api/v1/auth/users/{username}/totp/reset": "super-user",
  "POST /api/v1/auth/users/{username}/unlock": "super-user",
  // decision (docs/decisions.md: the providers' settings, role map included, stay super-user reads)
  "GET /api/v1/auth/providers/oidc": "super-user",
  "GET /api/v1/auth/providers/oidc/{name}": "super-user", // decision: as above
  "PUT /api/v1/auth/providers/oidc/{name}": "super-user",
  "DELETE /api/v1/auth/providers/oidc/{name}": "super-user",
  "GET /api/v1/auth/providers/passkey": "read-only",
  "PUT /api/v1/auth/providers/passkey": "super-user",
  // Fleet
  "GET /api/v1/fleet/appliances": "read-only",
  "GET /api/v1/fleet/{appliance}/{path+}": "read-only",
  // System upgrade and diagnostics: health anonymous, stage and apply "per floor" (operator), inject and ping operator.
  "GET /api/v1/system/health": "anonymous",
  "GET /api/v1/system/status": "read-only",
  "GET /api/v1/system/inventory": "read-only",
  "GET /api/v1/system/interfaces": "read-only",
  "GET /api/v1/metrics": "read-only",
  "POST /api/v1/diagnostics/inject": "operator",
  "POST /api/v1/diagnostics/ping": "operator",
  "GET /api/v1/system/upgrade": "read-only",
  "POST /api/v1/system/upgrade/stage": "operator",
  "POST /api/v1/system/upgrade/apply": "operator",
  "GET /api/v1/openapi/v1.json": "read-only",
  "GET /api/v1/docs": "read-only",
  "GET /api/v1/docs/{asset}": "read-only",
  // Sessions and captures: capture start and stop operator.
  "GET /api/v1/sessions": "read-only",
  "GET /api/v1/sessions/summary": "read-only",
  "GET /api/v1/sessions/{id}": "read-only",
  "GET /api/v1/sessions/{id}/rates": "read-only",
  "DELETE /api/v1/sessions/{id}": "operator",
  "GET /api/v1/captures": "read-only",
  "POST /api/v1/sessions/{id}/capture": "operator",
  "DELETE /api/v1/sessions/{id}/capture": "operator",
  // Address pools
  "GET /api/v1/address-pools": "read-only",
  "GET /api/v1/address-pools/{name}/allocations": "read-only",
  // CGN: identify super-user; every mutation under /cgn super-user.
  "GET /api/v1/cgn/bindings": "read-only",
  "GET /api/v1/cgn/status": "read-only",
  "POST /api/v1/cgn/bindings/{bindingIndex}/identify": "super-user",
  "GET /api/v1/cgn/groups": "read-only",
  "GET /api/v1/cgn/groups/{name}": "read-only",
  "PUT /api/v1/cgn/groups/{name}": "super-user",
  "DELETE /api/v1/cgn/groups/{name}": "super-user",
  "GET /api/v1/cgn/settings": "read-only",
  "PUT /api/v1/cgn/settings": "super-user",
  // RADIUS, metrics history, logs
  "GET /api/v1/radius/servers": "read-only",
  "GET /api/v1/metrics/history": "read-only",
  "GET /api/v1/logs/tail": "read-only",
  "GET /api/v1/logs/stream": "read-only",
  // Alarms: clear and test are "admin", i.e. super-user.
  "GET /api/v1/alarms": "read-only",
  "POST /api/v1/alarms/clear": "super-user",
  "POST /api/v1/alarms/test": "super-user",
  // decision: the sinks are configuration the spec leaves unshown, read by its admin (docs/decisions.md, Alarm sinks)
  "GET /api/v1/alarms/sinks": "super-user",
  // Configuration: every mutation under /config super-user.
  "GET /api/v1/config": "read-only",
  "PUT /api/v1/config": "super-user",
  "POST /api/v1/config/validate": "super-user",
  "GET /api/v1/config/history": "read-only",
  "POST /api/v1/config/rollback": "super-user",
  "GET /api/v1/config/schema": "read-only",
  "POST /api/v1/config/webui/certificate": "super-user",
  "GET /api/v1/config/webui/certificate": "read-only",
  // VRFs: every mutation under /vrfs super-user.
  "GET /api/v1/vrfs": "read-only",
  "POST /api/v1/vrfs": "super-user",
  "PUT /api/v1/vrfs/{name}": "super-user",
  "DELETE /api/v1/vrfs/{name}": "super-user",
  // Source VRF rules: POST super-user (spec); update and delete are the same configuration commit.
  "GET /api/v1/source-vrf-rules": "read-only",
  "POST /api/v1/source-vrf-rules": "super-user",
  "GET /api/v1/source-vrf-rules/{name}": "read-only",
  "PUT /api/v1/source-vrf-rules/{name}": "super-user", // decision: a configuration commit, as its create
  "DELETE /api/v1/source-vrf-rules/{name}": "super-user", // decision: as above
  // GRE circuits: no Role column, so the common rule: mutations operator.
  "GET /api/v1/gre-circuits": "read-only",
  "GET /api/v1/gre-circuits/listeners": "read-only",
  "GET /api/v1/gre-circuits/status": "read-only",
  "PUT /api/v1/gre-circuits/listeners/{id}": "operator",
  "DELETE /api/v1/gre-circuits/listeners/{id}": "operator",
  "POST /api/v1/gre-circuits": "operator",
  "PUT /api/v1/gre-circuits/{id}": "operator",
  "DELETE /api/v1/gre-circuits/{id}": "operator",
  // Local subscribers: no Role column, so the common rule: mutations operator.
  "GET /api/v1/subscribers/local": "read-only",
  "POST /api/v1/subscribers/local/ipoe": "operator",
  "GET /api/v1/subscribers/local/ipoe/{key}": "read-only",
  "PUT /api/v1/subscribers/local/ipoe/{key}": "operator",
  "DELETE /api/v1/subscribers/local/ipoe/{key}": "operator",
  "POST /api/v1/subscribers/local/pppoe": "operator",
  "GET /api/v1/subscribers/local/pppoe/{username}": "read-only",
  "PUT /api/v1/subscribers/local/pppoe/{username}": "operator",
  "DELETE /api/v1/subscribers/local/pppoe/{username}": "operator",
  "GET /api/v1/subscribers/local/{kind}/{key}/session": "read-only",
  // L2TP, IPsec
  "GET /api/v1/l2tp/tunnels": "read-only",
  "GET /api/v1/l2tp/tunnels/{id}": "read-only",
  "GET /api/v1/ipsec": "read-only",
  "GET /api/v1/ipsec/peers/{name}": "read-only",
  // Licensing: GET any role; activate and load-offline super-user.
  "GET /api/v1/licensing": "read-only",
  "POST /api/v1/licensing/activate": "super-user",
  "POST /api/v1/licensing/load-offline": "super-user",
  "POST /api/v1/licensing/renew": "super-user", // decision: a licence change, as activation
  "GET /api/v1/licensing/telemetry": "read-only",
  // Routing: mutations under /routing/config super-user.
  "GET /api/v1/routing/bgp/summary": "read-only",
  "GET /api/v1/routing/bgp/neighbor/{address}": "read-only",
  "GET /api/v1/routing/bgp/neighbor/{address}/routes": "read-only",
  "GET /api/v1/routing/igp": "read-only",
  "GET /api/v1/routing/vrfs/{vrf}/routes": "read-only",
  "GET /api/v1/routing/config": "read-only",
  "PATCH /api/v1/routing/config": "super-user",
  "POST /api/v1/routing/config/bgp/neighbors": "super-user",
  "PUT /api/v1/routing/config/bgp/neighbors/{address}": "super-user",
  "DELETE /api/v1/routing/config/bgp/neighbors/{address}": "super-user",
  "PUT /api/v1/routing/config/static-routes": "super-user",
  // The twin's own control surface, outside the spec: super-user only.
  "GET /twin/v1/scenario": "super-user",
  "GET /twin/v1/scenario/faults": "super-user",
  "POST /twin/v1/scenario": "super-user",
  "POST /twin/v1/scenario/run": "super-user",
  // A fan-out read is the fleet proxy's read, many at once: the proxy's floor.
  "GET /twin/v1/fleet/read": "read-only",
};

const operations = routes.map((r) => ({
  ...r,
  label: `${r.method} ${r.path}`,
  floor: FLOORS[`${r.method} ${r.path}`] ?? "unpinned",
}));
const mutations = operations.filter((r) => r.method !== "GET");
const protectedOps = operations.filter((r) => r.floor !== "anonymous");

describe("the route table", () => {
  it("has a hand-pinned floor for every operation, and no pinned floor for an operation it lacks", () => {
    expect(operations.map((r) => r.label).sort()).toEqual(Object.keys(FLOORS).sort());
  });

  it(
    "leaves exactly login, enrol and health anonymous, the sign-in page's OIDC " +
      "choices and the two legs of an OIDC sign-in, and the ACME challenge answer",
    () => {
      expect(
        operations
          .filter((r) => r.floor === "anonymous")
          .map((r) => r.label)
          .sort(),
      ).toEqual([
        "GET /.well-known/acme-challenge/{token}",
        "GET /api/v1/auth/oidc",
        "GET /api/v1/auth/oidc/{name}/callback",
        "GET /api/v1/auth/oidc/{name}/login",
        "GET /api/v1/system/health",
        "POST /api/v1/auth/enrol",
        "POST /api/v1/auth/login",
      ]);
    },
  );
});

describe("authorization matrix", () => {
  // One test an operation, every credential in turn: a test's fresh appliance (storage is reset after each)
  // costs more than its requests, and the assertions name the role that fails.
  it.each(protectedOps)(
    "$label: 401 without a credential, and a token of each role admitted exactly when the role meets the floor",
    async (op) => {
      const anonymous = await call(urlOf(op.path), { method: op.method });
      expect(anonymous.status, "no credential").toBe(401);
      expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
      const tokens = {
        "read-only": await tokenWithRole("read-only"),
        operator: await tokenWithRole("operator"),
        "super-user": await tokenWithRole("super-user"),
      };
      for (const role of ROLES) {
        const token = tokens[role];
        const response = await call(urlOf(op.path), {
          method: op.method,
          headers: { authorization: `Bearer ${token}` },
        });
        await response.body?.cancel(); // the log stream never ends on its own
        // Session-only operations belong to a logged-in account: every token is refused.
        if (op.credentials === "session") expect(response.status, role).toBe(403);
        else if (ADMITTED[op.floor as Floor].includes(role)) {
          // Admitted: past authentication and authorization, and the request is then served or refused as a client
          // error, never a crash.
          expect([401, 403], `${role} admitted`).not.toContain(response.status);
          expect(response.status, role).toBeLessThan(500);
        } else expect(response.status, `${role} below the floor`).toBe(403);
      }
    },
  );

  it("answers 403 to every cookie-authenticated mutation without X-CSRF-Token", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    for (const op of mutations.filter((r) => r.floor !== "anonymous")) {
      const response = await call(urlOf(op.path), { method: op.method, headers: { cookie } });
      expect(response.status, `${op.method} ${op.path}`).toBe(403);
    }
  });

  it("refuses a session cookie on bearer-only operations", async () => {
    const bearerOnly = operations.filter((r) => r.credentials === "bearer");
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    for (const op of bearerOnly)
      expect((await call(urlOf(op.path), { method: op.method, headers: { cookie } })).status).toBe(401);
  });
});
