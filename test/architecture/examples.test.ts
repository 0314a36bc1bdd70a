/**
 * Every operation's examples (issue #26) are valid against the operation's own
 * schemas, as the OpenAPI document shows them to Dredd, Portman and generated
 * clients: path parameters and the query as they travel (text, parsed by the
 * same zod schema the Worker validates with), the body against the input
 * schema, the success answer against the response schema. A response example
 * must also come back unchanged from its schema: zod drops a key it does not
 * know, so a misspelt or stale field shows up as a difference.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Operation } from "../../src/schemas/contract.ts";
import { contract } from "../../src/schemas/index.ts";

const operations = Object.entries(contract).flatMap(([section, ops]) =>
  Object.entries(ops as Record<string, Operation>)
    .filter(([, op]) => !op.hidden)
    .map(([key, op]) => ({ name: `${section}.${key}: ${op.method} ${op.path}`, op })),
);

/** A value as it arrives in a URL: text. */
const asText = (values: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]));

/** The issues zod finds, as one line each (empty when the value is valid). */
function issues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe.each(operations)("$name", ({ op }) => {
  const examples = op.examples ?? {};

  it("has an example for every path parameter, and a body where it takes one", () => {
    const names = [...op.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
    expect(Object.keys(examples.params ?? {}).sort()).toEqual(names.sort());
    if (op.body && !op.bodyOptional) expect(examples.body).toBeDefined();
  });

  it("has a success answer, unless it redirects", () => {
    if ((op.response.status ?? 200) >= 300) expect(examples.response).toBeUndefined();
    else expect(examples.response).toBeDefined();
  });

  it("words only errors the operation can answer", () => {
    const listed = new Set([...(op.errors ?? []), 400, 401, 403]);
    expect(
      Object.keys(examples.errors ?? {})
        .map(Number)
        .filter((status) => !listed.has(status)),
    ).toEqual([]);
  });

  it("sends path parameters and query values its schemas accept", () => {
    if (op.params) expect(issues(op.params, asText(examples.params))).toEqual([]);
    if (op.query) expect(issues(op.query, asText(examples.query))).toEqual([]);
    if (!op.query) expect(examples.query).toBeUndefined();
  });

  it("sends a body its input schema accepts", () => {
    if (op.body && examples.body !== undefined) expect(issues(op.body, examples.body)).toEqual([]);
    if (!op.body) expect(examples.body).toBeUndefined();
  });

  it("shows an answer its response schema accepts, with no field the schema does not know", () => {
    const schema = op.response.schema;
    const json = (op.response.contentType ?? "application/json").includes("json");
    if (schema && json) {
      expect(issues(schema, examples.response)).toEqual([]);
      expect(JSON.parse(JSON.stringify(schema.parse(examples.response)))).toEqual(examples.response);
    } else if (!json)
      expect(typeof (examples.response ?? "")).toBe("string"); // a page, a scrape, an event stream: text
    else expect(schema).toBeUndefined(); // the fleet proxy relays the peer's answer as it came
  });
});
