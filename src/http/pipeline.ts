/**
 * The request pipeline, in itty-router's stages: every route of the table
 * passes authenticate → validate (path, query, body) → handler; one `catch`
 * turns any error into problem details; unknown paths are 404 and known
 * paths with another method 405 with `Allow`.
 */
import { Router, type IRequest } from "itty-router";
import type { z } from "zod";
import { authenticate } from "../auth/authenticate.ts";
import type { ApplianceContext } from "../fleet/context.ts";
import { isOctetStream, readBytesBody, readJsonBody } from "./body.ts";
import { StatusError, problemResponse } from "./problem.ts";
import type { FieldError } from "../schemas/outcome.ts";
import { withSecurityHeaders } from "./headers.ts";
import { pathPattern, type Route } from "./route.ts";
import { StubScope } from "./stub-scope.ts";

type Part = FieldError["in"];

function validate<T>(schema: z.ZodType<T> | undefined, value: unknown, part: Part): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    in: part,
    pointer: `#/${issue.path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`,
    detail: issue.message,
  }));
  const summary = errors.map((e) => `${part} ${e.pointer.slice(2) || "(whole)"}: ${e.detail}`).join("; ");
  throw new StatusError(400, `invalid request: ${summary}`, { errors });
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(raw);
    } catch {
      throw new StatusError(400, `path parameter '${name}' is not valid percent-encoding`);
    }
  }
  return decoded;
}

async function run(route: Route, request: IRequest, context: ApplianceContext): Promise<Response> {
  const scope = new StubScope(context.stub);
  try {
    return await handle(route, request, { ...context, stub: scope.stub });
  } finally {
    scope.dispose();
  }
}

async function handle(route: Route, request: IRequest, appliance: ApplianceContext): Promise<Response> {
  const principal = await authenticate(route, request as unknown as Request, appliance);
  const params = validate(route.params, decodeParams(request.params), "path");
  const query = validate(route.query, request.query, "query");
  let body: unknown;
  let bytes: Uint8Array | undefined;
  if (route.body && route.octetStream && isOctetStream(request.headers.get("content-type"))) {
    bytes = await readBytesBody(request as unknown as Request, route.octetStream.maxBytes);
    if (bytes.length === 0) throw new StatusError(400, "the request body is empty");
  } else if (route.body) {
    const raw = await readJsonBody(request as unknown as Request, route.octetStream ? "application/octet-stream" : undefined);
    if (raw === undefined && !route.bodyOptional) throw new StatusError(400, "a JSON request body is required");
    body = raw === undefined ? undefined : validate(route.body, raw, "body");
  }
  const responseHeaders = new Headers();
  const result = await route.handle({ request: request as unknown as Request, appliance, principal, params, query, body, bytes, responseHeaders });
  const response = result instanceof Response ? result : Response.json(result);
  responseHeaders.forEach((value, name) => response.headers.append(name, value));
  return response;
}

/** The methods a path answers to, for 405's `Allow` and OPTIONS. */
function allowedMethods(routes: Route[], pathname: string): string[] {
  const methods = new Set(routes.filter((r) => pathPattern(r.path).test(pathname)).map((r) => r.method as string));
  if (methods.has("GET")) methods.add("HEAD");
  if (methods.size > 0) methods.add("OPTIONS");
  return [...methods].sort();
}

/** Builds the router for a route table. */
export function buildRouter(routes: Route[]) {
  const router = Router<IRequest, [ApplianceContext]>({
    catch: (error: unknown, request: IRequest) => {
      const instance = new URL(request.url).pathname;
      if (error instanceof StatusError) {
        return problemResponse(error.status, error.message, instance, { headers: error.headers, ...(error.errors ? { errors: error.errors } : {}) });
      }
      console.error("unexpected error", error);
      return problemResponse(500, "the appliance could not complete the request", instance);
    },
    finally: [
      // HEAD is served by the GET route, without the body.
      (response: Response, request: IRequest) =>
        request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response,
      (response: Response, _request: IRequest, appliance: ApplianceContext) => withSecurityHeaders(response, appliance.secure),
    ],
  });
  for (const route of routes) {
    const ittyPath = route.path.replace(/\{(\w+)\+\}/g, ":$1+").replace(/\{(\w+)\}/g, ":$1");
    const handler = (request: IRequest, appliance: ApplianceContext) => run(route, request, appliance);
    router[route.method.toLowerCase() as "get"](ittyPath, handler);
    if (route.method === "GET") router.head(ittyPath, handler);
  }
  router.all("*", (request: IRequest) => {
    const pathname = new URL(request.url).pathname;
    const allow = allowedMethods(routes, pathname);
    if (allow.length === 0) throw new StatusError(404, `no resource at ${pathname}`);
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: allow.join(", ") } });
    throw new StatusError(405, `${request.method} is not supported here; use ${allow.join(", ")}`, { headers: { allow: allow.join(", ") } });
  });
  return router;
}
