/**
 * The table's one matcher (src/http/matcher.ts) finds a path without
 * parameters with one lookup before it walks its method's routes: it must
 * still answer with the route itty would take, the first in table order,
 * and leave 404, 405 and HEAD as they were. The fleet proxy's allowlist asks
 * the same matcher, so it judges the route a relayed path would reach.
 */
import { describe, expect, it } from "vitest";
import { Router } from "itty-router";
import { ittyPath, routeMatcher } from "../../src/http/matcher.ts";
import { routes } from "../../src/routes/index.ts";
import { buildRouter } from "../../src/http/pipeline.ts";
import { inWorker, type Route } from "../../src/http/route.ts";
import { fpAllowlist } from "../../src/routes/fleet.ts";
import { operation } from "../../src/schemas/contract.ts";
import type { ApplianceTarget } from "../../src/fleet/context.ts";
import type { PortCall } from "../../src/schemas/operation.ts";

const read = (path: string, method: "GET" | "POST" = "GET", fp = false): Route =>
  inWorker(
    operation({
      method,
      path,
      section: "System",
      summary: path,
      floor: "anonymous",
      fp,
      response: { description: path },
    }),
    () => `${method} ${path}`,
  );

/** An appliance whose object admits every caller: each handler answers with the route it serves. */
const appliance = {
  name: "edge-1",
  secure: false,
  clientIp: () => "unknown",
  stub: { call: async (_: PortCall) => ({ ok: true, value: undefined }) },
} as unknown as ApplianceTarget;

const answer = async (router: ReturnType<typeof buildRouter>, method: string, path: string) => {
  const response = await router.fetch(new Request(`https://edge-1.example${path}`, { method }), appliance);
  return {
    status: response.status,
    body: method === "HEAD" ? null : await response.text(),
    allow: response.headers.get("allow"),
  };
};

describe("route lookup", () => {
  it(
    "answers a path an earlier route with a parameter also matches with that earlier " + "route, as itty does",
    async () => {
      const router = buildRouter([read("/api/v1/things/{id}"), read("/api/v1/things/summary")]);
      expect(await answer(router, "GET", "/api/v1/things/summary")).toMatchObject({
        status: 200,
        body: '"GET /api/v1/things/{id}"',
      });
    },
  );

  it("answers a path without parameters with its own route when nothing before it matches", async () => {
    const router = buildRouter([read("/api/v1/things/summary"), read("/api/v1/things/{id}")]);
    expect(await answer(router, "GET", "/api/v1/things/summary")).toMatchObject({
      status: 200,
      body: '"GET /api/v1/things/summary"',
    });
    expect(await answer(router, "GET", "/api/v1/things/7")).toMatchObject({
      status: 200,
      body: '"GET /api/v1/things/{id}"',
    });
  });

  it(
    "serves HEAD from the GET route without a body, a trailing slash like the path, " +
      "and other methods 405 with Allow",
    async () => {
      const router = buildRouter([read("/api/v1/things/summary")]);
      expect(await answer(router, "HEAD", "/api/v1/things/summary")).toMatchObject({ status: 200, body: null });
      expect(await answer(router, "GET", "/api/v1/things/summary/")).toMatchObject({
        status: 200,
        body: '"GET /api/v1/things/summary"',
      });
      expect(await answer(router, "DELETE", "/api/v1/things/summary")).toMatchObject({
        status: 405,
        allow: "GET, HEAD, OPTIONS",
      });
      expect((await answer(router, "GET", "/api/v1/things/other")).status).toBe(404);
    },
  );

  it(
    "answers a path with parameters from the first route that matches it, a " +
      "parameter in any segment, and 405 for another method",
    async () => {
      const router = buildRouter([
        read("/api/v1/things/{id}"),
        read("/api/v1/other/{id}/rates"),
        read("/api/{version}/things/{id}/history"),
        read("/api/v1/things/{id}/reset", "POST"),
      ]);
      expect(await answer(router, "GET", "/api/v1/things/7")).toMatchObject({
        status: 200,
        body: '"GET /api/v1/things/{id}"',
      });
      expect(await answer(router, "GET", "/api/v1/other/7/rates")).toMatchObject({
        status: 200,
        body: '"GET /api/v1/other/{id}/rates"',
      });
      expect(await answer(router, "GET", "/api/v1/things/7/history")).toMatchObject({
        status: 200,
        body: '"GET /api/{version}/things/{id}/history"',
      });
      expect(await answer(router, "GET", "/api/v2/things/7/history")).toMatchObject({
        status: 200,
        body: '"GET /api/{version}/things/{id}/history"',
      });
      expect(await answer(router, "POST", "/api/v1/things/7")).toMatchObject({
        status: 405,
        allow: "GET, HEAD, OPTIONS",
      });
      expect(await answer(router, "POST", "/api/v1/things/7/reset")).toMatchObject({
        status: 200,
        body: '"POST /api/v1/things/{id}/reset"',
      });
      expect((await answer(router, "GET", "/api/v1/nothing/7")).status).toBe(404);
    },
  );

  it("answers OPTIONS with the path's methods, and 404 for a path no route has, whatever the method", async () => {
    const router = buildRouter([read("/api/v1/things/{id}"), read("/api/v1/things/{id}/reset", "POST")]);
    expect(await answer(router, "OPTIONS", "/api/v1/things/7")).toMatchObject({
      status: 204,
      allow: "GET, HEAD, OPTIONS",
    });
    expect((await answer(router, "PATCH", "/api/v1/nothing")).status).toBe(404);
    expect((await answer(router, "HEAD", "/api/v1/nothing")).status).toBe(404);
  });
});

describe("the matcher against itty's own router", () => {
  it(
    "picks the route itty's fetch picks, for a path made from every template of the " +
      "table, with slashes doubled, trailing or encoded",
    async () => {
      const itty = Router();
      for (const route of routes)
        (itty as unknown as Record<string, (path: string, handler: () => Route) => unknown>)[
          route.method.toLowerCase()
        ]!(ittyPath(route.path), () => route);
      const matcher = routeMatcher(routes);
      const paths = routes.flatMap((route) => {
        const path = route.path.replace(/\{(\w+)\+\}/g, "a/b").replace(/\{(\w+)\}/g, "x1");
        return [
          path,
          `${path}/`,
          `${path}//`,
          path.replace("/v1/", "//v1/"),
          path.replace("/api/", "/%61pi/"),
          path.toUpperCase(),
          `${path}/extra`,
        ];
      });
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        for (const path of paths) {
          const expected = (await itty.fetch(new Request(`https://edge-1.example${path}`, { method }))) as
            | Route
            | undefined;
          const found = matcher.match(method, new URL(`https://edge-1.example${path}`).pathname)?.route;
          expect({ method, path, route: found ? `${found.method} ${found.path}` : null }).toEqual({
            method,
            path,
            route: expected ? `${expected.method} ${expected.path}` : null,
          });
        }
      }
    },
  );
});

describe("the fleet proxy's allowlist", () => {
  it(
    "relays a path only when the route the router would run for it is marked FP, not " +
      "when a later FP route's pattern also fits",
    () => {
      const table = [
        read("/api/v1/things/{id}"),
        read("/api/v1/things/summary", "GET", true),
        read("/api/v1/other/{id}", "GET", true),
      ];
      const relayable = fpAllowlist(() => table);
      expect(relayable("/api/v1/other/7")).toBe(true);
      // The router answers /things/summary with /things/{id}, which is local: the proxy must not relay it.
      expect(relayable("/api/v1/things/summary")).toBe(false);
      expect(relayable("/api/v1/things/7")).toBe(false);
      expect(relayable("/api/v1/nothing")).toBe(false);
    },
  );
});
