/**
 * A route is data: method, path, section, role floor, schemas, FP flag and a
 * handler. The router, the OpenAPI document and the authorization tests all
 * read the same table, so they cannot drift apart.
 */
import type { z } from "zod";
import type { Floor } from "../auth/roles.ts";
import type { Principal } from "../schemas/principal.ts";
import type { ApplianceContext, ApplianceTarget } from "../fleet/context.ts";
import type { PresentedCredential } from "../schemas/operation.ts";
import type { JsonText } from "../../simulator/row-texts.ts";

/** The spec's 20 sections, the OpenAPI tags. */
export const SECTIONS = [
  "Address pools", "Alarms", "Authentication", "CGN", "Captures", "Configuration", "Fleet",
  "GRE Circuits", "L2TP", "Licensing", "LocalSubscribers", "Logs", "Metrics", "RADIUS",
  "Routing", "Sessions", "Source VRF Rules", "System", "SystemUpgrade", "VRFs",
] as const;
/**
 * Sections outside the spec's section table (125 operations in 20 sections): IPsec, whose endpoints the spec
 * lists without counting them, and the sign-in page's single sign-on choices, which the spec leaves unshown.
 */
export const UNCOUNTED_SECTIONS = ["IPsec", "Single sign-on"] as const;
/** The twin's own control surface, outside `/api/v1` and outside the appliance's 20 sections. */
export const TWIN_SECTIONS = ["Scenario control"] as const;
export type Section = (typeof SECTIONS)[number] | (typeof UNCOUNTED_SECTIONS)[number] | (typeof TWIN_SECTIONS)[number];
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler receives, inside the appliance's object: validated input, the caller, and the appliance. */
export interface RouteContext<P, Q, B> {
  /** The request's method as sent (HEAD for a GET route) and its URL. */
  method: string;
  url: string;
  /**
   * The request, rebuilt on first use, with its headers minus its credentials
   * (those are in `credential`, hashed); its body is read already. Only a
   * route that declares `readsHeaders` may read it.
   */
  request: Request;
  appliance: ApplianceContext;
  principal: Principal | null;
  /** The credential `principal` was resolved from, by its SHA-256; null on anonymous routes. */
  credential: PresentedCredential | null;
  /** `If-Match` as sent, for configuration writes (src/http/config-version.ts). */
  ifMatch: string | null;
  params: P;
  query: Q;
  body: B;
  /** The raw body of an `octetStream` route sent as application/octet-stream (`body` is then undefined). */
  bytes?: Uint8Array | undefined;
  /** Headers to add to the response (e.g. Set-Cookie). */
  responseHeaders: Headers;
}

/**
 * What a handler may answer: the route's documented response (as a value, or
 * as JSON text `Encoded` already), or a `Response` where it streams,
 * redirects or sets its own status. `z.output` because the
 * pipeline serialises the result as it stands and the OpenAPI document shows
 * the schema's output side (defaults applied, so such fields are required).
 * TypeScript widens a literal returned inside a generic call (`status: "deleted"`
 * becomes `string`), so handlers mark such literals `as const`.
 */
export type Reply<R extends z.ZodType> = NoInfer<z.output<R>> | Encoded<NoInfer<z.output<R>>> | Response;

/** A handler's answer the model keeps as JSON text already (the sessions list's rows): sent as it is, never parsed and serialised again. */
export class Encoded<T> {
  readonly text: JsonText<T>;
  constructor(text: JsonText<T>) {
    this.text = text;
  }
}

export interface RouteDefinition<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType = z.ZodType> {
  method: Method;
  /** OpenAPI-style path; `{name+}` is a parameter spanning several segments. */
  path: string;
  section: Section;
  summary: string;
  description?: string;
  /** Defaults to the spec's common rule (see `defaultFloor`). */
  floor?: Floor;
  /** `bearer`: the route refuses a cookie (the metrics scrape); `session`: a token is refused (403), the act belongs to a logged-in account. */
  credentials?: "any" | "bearer" | "session";
  /** Served to a session that must first change the development default password (whoami, logout, the own-password change); every other route refuses it with 403. */
  beforePasswordChange?: boolean;
  /** Readable on a peer through the fleet proxy. */
  fp?: boolean;
  /** The handler reads the request's headers (`ctx.request`): only then does the Worker send them into the object. */
  readsHeaders?: boolean;
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
  handle(ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>): Reply<R> | Promise<Reply<R>>;
  /**
   * Finishes the answer in the Worker with what `handle` returned in the
   * object (the fleet proxy fetches a peer from there: a peer is another
   * object, so the addressed one is still asked once), and the request's
   * `Accept`.
   */
  finish?(value: never, worker: { appliance: ApplianceTarget; accept: string | null }): Promise<Response>;
  /** The answer, from the Worker, when the appliance's object cannot be asked at all (the call itself fails); otherwise that is a 500. */
  unreachable?(appliance: ApplianceTarget): Response;
}

// The handler's parameter types differ per route; the table holds them erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Route = RouteDefinition<any, any, any, any>;

/**
 * Declares a route, inferring the handler's input types from its schemas and
 * checking its result against the response schema (a route without one answers anything).
 */
export function route<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodUnknown,
>(definition: RouteDefinition<P, Q, B, R>): Route {
  return definition;
}

/** The route's path as a regular expression over the raw (still percent-encoded) URL path. */
export function pathPattern(path: string): RegExp {
  const source = path
    .replace(/[.]/g, "\\.")
    .replace(/\{(\w+)\+\}/g, "(?<$1>.+)")
    .replace(/\{(\w+)\}/g, "(?<$1>[^/]+)");
  return new RegExp(`^${source}/?$`);
}
