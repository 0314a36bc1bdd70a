/**
 * The OpenAPI document works untouched with the tools API users generate
 * and script with (issue #26): validators (Prism) and test generators send
 * only what it allows and must accept what the server accepts. Read from the
 * document the Worker serves; the spec's sizes (int32, uint16, uint32, …)
 * are the expected values.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { pointersOf, rejection } from "./config-client.ts";
import { admin } from "./helpers.ts";
import { routes } from "../../src/routes/index.ts";
import { SessionList } from "../../src/schemas/sessions.ts";
import { SystemStatus } from "../../src/schemas/system.ts";

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  pattern?: string;
};
type Parameter = { name: string; in: string; description?: string; schema: Schema };
type Body = { $ref?: string; content?: Record<string, { schema: Schema }> };
type Operation = {
  description?: string;
  summary: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: Body;
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
  "x-proxied-operation"?: string;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; requestBodies: Record<string, Body> };
};

const documentOf = async () =>
  (await call("/api/v1/openapi/v1.json", { headers: bearer(BOOTSTRAP_TOKEN) })).json<Document>();
const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
const bodyOf = (doc: Document, op: Operation) =>
  op.requestBody?.$ref ? doc.components.requestBodies[op.requestBody.$ref.split("/").pop()!] : op.requestBody;
const problem = async (response: Response) => response.json<z.output<typeof ProblemDetails>>();

/** Every integer schema under `schema`, with where it sits (references followed, each once per branch). */
function integers(
  doc: Document,
  schema: unknown,
  where: string,
  seen: readonly string[] = [],
): { where: string; schema: Schema }[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => integers(doc, s, `${where}/${i}`, seen));
  if (schema === null || typeof schema !== "object") return [];
  const s = schema as Schema;
  if (s.$ref) {
    const name = s.$ref.split("/").pop()!;
    return seen.includes(name) ? [] : integers(doc, doc.components.schemas[name], where, [...seen, name]);
  }
  const own = [s.type].flat().includes("integer") ? [{ where, schema: s }] : [];
  return [
    ...own,
    ...Object.entries(s).flatMap(([k, v]) => (typeof v === "object" ? integers(doc, v, `${where}/${k}`, seen) : [])),
  ];
}

// The spec's int64 values: bounded by what a JSON number carries exactly (I-JSON, RFC 7493 §2.2), docs/decisions.md.
const INT64 = new Set(["sinceSeq"]);

describe("integers a request carries", () => {
  it("are all bounded below and above, none at zod's unbounded ±(2^53 - 1) but the spec's int64 values", async () => {
    const doc = await documentOf();
    const found = operations(doc).flatMap(({ key, op }) => [
      ...(op.parameters ?? []).flatMap((p) =>
        integers(doc, p.schema, `${key} ${p.in} ${p.name}`).map((i) => ({ ...i, name: p.name })),
      ),
      ...Object.entries(bodyOf(doc, op)?.content ?? {}).flatMap(([type, media]) =>
        integers(doc, media.schema, `${key} ${type}`).map((i) => ({ ...i, name: i.where.split("/").pop()! })),
      ),
    ]);
    expect(found.length).toBeGreaterThan(100);
    const unbounded = found.filter(({ schema, name }) => {
      const { minimum, maximum } = schema;
      if (minimum === undefined || maximum === undefined) return true;
      return minimum <= -Number.MAX_SAFE_INTEGER || (maximum >= Number.MAX_SAFE_INTEGER && !INT64.has(name));
    });
    expect(unbounded.map((u) => `${u.where}: ${u.schema.minimum}..${u.schema.maximum}`)).toEqual([]);
  });

  it(
    "carry the spec's sizes: a VRF's tableId uint32, CGN chunkSize uint16 or less, a " +
      "page's limit int32, a VLAN 0-4094",
    async () => {
      const doc = await documentOf();
      // The request body of an operation, by its path and method.
      const member = (path: string, method: "post" | "put", field: string) =>
        (
          bodyOf(doc, doc.paths[path]![method]!)!.content!["application/json"]!.schema.properties as Record<
            string,
            Schema
          >
        )[field]!;
      const int = (s: Schema) => (s.anyOf as Schema[] | undefined)?.find((m) => m.type === "integer") ?? s;
      expect(int(member("/api/v1/vrfs", "post", "tableId")).maximum).toBe(2 ** 32 - 1);
      expect(int(member("/api/v1/cgn/groups/{name}", "put", "chunkSize")).maximum).toBeLessThanOrEqual(2 ** 16 - 1);
      expect(int(member("/api/v1/subscribers/local/ipoe", "post", "vlan"))).toMatchObject({
        minimum: 0,
        maximum: 4094,
      });
      expect(doc.paths["/api/v1/sessions"]!.get!.parameters!.find((p) => p.name === "limit")!.schema).toMatchObject({
        minimum: -(2 ** 31),
        maximum: 2 ** 31 - 1,
      });
    },
  );

  it("one past the bound is refused naming the field: 422 from configuration validation, 400 for a query", async () => {
    const vrf = await call("/api/v1/vrfs", json("POST", { name: "cust-z", tableId: 2 ** 32 }, admin));
    expect(pointersOf(await rejection(vrf))).toEqual(["#/lists/vrfs/cust-z/tableId"]);
    const group = await call(
      "/api/v1/cgn/groups/w",
      json("PUT", { insideVrfs: ["default"], publicSubnets: ["198.51.100.0/27"], chunkSize: 2 ** 16 }, admin),
    );
    expect(pointersOf(await rejection(group))).toContain("#/lists/cgn.groups/w/chunkSize");
    const line = await call(
      "/api/v1/subscribers/local/ipoe",
      json("POST", { port: 1, sVlan: 1, vlan: 4095, planName: "dsl-24" }, admin),
    );
    expect(pointersOf(await rejection(line))).toEqual(["#/lists/subscribers.local.ipoe/1:1:4095/vlan"]);
    const page = await call(`/api/v1/sessions?limit=${2 ** 31}`, { headers: admin });
    expect(page.status).toBe(400);
    expect((await problem(page)).errors).toEqual([expect.objectContaining({ in: "query", pointer: "#/limit" })]);
    // The largest int32 is still taken, and clamped (spec: CGN bindings' limit clamped to 1-1000).
    expect(
      (await (await call(`/api/v1/cgn/bindings?limit=${2 ** 31 - 1}`, { headers: admin })).json<{ limit: number }>())
        .limit,
    ).toBe(1000);
  });
});

describe("query booleans", () => {
  it("are documented as booleans, never as text", async () => {
    const doc = await documentOf();
    const query = operations(doc).flatMap(({ key, op }) =>
      (op.parameters ?? []).filter((p) => p.in === "query").map((p) => ({ key: `${key} ${p.name}`, schema: p.schema })),
    );
    expect(
      query.filter(({ schema }) => JSON.stringify(schema.enum ?? []).includes('"true"')).map((q) => q.key),
    ).toEqual([]);
    expect(query.filter(({ schema }) => schema.type === "boolean").map((q) => q.key)).toEqual([
      "DELETE /api/v1/auth/users/{username} revokeTokens",
      "GET /api/v1/sessions walledGarden",
      "GET /api/v1/fleet/{appliance}/sessions walledGarden",
    ]);
  });

  it("are read from the text a client serialises them as", async () => {
    const only = await call("/api/v1/sessions?walledGarden=true", { headers: admin });
    expect(only.status).toBe(200);
    expect((await only.json<{ items: { walledGarden: boolean }[] }>()).items.every((s) => s.walledGarden)).toBe(true);
    expect((await call("/api/v1/sessions?walledGarden=false", { headers: admin })).status).toBe(200);
    expect((await call("/api/v1/sessions?walledGarden=maybe", { headers: admin })).status).toBe(400);
  });
});

describe("case-insensitive filters", () => {
  // Each with a spelling in another case (spec: "string filters are case-insensitive").
  it.each([
    ["/api/v1/sessions", "get", "encap", "PPPoE-LAC"],
    ["/api/v1/subscribers/local", "get", "kind", "PPPoE"],
    ["/api/v1/routing/vrfs/{vrf}/routes", "get", "family", "IPv4"],
    ["/api/v1/routing/vrfs/{vrf}/routes", "get", "protocol", "Connected"],
    ["/api/v1/routing/bgp/neighbor/{address}/routes", "get", "type", "RECEIVED"],
    ["/api/v1/routing/bgp/neighbor/{address}/routes", "get", "af", "IPv4Unicast"],
  ])("%s %s: the document's %s accepts %s, as the server does", async (path, method, name, value) => {
    const doc = await documentOf();
    const schema = doc.paths[path]![method]!.parameters!.find((p) => p.name === name)!.schema;
    expect(schema.enum).toBeUndefined();
    // As ajv compiles a JSON Schema pattern (ECMA-262, unicode).
    const pattern = new RegExp(schema.pattern!, "u");
    expect(pattern.test(value)).toBe(true);
    expect(pattern.test(value.toLowerCase())).toBe(true);
    expect(pattern.test(`${value}x`)).toBe(false);
    const filled = path.replace("{vrf}", "default").replace("{address}", "192.0.2.1");
    const url = `${filled}?${name}=${encodeURIComponent(value)}`;
    expect((await call(url, { headers: admin })).status).toBe(200);
  });

  it("none that says `any case` documents an enum of one spelling", async () => {
    const doc = await documentOf();
    const anyCase = operations(doc).flatMap(({ key, op }) =>
      (op.parameters ?? [])
        .filter((p) => p.description?.includes("any case") && p.schema.enum)
        .map((p) => `${key} ${p.name}`),
    );
    expect(anyCase).toEqual([]);
  });
});

describe("JSON request bodies", () => {
  it(
    "are declared once, as application/json (a tool makes a request per media type), " +
      "saying the spec's other spellings are taken",
    async () => {
      const doc = await documentOf();
      const bodies = operations(doc).filter(({ op }) => op.requestBody);
      expect(bodies.length).toBeGreaterThan(40);
      for (const { key, op } of bodies) {
        const body = bodyOf(doc, op)! as Body & { description?: string };
        expect(
          Object.keys(body.content!).filter((type) => type.includes("json")),
          key,
        ).toEqual(["application/json"]);
        expect(body.description, key).toContain("`text/json` or any `application/*+json`");
      }
    },
  );

  it.each(["text/json", "application/vnd.isp+json"])(
    "sent as %s are still taken (spec: JSON bodies are accepted as any of three)",
    async (type) => {
      const name = type === "text/json" ? "cust-t" : "cust-u";
      const response = await call("/api/v1/vrfs", {
        method: "POST",
        headers: { ...admin, "content-type": type },
        body: JSON.stringify({ name, tableId: 4711 }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    },
  );
});

describe("what a generated client or test tool reads besides schemas", () => {
  it("every parameter has an example: the example call's value, or a named one", async () => {
    const doc = await documentOf();
    const bare = operations(doc).flatMap(({ key, op }) =>
      (op.parameters ?? [])
        .filter((p) => !("example" in p) && !("examples" in p))
        .map((p) => `${key} ${p.in} ${p.name}`),
    );
    expect(bare).toEqual([]);
  });

  it("every 429 (and 423) declares the Retry-After it carries", async () => {
    const doc = await documentOf();
    const answers = operations(doc).flatMap(({ key, op }) =>
      Object.entries(op.responses ?? {})
        .filter(([status]) => status === "429" || status === "423")
        .map(([status, response]) => ({
          key: `${key} ${status}`,
          headers: (response as { headers?: Record<string, unknown> }).headers ?? {},
        })),
    );
    expect(answers.length).toBeGreaterThan(2);
    expect(answers.filter((a) => !a.headers["retry-after"]).map((a) => a.key)).toEqual([]);
  });

  it("types sinceSeq as the spec's int64, wherever it is taken", async () => {
    const doc = await documentOf();
    const found = operations(doc).flatMap(({ key, op }) =>
      (op.parameters ?? []).filter((p) => p.name === "sinceSeq").map((p) => ({ key, format: p.schema.format })),
    );
    expect(found.map((f) => f.key).sort()).toEqual([
      "GET /api/v1/fleet/{appliance}/logs/tail",
      "GET /api/v1/logs/stream",
      "GET /api/v1/logs/tail",
    ]);
    expect(found.every((f) => f.format === "int64")).toBe(true);
  });
});

describe("operation descriptions", () => {
  it("every operation has one, more than its summary", async () => {
    const doc = await documentOf();
    const bare = operations(doc).filter(
      ({ op }) => !op.description || op.description.trim() === op.summary.trim() || op.description.length < 40,
    );
    expect(bare.map((b) => b.key)).toEqual([]);
  });
});

describe("the fleet proxy's reads", () => {
  const reads = routes.filter((r) => r.fp === true && r.method === "GET");

  it(
    "each read marked FP has its twin under /fleet/{appliance}/, with the read's " +
      "parameters and the same answer schema",
    async () => {
      const doc = await documentOf();
      expect(reads.length).toBeGreaterThan(20);
      for (const read of reads) {
        const path = read.path.replace("/api/v1/", "/api/v1/fleet/{appliance}/");
        const twin = doc.paths[path]?.get;
        const own = doc.paths[read.path]!.get!;
        expect(twin, path).toBeDefined();
        expect(twin!["x-proxied-operation"], path).toBe(own.operationId);
        expect(twin!.responses!["200"]!.content, path).toEqual(own.responses!["200"]!.content);
        expect(
          twin!.parameters!.map((p) => p.name),
          path,
        ).toEqual(["appliance", ...(own.parameters ?? []).map((p) => p.name)]);
      }
    },
  );

  it("answer at their twin's path as the read does on that appliance", async () => {
    const status = await call("/api/v1/fleet/edge-2/system/status", { headers: admin });
    expect(status.status).toBe(200);
    expect(SystemStatus.parse(await status.json())).toMatchObject({ appliance: "edge-2" });
    const sessions = await call("/api/v1/fleet/edge-3/sessions?limit=2&encap=IPOE", { headers: admin });
    expect(sessions.status).toBe(200);
    expect(SessionList.parse(await sessions.json()).items.every((s) => s.encap === "ipoe")).toBe(true);
  });

  it(
    "answer in the one-segment form OpenAPI tools send for the generic path, its " + "slashes percent-encoded",
    async () => {
      const response = await call("/api/v1/fleet/edge-2/system%2Fstatus", { headers: admin });
      expect(response.status).toBe(200);
      expect(SystemStatus.parse(await response.json())).toMatchObject({ appliance: "edge-2" });
    },
  );
});
