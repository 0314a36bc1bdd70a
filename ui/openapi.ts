/**
 * The served OpenAPI document, read once after sign-in: the role floor and
 * fleet-proxy mark of every operation, and the request schemas the forms are
 * built from. It is written from the server's route table and zod schemas,
 * so the UI keeps no copy of either.
 */
import { signal } from "@preact/signals";
import { api } from "./api.ts";

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
}

export interface Operation {
  path: string;
  method: string;
  pattern: RegExp;
  floor: string;
  fleetProxy: boolean;
  summary: string;
  body: JsonSchema | null;
  parameters: { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }[];
}

interface Document {
  paths: Record<string, Record<string, { summary?: string; "x-role-floor"?: string; "x-fleet-proxy"?: boolean; requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: Operation["parameters"] }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export const operations = signal<Operation[]>([]);
let schemas: Record<string, JsonSchema> = {};

const pattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\+\}/g, ".+").replace(/\{[^}]+\}/g, "[^/]+")}$`);

/** Loads the document (once). */
export async function loadOperations(): Promise<void> {
  if (operations.value.length) return;
  const doc = await api<Document>("/openapi/v1.json");
  schemas = doc.components?.schemas ?? {};
  operations.value = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      pattern: pattern(path),
      floor: op["x-role-floor"] ?? "super-user",
      fleetProxy: op["x-fleet-proxy"] === true,
      summary: op.summary ?? "",
      body: op.requestBody?.content?.["application/json"]?.schema ?? null,
      parameters: op.parameters ?? [],
    })),
  );
}

/** The operation serving `method /api/v1<path>` (path with its parameters filled in or still as `{name}`). */
export function operationFor(method: string, path: string): Operation | undefined {
  const full = `/api/v1${path.split("?")[0]}`;
  return operations.value.find((o) => o.method === method && (o.path === full || o.pattern.test(full)));
}

/** A schema with its `$ref` resolved and a nullable union reduced to its non-null member. */
export function resolve(schema: JsonSchema | undefined): JsonSchema {
  let s = schema ?? {};
  for (let depth = 0; depth < 8; depth++) {
    if (s.$ref) s = schemas[s.$ref.replace("#/components/schemas/", "")] ?? {};
    else if (s.anyOf || s.oneOf) {
      const members = (s.anyOf ?? s.oneOf)!.filter((m) => m.type !== "null");
      if (members.length !== 1) return s;
      s = { ...members[0]!, description: s.description ?? members[0]!.description };
    } else return s;
  }
  return s;
}
