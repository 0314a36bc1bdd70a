import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import { PeerDefinition } from "../../fleet-config/schema.ts";
import type { FleetAppliance } from "../../src/schemas/fleet.ts";
import { routes } from "../../src/routes/index.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { RoutePage } from "../../src/schemas/routing.ts";
import type { SystemStatus } from "../../src/schemas/system.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json, tokenWithRole } from "./client.ts";
import { advance } from "./helpers.ts";
import { allowLoopback } from "./config-client.ts";

type Appliance = z.output<typeof FleetAppliance>;
type Problem = z.output<typeof ProblemDetails>;

const admin = bearer(BOOTSTRAP_TOKEN);
const proxied = (path: string, headers: Record<string, string> = admin) => call(`/api/v1/fleet/${path}`, { headers });

describe("fleet appliances", () => {
  it(
    "lists this appliance first, then its peers with their URLs, each at its own " + "*.localhost name (issue #47)",
    async () => {
      const list = await (await call("/api/v1/fleet/appliances", { headers: admin })).json();
      // fleet-config/fleet.json: edge-2 and edge-3 listen on 127.0.0.1:8444 and :8445 as edge-2.bng.localhost and
      // edge-3.bng.localhost; a browser keeps a cookie per host, not per port, so each is linked at its name.
      expect(list).toEqual([
        { name: "edge-1", self: true, url: null },
        { name: "edge-2", self: false, url: "https://edge-2.bng.localhost:8444" },
        { name: "edge-3", self: false, url: "https://edge-3.bng.localhost:8445" },
      ]);
    },
  );

  it("is seen from each appliance's own point of view", async () => {
    const list = await (await call("/api/v1/fleet/appliances", { headers: admin, appliance: "edge-2" })).json<
      Appliance[]
    >();
    expect(list.map((a) => a.name)).toEqual(["edge-2", "edge-1", "edge-3"]);
  });
});

describe("fleet proxy", () => {
  it("relays a peer's answer: status, body and content type", async () => {
    const response = await proxied("edge-2/system/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ status: "ok", appliance: "edge-2" });
  });

  it("relays a peer's errors verbatim", async () => {
    const response = await proxied("edge-2/l2tp/tunnels/999999");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json<Problem>()).instance).toBe("/api/v1/l2tp/tunnels/999999");
  });

  it("authenticates to the peer with the configured credential, never the caller's", async () => {
    // This token exists on edge-1 only: edge-2 can only have accepted the peer credential.
    const local = await tokenWithRole("read-only");
    expect((await call("/api/v1/system/status", { headers: bearer(local), appliance: "edge-2" })).status).toBe(401);
    const response = await proxied("edge-2/system/status", bearer(local));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ appliance: "edge-2" });
  });

  it("is open to read-only callers", async () => {
    expect((await proxied("edge-3/system/health", bearer(await tokenWithRole("read-only")))).status).toBe(200);
  });

  it.each([
    ["edge-2/auth/whoami", 403],
    ["edge-2/AUTH/whoami", 403],
    ["edge-2/auth%2Fwhoami", 403],
    ["edge-2/fleet/appliances", 403],
    ["edge-2/fleet/edge-1/system/health", 403],
    ["edge-2/logs/stream", 403],
    ["edge-2/system/..%2Fauth/whoami", 403],
    ["edge-2/system/%2e%2e%2fauth%2fwhoami", 403],
    ["edge-2/system/.%2e/auth/whoami", 403],
    ["edge-2/system\\..\\auth\\whoami", 403],
    ["edge-2/metrics", 403],
    ["edge-2/openapi/v1.json", 403],
    ["edge-2/docs", 403],
    ["edge-2/config/history", 403],
    ["edge-2/sessions/summary/../../auth/tokens", 403],
    ["edge-2/..%2F..%2Fauth/whoami", 400],
    ["edge-2/%2e%2e%5c%2e%2e%5cauth", 400],
  ])("refuses %s with %i", async (path, status) => {
    const response = await proxied(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("does not decode twice: a double-encoded dot-dot stays a literal segment on the peer", async () => {
    const response = await proxied("edge-2/l2tp/tunnels/%252e%252e");
    // The peer read the id as the literal text `%2e%2e`, not as a step up.
    expect(response.status).toBe(400);
    expect((await response.json<Problem>()).instance).toBe("/api/v1/l2tp/tunnels/%252e%252e");
  });

  it(
    "reads every row of GET /fleet/appliances, this appliance's own included, as a " + "script looping over them does",
    async () => {
      const rows = await (await call("/api/v1/fleet/appliances", { headers: admin })).json<Appliance[]>();
      expect(rows.map((r) => r.name)).toContain("edge-1");
      for (const row of rows) {
        const response = await proxied(`${row.name}/system/status`, bearer(await tokenWithRole("read-only")));
        expect(response.status, row.name).toBe(200);
        expect(response.headers.get("x-bng-fleet-appliance")).toBe(row.name);
        expect((await response.json<{ appliance: string }>()).appliance).toBe(row.name);
      }
      // Through its own proxy, this appliance answers exactly as it does directly.
      await advance(600);
      const direct = await call("/api/v1/sessions?limit=5", { headers: admin });
      expect(await (await proxied("edge-1/sessions?limit=5")).json()).toEqual(await direct.json());
    },
  );

  it("answers 404 for an appliance that is not a peer", async () => {
    const response = await proxied("edge-9/system/health");
    expect(response.status).toBe(404);
    expect((await response.json<Problem>()).detail).toContain("edge-9");
  });

  it("relays GET only", async () => {
    const response = await call("/api/v1/fleet/edge-2/system/health", { method: "POST", headers: admin });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("needs a credential of its own", async () => {
    expect((await call("/api/v1/fleet/edge-2/system/health")).status).toBe(401);
  });
});

/**
 * A body with the fields that follow the wall clock, not the simulated one, taken out: health's moment of
 * answering and the control plane's uptime (documented as wall clock) move between two reads a moment apart.
 */
function withoutWallClock(path: string, text: string): unknown {
  if (path === "/api/v1/system/health") {
    const { timeUtc: _t, uptimeSeconds: _u, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return rest;
  }
  if (path === "/api/v1/system/status") {
    const {
      controlPlane: { uptimeSeconds: _u, ...controlPlane },
      ...rest
    } = JSON.parse(text) as SystemStatus;
    return { ...rest, controlPlane };
  }
  return text;
}

/**
 * The spec's FP reads, copied by hand from its Endpoints text (every line marked "(FP)"), never read from
 * the route table: a route that loses its flag, or gains one the spec does not give, fails below.
 */
const SPEC_FP = [
  "/api/v1/address-pools",
  "/api/v1/address-pools/{name}/allocations",
  "/api/v1/logs/tail",
  "/api/v1/metrics/history",
  "/api/v1/sessions",
  "/api/v1/sessions/summary",
  "/api/v1/captures",
  "/api/v1/config",
  "/api/v1/ipsec",
  "/api/v1/ipsec/peers/{name}",
  "/api/v1/l2tp/tunnels",
  "/api/v1/l2tp/tunnels/{id}",
  "/api/v1/cgn/bindings",
  "/api/v1/cgn/status",
  "/api/v1/routing/bgp/neighbor/{address}",
  "/api/v1/routing/bgp/neighbor/{address}/routes",
  "/api/v1/routing/bgp/summary",
  "/api/v1/radius/servers",
  "/api/v1/vrfs",
];
/** Reads relayed beyond the spec's list, each for a reason docs/decisions.md's "Fleet" section gives. */
const BEYOND_SPEC_FP = [
  // The fleet overview: each peer's state and health, read from one appliance.
  "/api/v1/system/health",
  "/api/v1/system/status",
  "/api/v1/system/inventory",
  "/api/v1/system/interfaces",
  // A subscriber the fleet search finds on a peer opens that session's page, read-only.
  "/api/v1/sessions/{id}",
  "/api/v1/sessions/{id}/rates",
  // The rest of the routing section's reads, beside the BGP reads the spec marks FP.
  "/api/v1/routing/config",
  "/api/v1/routing/igp",
  "/api/v1/routing/vrfs/{vrf}/routes",
];
const RELAYED = new Set([...SPEC_FP, ...BEYOND_SPEC_FP]);
/**
 * Path parameters that name nothing on the peer: its own 404 or 400, relayed verbatim, tells a relay from a refusal.
 */
const SAMPLE_PARAMS: Record<string, string> = { name: "no-such", id: "999999", address: "192.0.2.1", vrf: "default" };
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? "x");
const readsOnAPeer = routes.filter(
  (r) => r.method === "GET" && !r.hidden && r.path.startsWith("/api/v1/") && !r.path.startsWith("/api/v1/fleet/"),
);

describe("every FP read of the spec, and no other", () => {
  it("names only operations that exist", () => {
    const known = new Set(readsOnAPeer.map((r) => r.path));
    expect([...RELAYED].filter((path) => !known.has(path))).toEqual([]);
  });

  it.each([...RELAYED].filter((path) => !path.includes("{")))(
    "%s is readable on a peer through the fleet proxy, relaying the peer's own answer",
    async (path) => {
      // Some traffic first, so the bodies have rows to differ in; the clock is manual (BNG_CLOCK=manual), so
      // both reads below see the peer at the same simulated moment and may be compared whole.
      await call("/twin/v1/scenario", {
        appliance: "edge-2",
        ...json("POST", { action: "advance-clock", seconds: 600 }, admin),
      });
      const peerPath = path.replace(/^\/api\/v1\//, "");
      const direct = await call(path, { headers: admin, appliance: "edge-2" });
      const relayed = await proxied(`edge-2/${peerPath}`);
      expect(relayed.status).toBe(200);
      expect(relayed.status).toBe(direct.status);
      expect(relayed.headers.get("content-type")).toBe(direct.headers.get("content-type"));
      expect(withoutWallClock(path, await relayed.text())).toEqual(withoutWallClock(path, await direct.text()));
    },
  );

  it.each([...RELAYED].filter((path) => path.includes("{")))(
    "%s relays the peer's own answer for a name it does not have",
    async (path) => {
      const direct = await call(concrete(path), { headers: admin, appliance: "edge-2" });
      const relayed = await proxied(`edge-2/${concrete(path).replace(/^\/api\/v1\//, "")}`);
      expect(relayed.status).toBe(direct.status);
      expect(await relayed.text()).toEqual(await direct.text());
    },
  );

  it.each(readsOnAPeer.filter((r) => !RELAYED.has(r.path)).map((r) => r.path))(
    "%s is refused: the spec does not mark it FP",
    async (path) => {
      const response = await proxied(`edge-2/${concrete(path).replace(/^\/api\/v1\//, "")}`);
      expect(response.status).toBe(403);
      expect((await response.json<Problem>()).detail).toContain("x-fleet-proxy");
    },
  );
});

describe("peers from the running configuration", () => {
  const addPeer = (name: string, fields: Record<string, string>) =>
    call(
      "/api/v1/config",
      json(
        "PUT",
        { listOps: [{ listPath: "webUi.peers", key: name, delete: false, fields }], comment: `add ${name}` },
        admin,
      ),
    );

  it(
    "take effect at restart: a peer added to webUi.peers is listed and proxied after " + "the appliance restarts",
    async () => {
      const closed = `http://127.0.0.1:${inject("closedPort")}`;
      await allowLoopback();
      const commit = await addPeer("lab", { url: closed, credential: "bngtok_" + "L".repeat(36), timeoutMs: "500" });
      expect(commit.status).toBe(200);
      expect(await commit.json()).toMatchObject({ status: "committed", restartRequired: true });
      const before = await (await call("/api/v1/fleet/appliances", { headers: admin })).json<Appliance[]>();
      expect(before.map((a) => a.name)).not.toContain("lab");

      await abortAllDurableObjects();
      const after = await (await call("/api/v1/fleet/appliances", { headers: admin })).json<Appliance[]>();
      expect(after).toContainEqual({ name: "lab", self: false, url: closed });
      expect((await proxied("lab/system/health")).status).toBe(502);
    },
  );

  it("drop a peer removed from the configuration at restart", async () => {
    await call(
      "/api/v1/config",
      json("PUT", { listOps: [{ listPath: "webUi.peers", key: "edge-3", delete: true, fields: {} }] }, admin),
    );
    await abortAllDurableObjects();
    expect((await proxied("edge-3/system/health")).status).toBe(404);
    expect((await proxied("edge-2/system/health")).status).toBe(200);
  });
});

describe("the FP flag is the proxy's allowlist (#9 item 14)", () => {
  it("refuses a read the route table does not mark FP, naming the rule", async () => {
    // The metrics scrape is a read-only GET on every appliance, but not FP: a peer's scrape belongs to its own
    // Prometheus job.
    const response = await proxied("edge-2/metrics", bearer(await tokenWithRole("read-only")));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json<Problem>()).detail).toContain("x-fleet-proxy");
  });

  // Relayed to a member in-process, the peer's own pipeline judges the input: the answer is the one the peer gives when
  // asked directly.
  it.each([
    ["a query the peer refuses (400 naming the field)", "sessions?port=-1"],
    ["a repeated query parameter", "sessions?limit=3&vrf=default&vrf=cgn-inside"],
    ["filters and paging", "sessions?limit=5&offset=2&encap=ipoe"],
  ])("relays %s exactly as the peer answers it", async (_, path) => {
    const direct = await call(`/api/v1/${path}`, { headers: admin, appliance: "edge-2" });
    const relayed = await proxied(`edge-2/${path}`);
    expect(relayed.status).toBe(direct.status);
    expect(relayed.headers.get("content-type")).toBe(direct.headers.get("content-type"));
    expect(relayed.headers.get("x-bng-fleet-appliance")).toBe("edge-2");
    expect(await relayed.json()).toEqual(await direct.json());
  });

  it("answers the peer's 400 for a bad query with the field named and the peer's path as the instance", async () => {
    const relayed = await proxied("edge-2/sessions?port=-1");
    expect(relayed.status).toBe(400);
    const problem = await relayed.json<Problem>();
    expect(problem.instance).toBe("/api/v1/sessions");
    expect(problem.detail).toContain("query port");
  });

  it("relays an FP read with path parameters and a query", async () => {
    const response = await proxied("edge-2/routing/vrfs/default/routes?limit=2");
    expect(response.status).toBe(200);
    expect((await response.json<RoutePage>()).routes.length).toBeLessThanOrEqual(2);
  });
});

describe("external peers (#9 item 6)", () => {
  const addPeer = (name: string, url: string) =>
    call(
      "/api/v1/config",
      json(
        "PUT",
        { listOps: [{ listPath: "webUi.peers", key: name, fields: { url, credential: "bngtok_" + "P".repeat(36) } }] },
        admin,
      ),
    );

  it.each([
    "http://127.0.0.1:9/api/v1/auth",
    "https://peer.example.net/any/path",
    "https://peer.example.net/?q=1",
    "https://peer.example.net#frag",
    "https://user:pw@peer.example.net",
    "https://peer.example.net/.",
  ])("refuses the peer URL %s: origins only, 422 naming the field", async (url) => {
    const response = await addPeer("lab", url);
    expect(response.status).toBe(422);
    const body = await response.json<Problem>();
    expect(body.errors!.map((e) => e.pointer)).toEqual(["#/lists/webUi.peers/lab/url"]);
    expect(body.errors![0]!.detail).toContain("origin");
  });

  it.each(["http://peer.example.net", "http://peer.example.net:8080", "http://10.0.0.7:8443"])(
    "refuses the plain-http peer %s even with loopback allowed: the peer credential " +
      "would cross in clear (422 naming the field)",
    async (url) => {
      await allowLoopback();
      const response = await addPeer("lab", url);
      expect(response.status).toBe(422);
      const body = await response.json<Problem>();
      expect(body.errors!.map((e) => e.pointer)).toEqual(["#/lists/webUi.peers/lab/url"]);
      expect(body.errors![0]!.detail).toMatch(/https only|alarms\.webhookAllowlist/);
    },
  );

  it.each(["http://127.0.0.1:8443", "https://127.0.0.1:8443", "https://192.168.1.20"])(
    "refuses the internal peer %s while the allowlist does not hold it (422 naming the field)",
    async (url) => {
      const response = await addPeer("lab", url);
      expect(response.status).toBe(422);
      const body = await response.json<Problem>();
      expect(body.errors!.map((e) => e.pointer)).toEqual(["#/lists/webUi.peers/lab/url"]);
      expect(body.errors![0]!.detail).toContain("alarms.webhookAllowlist");
    },
  );

  it.each(["https://peer.example.net", "https://peer.example.net:8443/", "http://[::1]:8080"])(
    "accepts the origin %s",
    async (url) => {
      // Plain http only to an allowlisted internal address (the loopback the local fleet allows).
      await allowLoopback();
      expect((await addPeer("lab", url)).status).toBe(200);
    },
  );

  it("the fleet file takes origins only too", () => {
    expect(PeerDefinition.safeParse({ name: "lab", url: "https://peer.example.net:8443" }).success).toBe(true);
    const refused = PeerDefinition.safeParse({ name: "lab", url: "https://peer.example.net/api/v1/auth" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(["url"]);
  });

  describe("a peer on loopback that answers HTML", () => {
    const peerOrigin = () => `http://127.0.0.1:${inject("peerServerPort")}`;
    const withPeer = async () => {
      await allowLoopback();
      expect((await addPeer("rogue", peerOrigin())).status).toBe(200);
      await abortAllDurableObjects();
    };

    it("is not relayed: 502 naming the type, never served on this origin", async () => {
      await withPeer();
      const response = await proxied("rogue/system/status");
      expect(response.status).toBe(502);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect((await response.json<Problem>()).detail).toContain("text/html");
    });

    it("a JSON answer is relayed with nosniff and a sandbox CSP", async () => {
      await withPeer();
      const response = await proxied("rogue/system/inventory");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("sandbox");
      expect(await response.json()).toEqual({ relayed: true, authorization: "Bearer bngtok_" + "P".repeat(36) });
    });
  });
});
