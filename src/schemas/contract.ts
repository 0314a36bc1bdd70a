/**
 * The wire contract's grammar: an operation is data (method, path, section,
 * role floor, FP flag, schemas, errors), declared once in its section's
 * `src/schemas/<section>.ts`. The server attaches a handler to it
 * (`inWorker` in src/http/route.ts); the OpenAPI document, the
 * authorization tests and the web UI's typed client (`ui/api.ts`, `call`)
 * read the same object. No handler and no HTTP here, so the browser bundle
 * can import a section's contract as it is.
 */
import type { z } from "zod";
import type { Floor } from "../auth/roles.ts";

/** The spec's 20 sections, the OpenAPI tags. */
export const SECTIONS = [
  "Address pools",
  "Alarms",
  "Authentication",
  "CGN",
  "Captures",
  "Configuration",
  "Fleet",
  "GRE Circuits",
  "L2TP",
  "Licensing",
  "LocalSubscribers",
  "Logs",
  "Metrics",
  "RADIUS",
  "Routing",
  "Sessions",
  "Source VRF Rules",
  "System",
  "SystemUpgrade",
  "VRFs",
] as const;
/**
 * Sections outside the spec's section table (125 operations in 20 sections): IPsec, whose endpoints the spec
 * lists without counting them, and what the spec leaves unshown: the sign-in page's single sign-on choices,
 * and the push sinks' delivery state.
 */
export const UNCOUNTED_SECTIONS = ["IPsec", "Single sign-on", "Alert sinks"] as const;
/** The twin's own control surface, outside `/api/v1` and outside the appliance's 20 sections. */
export const TWIN_SECTIONS = ["Scenario control", "Fleet fan-out"] as const;
export type Section = (typeof SECTIONS)[number] | (typeof UNCOUNTED_SECTIONS)[number] | (typeof TWIN_SECTIONS)[number];
/**
 * The sections whose operations use the caller's address: a sign-in or an account's proof counts failures per
 * account and address, an OIDC sign-in is throttled per address, a browser session records where it began. Only
 * for these does the Worker read the address off the request (workerd's `request.cf`, or a header it trusts);
 * every other operation's port is called with `unknown`, as none reads it, and the cheapest requests skip the read.
 */
export const ADDRESSED_SECTIONS: ReadonlySet<Section> = new Set<Section>(["Authentication", "Single sign-on"]);
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** OpenAPI-style path; `{name+}` is a parameter spanning several segments. */
  path: string;
  section: Section;
  summary: string;
  description?: string;
  /** Defaults to the spec's common rule (see `defaultFloor`). */
  floor?: Floor;
  /**
   * `bearer`: the route refuses a cookie (the metrics scrape); `session`: a token is refused (403), the act belongs to
   * a logged-in account.
   */
  credentials?: "any" | "bearer" | "session";
  /**
   * Served to a session that must first change the development default password (whoami, logout, the own-password
   * change); every other route refuses it with 403.
   */
  beforePasswordChange?: boolean;
  /** Readable on a peer through the fleet proxy. */
  fp?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** A body schema that also accepts an empty body (e.g. the alarm test). */
  bodyOptional?: boolean;
  /** The route also takes its body as `application/octet-stream` bytes, up to `maxBytes` (the upgrade package). */
  octetStream?: { maxBytes: number; description: string };
  /** `status`: the success status when it is not 200 (a redirect answers with a Location and no body). */
  response: { description: string; schema?: R; contentType?: string; status?: number };
  /** Served but left out of the OpenAPI document (the reference viewer's static files). */
  hidden?: boolean;
  /** Error statuses this route can answer beyond the common 400/401/403. */
  errors?: number[];
  /** What a listed error status means for this route, where the common text (src/openapi/document.ts) would mislead. */
  errorText?: Partial<Record<number, string>>;
  /**
   * Realistic values for the OpenAPI document, each valid against its own schema (test/architecture/examples.test.ts).
   */
  examples?: OperationExamples;
}

/**
 * An operation's examples: one call that succeeds on a fresh fleet and its answer. Dredd calls each
 * operation with them (test/e2e/dredd.test.ts) in its method order (POST, GET, PUT, PATCH, DELETE), so a
 * write names a resource of its own: one an earlier POST created, or one no later call needs.
 */
export interface OperationExamples {
  // Untyped here: several sections build their shapes from keyed-list field tables, which zod types only
  // loosely; test/architecture/examples.test.ts parses each example with the operation's own schemas instead.
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The success answer (JSON, or the text of another content type). */
  response?: unknown;
  /** An error answer's detail where the status's common example would not fit this operation. */
  errors?: Partial<Record<number, string>>;
}

/** Declares an operation, keeping its schemas' types for the handler and the client. */
export function operation<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodUnknown,
>(definition: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return definition;
}
