import { describe, expect, it } from "vitest";
import { routes } from "../../src/routes/index.ts";
import { SECTIONS, TWIN_SECTIONS, UNCOUNTED_SECTIONS } from "../../src/schemas/contract.ts";
import { contract } from "../../src/schemas/index.ts";
import { floorOf } from "../../src/auth/authorize.ts";
import { BOOTSTRAP_TOKEN, bearer, call } from "./client.ts";

type Operation = {
  tags: string[];
  security: unknown[];
  "x-role-floor": string;
  "x-proxied-operation"?: string;
  responses: Record<string, unknown>;
};
type Document = {
  openapi: string;
  info: { version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

const documentOf = async () =>
  (await call("/api/v1/openapi/v1.json", { headers: bearer(BOOTSTRAP_TOKEN) })).json<Document>();

describe("the contract and the route table", () => {
  it(
    "serve the same operations: every route implements one operation of the " +
      "contract, and every operation is served",
    () => {
      const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
      const declared = Object.values(contract).flatMap((section) => Object.values(section).map(key));
      expect(new Set(declared).size).toBe(declared.length);
      expect(routes.map(key).sort()).toEqual([...declared].sort());
    },
  );
});

describe("OpenAPI document", () => {
  it("needs authentication, as does the reference", async () => {
    expect((await call("/api/v1/openapi/v1.json")).status).toBe(401);
    expect((await call("/api/v1/docs")).status).toBe(401);
  });

  it(
    "is OpenAPI 3.1, version v1, with the spec's 20 sections (plus IPsec, listed but " +
      "not counted by the spec, and the twin's scenario control) and two security schemes",
    async () => {
      const doc = await documentOf();
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.info.version).toBe("v1");
      expect(doc.tags.map((t) => t.name)).toEqual([...SECTIONS, ...UNCOUNTED_SECTIONS, ...TWIN_SECTIONS]);
      expect(SECTIONS).toHaveLength(20);
      expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearerToken", "sessionCookie"]);
    },
  );

  it("documents exactly the spec's 125 operations, section by section", async () => {
    // The spec's section table ("125 operations in 20 sections").
    const SPEC_COUNTS: Record<(typeof SECTIONS)[number], number> = {
      "Address pools": 2,
      Alarms: 3,
      Authentication: 32,
      CGN: 9,
      Captures: 3,
      Configuration: 8,
      Fleet: 2,
      "GRE Circuits": 8,
      L2TP: 2,
      Licensing: 5,
      LocalSubscribers: 10,
      Logs: 2,
      Metrics: 1,
      RADIUS: 1,
      Routing: 11,
      Sessions: 5,
      "Source VRF Rules": 5,
      System: 9,
      SystemUpgrade: 3,
      VRFs: 4,
    };
    const doc = await documentOf();
    const counts: Record<string, number> = {};
    // The fleet proxy's reads one by one (x-proxied-operation) are the document's view of the one proxy operation.
    for (const ops of Object.values(doc.paths))
      for (const op of Object.values(ops))
        if (!op["x-proxied-operation"]) for (const tag of op.tags) counts[tag] = (counts[tag] ?? 0) + 1;
    expect(Object.fromEntries(SECTIONS.map((s) => [s, counts[s] ?? 0]))).toEqual(SPEC_COUNTS);
    expect(Object.values(SPEC_COUNTS).reduce((a, b) => a + b, 0)).toBe(125);
  });

  it("describes every operation of the route table with its role floor", async () => {
    const doc = await documentOf();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !op["x-proxied-operation"])
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    const served = routes
      .filter((r) => !r.hidden)
      .map((r) => ({ key: `${r.method} ${r.path.replace("{path+}", "{path}")}`, floor: floorOf(r) }));
    expect(documented.map((d) => d.key).sort()).toEqual(served.map((s) => s.key).sort());
    for (const { key, floor } of served) expect(documented.find((d) => d.key === key)!.op["x-role-floor"]).toBe(floor);
  });

  it("marks the anonymous operations with empty security and documents problem responses", async () => {
    const doc = await documentOf();
    expect(doc.paths["/api/v1/auth/login"]!.post!.security).toEqual([]);
    expect(doc.paths["/api/v1/auth/whoami"]!.get!.responses["401"]).toBeDefined();
    expect(doc.components.schemas.ProblemDetails).toBeDefined();
  });

  it("documents a configuration write's If-Match, its 412 and the ETag it answers (RFC 9110 §13.1.1)", async () => {
    const doc = await documentOf();
    for (const [path, method] of [
      ["/api/v1/config", "put"],
      ["/api/v1/config/rollback", "post"],
      ["/api/v1/vrfs/{name}", "delete"],
    ] as const) {
      const op = doc.paths[path]![method] as Operation & {
        parameters: { name: string; in: string }[];
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      expect(op.parameters, `${method} ${path}`).toContainEqual(
        expect.objectContaining({ name: "If-Match", in: "header" }),
      );
      expect(Object.keys(op.responses), `${method} ${path}`).toContain("412");
      expect(Object.keys(op.responses["200"]!.headers ?? {}), `${method} ${path}`).toContain("etag");
    }
    expect(Object.keys(doc.paths["/api/v1/config/validate"]!.post!.responses)).not.toContain("412");
  });

  it("serves an interactive reference without any CDN", async () => {
    const page = await call("/api/v1/docs", { headers: bearer(BOOTSTRAP_TOKEN) });
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await call("/api/v1/docs/swagger-ui-bundle.js", { headers: bearer(BOOTSTRAP_TOKEN) });
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});
