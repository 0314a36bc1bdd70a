/**
 * The request pipeline, in itty-router's stages: every route of the table
 * passes credential (read and hashed) → validate (path, query, body) → one
 * call into the appliance's object, which authorizes the caller first: the
 * handler runs here and makes that call through its port client
 * (`serveInWorker`); one `catch` turns any error
 * into problem details; unknown paths are 404 and known paths with another
 * method 405 with `Allow`. The route is found by the table's one matcher
 * (./matcher.ts: the patterns itty-router's Router compiled, its first match
 * of the method in table order). A fleet proxy's GET to a member of this deployment runs the same
 * stages without a second HTTP pass (`relay`).
 */
import type { z } from "zod";
import { bearerCredential, presented } from "../auth/authenticate.ts";
import { floorOf } from "../auth/authorize.ts";
import { isMutation } from "../auth/roles.ts";
import type { ApplianceTarget } from "../fleet/context.ts";
import { peerAnswerOf, type PeerAnswer, type PeerGet } from "../fleet/definition.ts";
import type { OperationInput, PresentedCredential, Refusal } from "../schemas/operation.ts";
import { isOctetStream, readBytesBody, readJsonBody } from "./body.ts";
import { StatusError, problemResponse } from "./problem.ts";
import type { FieldError } from "../schemas/common.ts";
import { jsonAnswer, withSecurityHeaders } from "./headers.ts";
import { Encoded, type RequestHeaders, type Route } from "./route.ts";
import { routeMatcher } from "./matcher.ts";
import { portClient } from "./port.ts";
import { ADDRESSED_SECTIONS } from "../schemas/contract.ts";

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

/**
 * A request as the pipeline reads it: its parts read off once, as plain
 * strings (each read of a native Request's or URL's field crosses into the
 * runtime), with the path parameters and query as the router matched them.
 * `body` is the request whose body a route may read; a relay has none.
 */
interface Incoming {
  method: string;
  url: string;
  /** The URL's path (still percent-encoded) and query string (with its `?`, or empty), as the URL parser read them. */
  pathname: string;
  search: string;
  headers: RequestHeaders;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: Request | null;
}

/**
 * A relayed GET's headers: its `Accept` alone, read by name in any case as Headers reads it, without a native Headers
 * per relay.
 */
const acceptOnly = (accept: string): RequestHeaders => ({
  get: (name: string) => (name.toLowerCase() === "accept" ? accept : null),
});

const NO_QUERY: Record<string, string | string[]> = Object.freeze(
  Object.create(null) as Record<string, string | string[]>,
);

/**
 * Path, query and body, validated; a refusal is kept to be answered once the caller is authorized (as before validation
 * ran).
 */
async function readInput(route: Route, request: Incoming): Promise<OperationInput> {
  try {
    const params: unknown = validate(route.params, decodeParams(request.params), "path");
    const query: unknown = validate(route.query, request.query, "query");
    let body: unknown;
    let bytes: Uint8Array | undefined;
    if (route.body) {
      // Only a relay, which runs GET routes alone, comes without a request to read.
      const source = request.body;
      if (source === null) throw new StatusError(400, "a request body is required");
      if (route.octetStream && isOctetStream(request.headers.get("content-type"))) {
        bytes = await readBytesBody(source, route.octetStream.maxBytes);
        if (bytes.length === 0) throw new StatusError(400, "the request body is empty");
      } else {
        const raw = await readJsonBody(source, route.octetStream ? "application/octet-stream" : undefined);
        if (raw === undefined && !route.bodyOptional) throw new StatusError(400, "a JSON request body is required");
        body = raw === undefined ? undefined : validate(route.body, raw, "body");
      }
    }
    return { ok: true, params, query, body, ...(bytes ? { bytes } : {}) };
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return {
      ok: false,
      refusal: { status: error.status, detail: error.message, headers: error.headers, errors: error.errors },
    };
  }
}

/**
 * The input validated, then one call into the appliance: its answer as JSON text (most answers), or as the response it
 * makes.
 */
async function ask(
  route: Route,
  request: Incoming,
  appliance: ApplianceTarget,
  credential: PresentedCredential | null,
): Promise<string | Response> {
  const input = await readInput(route, request);
  // An anonymous caller's bad input needs no object to refuse it.
  if (credential === null && !input.ok) throw refusalError(input.refusal);
  return serveInWorker(route, request, appliance, credential, input);
}

/**
 * A handler that runs in the Worker: it makes the request's one call into the
 * object through its port client, which authorizes the caller first; input
 * refused, or a handler that needed nothing of the object, still costs that
 * one call, to authorize the caller before anything is answered.
 */
async function serveInWorker(
  route: Route,
  request: Incoming,
  appliance: ApplianceTarget,
  credential: PresentedCredential | null,
  input: OperationInput,
): Promise<string | Response> {
  // The CSRF token and If-Match are judged on changes only (a cookie's mutation, a configuration write): a read sends
  // neither.
  const mutation = isMutation(request.method);
  const client = portClient(appliance.stub, route.operation, {
    method: request.method,
    credential,
    csrfToken: mutation ? request.headers.get("x-csrf-token") : null,
    clientIp: ADDRESSED_SECTIONS.has(route.operation.section) ? appliance.clientIp() : "unknown",
    secure: appliance.secure,
    ifMatch: mutation ? request.headers.get("if-match") : null,
  });
  // Judged only for a caller the route admits: a stranger learns nothing of its schemas.
  if (!input.ok) {
    await client.authorize();
    throw refusalError(input.refusal);
  }
  let responseHeaders: Headers | undefined;
  let result: unknown;
  try {
    result = await route.serve({
      method: request.method,
      url: request.url,
      pathname: request.pathname,
      search: request.search,
      headers: request.headers,
      appliance,
      port: client.ports,
      params: input.params,
      query: input.query,
      body: input.body,
      bytes: input.bytes,
      get responseHeaders() {
        return (responseHeaders ??= new Headers());
      },
    });
  } catch (error) {
    // A handler that refused the input before its call (a duplicate, an oversized package) answers only a caller the
    // route admits.
    if (!client.called && credential !== null) await client.authorize();
    throw error;
  }
  if (!client.called && credential !== null) await client.authorize();
  if (result instanceof Response) {
    responseHeaders?.forEach((value, name) => result.headers.append(name, value));
    return result;
  }
  const json = result instanceof Encoded ? result.text : JSON.stringify(result);
  if (responseHeaders === undefined) return json;
  responseHeaders.set("content-type", "application/json");
  return new Response(json, { headers: responseHeaders });
}

const refusalError = (refusal: Refusal) =>
  new StatusError(refusal.status, refusal.detail, {
    headers: refusal.headers,
    ...(refusal.errors ? { errors: refusal.errors } : {}),
  });

/** Any error as problem details: a StatusError as itself, anything else a 500 that tells nothing of its cause. */
function problemOf(error: unknown, instance: string): Response {
  if (error instanceof StatusError) {
    return problemResponse(error.status, error.message, instance, {
      headers: error.headers,
      ...(error.errors ? { errors: error.errors } : {}),
    });
  }
  console.error("unexpected error", error);
  return problemResponse(500, "the appliance could not complete the request", instance);
}

/** Every answer's last stage: HEAD is served by the GET route, without the body; the security headers are added. */
const finalStage = (response: Response, method: string, appliance: ApplianceTarget): Response =>
  withSecurityHeaders(
    method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response,
    appliance.secure,
  );

/**
 * A path no route of the method reaches: 404 when no route has it, OPTIONS its methods, any other method 405 with
 * `Allow`.
 */
function unmatched(allow: string[], method: string, pathname: string): Response {
  if (allow.length === 0) throw new StatusError(404, `no resource at ${pathname}`);
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: allow.join(", ") } });
  throw new StatusError(405, `${method} is not supported here; use ${allow.join(", ")}`, {
    headers: { allow: allow.join(", ") },
  });
}

/**
 * A query string as itty reads one: a repeated name becomes an array; no prototype, so `__proto__` is a name like any
 * other.
 */
function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) {
    const seen = query[name];
    query[name] = seen === undefined ? value : ([] as string[]).concat(seen, value);
  }
  return query;
}

/**
 * Builds the router for a route table: the table's one matcher
 * (./matcher.ts) finds the route, then its stages run; a fleet proxy's GET
 * to a member this Worker serves is found by the same matcher.
 */
export function buildRouter(routes: Route[]) {
  const matcher = routeMatcher(routes);
  return {
    /** `url` is the request's, when the caller has parsed it already. */
    async fetch(request: Request, appliance: ApplianceTarget, url = new URL(request.url)): Promise<Response> {
      const method = request.method;
      const pathname = url.pathname;
      let response: Response;
      try {
        const found = matcher.match(method, pathname);
        if (found === null) {
          response = unmatched(matcher.methodsAt(pathname), method, pathname);
        } else {
          const search = url.search;
          const incoming = {
            method,
            url: request.url,
            pathname,
            search,
            headers: request.headers,
            params: found.params,
            query: search === "" ? NO_QUERY : queryOf(url.searchParams),
            body: request,
          };
          // The credential read and hashed, then the route run; its JSON text made the response.
          const answer = await ask(found.route, incoming, appliance, await presented(found.route, incoming.headers));
          response = typeof answer === "string" ? jsonAnswer(answer, appliance.secure) : answer;
        }
      } catch (error) {
        response = problemOf(error, pathname);
      }
      return finalStage(response, method, appliance);
    },
    /**
     * A fleet proxy's GET to a member this Worker serves, run as that
     * request would be (the first GET route its path matches, the input
     * validated, the peer credential presented), without a second HTTP pass:
     * the relay keeps only the answer's status, body and content type.
     */
    async relay(get: PeerGet, appliance: ApplianceTarget): Promise<PeerAnswer> {
      const target = new URL(get.target);
      try {
        const found = matcher.match("GET", target.pathname);
        if (!found) throw new StatusError(404, `no resource at ${target.pathname}`);
        const { route, params } = found;
        const request = {
          method: "GET",
          url: get.target,
          pathname: target.pathname,
          search: target.search,
          headers: acceptOnly(get.accept),
          params,
          query: queryOf(target.searchParams),
          body: null,
        };
        // As `presented` would: an anonymous route (health) is called without it.
        const credential = floorOf(route) === "anonymous" ? null : await bearerCredential(get.credential);
        const answer = await ask(route, request, appliance, credential);
        // JSON text goes to the relay as it is, never through a Response and its body stream.
        return typeof answer === "string"
          ? { status: 200, contentType: "application/json", body: answer }
          : peerAnswerOf(answer);
      } catch (error) {
        return peerAnswerOf(problemOf(error, target.pathname));
      }
    },
  };
}
