/**
 * No input crashes the appliance: every operation of the route table, given
 * hostile path parameters, query strings and bodies by a super-user, answers
 * with a 2xx or a 4xx problem, never a 5xx.
 */
import { describe, expect, it } from "vitest";
import { routes } from "../../src/routes/index.ts";
import { BOOTSTRAP_TOKEN, call } from "./client.ts";

const HOSTILE_SEGMENTS = ["%00", "..%2f..", "-1", "99999999999999999999", "x".repeat(300), "%E2%82", "a%20b", "🙂"];
const HOSTILE_QUERIES = [
  "limit=-5&offset=-1",
  "limit=abc",
  "offset=1e309",
  "sinceSeq=-1",
  "port=1.5",
  "walledGarden=maybe",
  "range=%00",
  "vrf=&ip=::::::",
  "count=NaN",
];
const HOSTILE_BODIES: unknown[] = [
  null,
  [],
  "text",
  42,
  {},
  { fields: { "a.b": { nested: true } }, listOps: "no" },
  { name: { $ne: 1 }, role: ["super-user"] },
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}'),
];
const operations = routes.filter((r) => !r.hidden && r.path !== "/api/v1/logs/stream");
const auth = { authorization: `Bearer ${BOOTSTRAP_TOKEN}` };
const OVERSIZED = `"${"x".repeat(1024 * 1024 - 1)}"`;

async function expectNoServerError(path: string, init: RequestInit) {
  const response = await call(path, init);
  const text = await response.text();
  expect(response.status, `${init.method} ${path} → ${response.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (response.status >= 400) expect(response.headers.get("content-type")).toBe("application/problem+json");
}

const labelled = operations.map((r) => ({ ...r, label: `${r.method} ${r.path}` }));
const withParams = (path: string, value: string) => path.replace(/\{(\w+)\+?\}/g, value);

// One test a route, every hostile input it can take in turn (a fresh appliance a test costs more than the requests).
describe.each(labelled)("$label", (route) => {
  it("survives hostile path parameters, query strings and bodies", async () => {
    if (route.path.includes("{")) {
      for (const segment of HOSTILE_SEGMENTS)
        await expectNoServerError(withParams(route.path, segment), { method: route.method, headers: auth });
    }
    for (const query of HOSTILE_QUERIES)
      await expectNoServerError(`${withParams(route.path, "1")}?${query}`, { method: route.method, headers: auth });
    if (route.method === "GET") return;
    for (const body of HOSTILE_BODIES) {
      await expectNoServerError(withParams(route.path, "1"), {
        method: route.method,
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    }
    await expectNoServerError(withParams(route.path, "1"), {
      method: route.method,
      headers: { ...auth, "content-type": "application/json" },
      body: "{".repeat(5000),
    });
    // One byte past the largest body any operation takes (1 MiB, the spec's 413 limit), its length declared.
    if (!route.body) return;
    const oversized = await call(withParams(route.path, "1"), {
      method: route.method,
      headers: { ...auth, "content-type": "application/json", "content-length": String(OVERSIZED.length) },
      body: OVERSIZED,
    });
    // A route refuses a bearer token it never takes (session-only), or a path parameter, before it reads a body.
    const refusedFirst = route.credentials === "session" || route.path.includes("{");
    if (refusedFirst)
      expect(oversized.status, `${route.method} ${route.path} with ${OVERSIZED.length} bytes`).toBeLessThan(500);
    else expect(oversized.status, `${route.method} ${route.path} with ${OVERSIZED.length} bytes`).toBe(413);
    expect(oversized.headers.get("content-type")).toBe("application/problem+json");
    await oversized.body?.cancel();
  });
});

it("leaves Object.prototype alone", () => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
