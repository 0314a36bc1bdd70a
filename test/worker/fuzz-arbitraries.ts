/**
 * fast-check arbitraries from a route's zod schemas, through the JSON Schema
 * the OpenAPI document is built from: values shaped like what the route
 * expects (so handlers run, not only the validator), with a share of
 * near-misses and plain garbage (so the validator's edges run too).
 */
import fc from "fast-check";
import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/**
 * Strings the appliance gives meaning to: names it knows, addresses, prefixes, times, traversal and encoding tricks.
 */
const MEANINGFUL = [
  "",
  "admin",
  "edge-1",
  "edge-2",
  "default",
  "corp",
  "cgn-1",
  "0",
  "1",
  "-1",
  "99999999999999999999",
  "10.0.0.1",
  "2001:db8::1",
  "192.0.2.0/24",
  "100.64.0.0/10",
  "2026-01-01T00:00:00Z",
  "..",
  "%2e%2e",
  "%",
  "a/b",
  "\u0000",
  "********",
  "bngtok_" + "A".repeat(36),
  "http://169.254.169.254/",
  "https://example.net",
  "<script>",
  "read-only",
  "super-user",
  "webhook",
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.constantFrom(...MEANINGFUL) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace(/^#\/\$defs\//, "");
  return ((root.$defs as Record<string, JsonSchema> | undefined)?.[name] ?? {}) as JsonSchema;
}

const bound = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

/** An arbitrary for one JSON Schema node; depth-limited so recursive or wide schemas stay small. */
function fromSchema(node: JsonSchema, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(node, root);
  if (depth > 5) return fc.jsonValue({ maxDepth: 1 });
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0)
      return fc.oneof(...options.map((o) => fromSchema(o as JsonSchema, root, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return fromSchema(schema.allOf[0] as JsonSchema, root, depth + 1);
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => fromSchema({ ...schema, type: t }, root, depth)));
  switch (type) {
    case "string":
      return text;
    case "integer": {
      const min = Math.max(bound(schema.minimum, -1_000_000), -1e9);
      const max = Math.min(bound(schema.maximum, 1_000_000), 1e9);
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.integer({ min: Math.ceil(Math.min(min, max)), max: Math.floor(Math.max(min, max)) }),
        },
        fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53),
      );
    }
    case "number":
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
        fc.constantFrom(0, 0.5, 1, -1),
      );
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(
        schema.items ? fromSchema(schema.items as JsonSchema, root, depth + 1) : fc.jsonValue({ maxDepth: 1 }),
        { maxLength: 3 },
      );
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const names = Object.keys(properties);
      if (names.length === 0)
        return fc.dictionary(fc.constantFrom(...MEANINGFUL.slice(1, 8)), fc.oneof(text, fc.integer()), { maxKeys: 3 });
      const model = Object.fromEntries(names.map((name) => [name, fromSchema(properties[name]!, root, depth + 1)]));
      const required = ((schema.required ?? []) as string[]).filter((name) => names.includes(name));
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values shaped by a zod schema most of the time, anything JSON now and then. */
export function valuesOf(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.jsonValue({ maxDepth: 2 });
  const root = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema;
  return fc.oneof(
    { weight: 5, arbitrary: fromSchema(root, root, 0) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Query parameters for a schema: each known one present or not, its value as text; sometimes an unknown one. */
export function queryOf(schema: z.ZodType | undefined): fc.Arbitrary<[string, string][]> {
  const root = schema
    ? (z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema)
    : {};
  const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
  const known = Object.entries(properties).map(([name, property]) =>
    fc.option(
      fc
        .oneof(
          fromSchema(property, root, 1).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
          text,
        )
        .map((v): [string, string] => [name, v]),
      { nil: undefined },
    ),
  );
  const unknown = fc.option(fc.tuple(fc.constantFrom("x", "limit", "__proto__"), text), { nil: undefined });
  return fc
    .tuple(fc.tuple(...known), unknown)
    .map(([pairs, extra]) => [...pairs, extra].filter((p): p is [string, string] => p !== undefined));
}

/**
 * A path parameter's raw (still-encoded) text: usually an encoded value, sometimes a raw one with its '%' and '/' left
 * in.
 */
const pathValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text.filter((t) => t.length > 0).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.constantFrom("%", "%zz", "..", "a%2Fb", "%00") },
);

/**
 * Path parameters, in order: mostly shaped by the parameter's schema (a number where an id is one), sometimes anything.
 */
export function paramsOf(schema: z.ZodType | undefined, names: string[]): fc.Arbitrary<string[]> {
  const root = schema
    ? (z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema)
    : {};
  const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
  return fc.tuple(
    ...names.map((name) => {
      const property = properties[name];
      if (!property) return pathValue;
      const shaped = fromSchema(property, root, 1)
        .map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
        .filter((v) => v.length > 0)
        .map(encodeURIComponent);
      return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: pathValue });
    }),
  );
}
