/**
 * The served OpenAPI document, read once after sign-in: the request schemas
 * the forms and filters are built from (an operation's method, path, floor
 * and FP flag come with its reference, `bngfleet:contract`). It is written
 * from the server's zod schemas, so the UI keeps no copy of them.
 */
import { signal } from "@preact/signals";
import { contract } from "bngfleet:contract";
import { call, type OperationRef } from "./api.ts";

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
  summary: string;
  body: JsonSchema | null;
  parameters: { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }[];
}

interface RequestBody {
  $ref?: string;
  content?: Record<string, { schema?: JsonSchema }>;
}

interface Document {
  paths: Record<
    string,
    Record<string, { summary?: string; requestBody?: RequestBody; parameters?: Operation["parameters"] }>
  >;
  components?: { schemas?: Record<string, JsonSchema>; requestBodies?: Record<string, RequestBody> };
}

export const operations = signal<Operation[]>([]);
let schemas: Record<string, JsonSchema> = {};

/** Loads the document (once). */
export async function loadOperations(): Promise<void> {
  if (operations.value.length) return;
  const doc = (await call(contract.reference.document)) as unknown as Document;
  schemas = doc.components?.schemas ?? {};
  // Request bodies are named under components.requestBodies (their input form, written out in full).
  const bodyOf = (body: RequestBody | undefined) =>
    body?.$ref ? doc.components?.requestBodies?.[body.$ref.replace("#/components/requestBodies/", "")] : body;
  operations.value = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      summary: op.summary ?? "",
      body: bodyOf(op.requestBody)?.content?.["application/json"]?.schema ?? null,
      parameters: op.parameters ?? [],
    })),
  );
}

/** The document's entry for an operation (the document writes a `{name+}` parameter as `{name}`). */
export function operationFor(operation: Pick<OperationRef, "method" | "path">): Operation | undefined {
  const path = operation.path.replace(/\{(\w+)\+\}/g, "{$1}");
  return operations.value.find((o) => o.method === operation.method && o.path === path);
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
