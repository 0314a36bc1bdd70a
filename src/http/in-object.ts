/**
 * The operations as the appliance's object runs them: the one call a
 * request makes (`Appliance.serve`) authorizes the credential and runs the
 * route's handler against the object's core, together. Refusals come back
 * as data (an RPC error keeps only its message); the Worker writes them.
 */
import type { ApplianceCore, OperationRunner } from "../../durable-objects/appliance.ts";
import type { OperationAnswer, OperationCall, Refusal } from "../schemas/operation.ts";
import { applianceNamed } from "../fleet/definition.ts";
import { authorize } from "../auth/authenticate.ts";
import type { ApplianceContext } from "../fleet/context.ts";
import { StatusError } from "./problem.ts";
import { Encoded, type Route } from "./route.ts";

/** The route-table key a call names its route by. */
export const routeKey = (route: Route): string => `${route.method} ${route.path}`;

const refusalOf = (error: StatusError): Refusal => ({ status: error.status, detail: error.message, headers: error.headers, errors: error.errors });

/** The runner the object's façade is wired to, for a route table. */
export function operationRunner(routes: Route[]): OperationRunner {
  const byKey = new Map(routes.map((route) => [routeKey(route), route]));
  return async (core, call) => {
    const route = byKey.get(call.route);
    if (!route) return { kind: "refused", refusal: { status: 404, detail: `no operation ${call.route.slice(0, 200)}`, headers: {} } };
    try {
      return await run(route, core, call);
    } catch (error) {
      if (error instanceof StatusError) return { kind: "refused", refusal: refusalOf(error) };
      console.error("unexpected error", error);
      return { kind: "refused", refusal: { status: 500, detail: "the appliance could not complete the request", headers: {} } };
    }
  };
}

async function run(route: Route, core: ApplianceCore, call: OperationCall): Promise<OperationAnswer> {
  const principal = authorize(route, call, (credential) => core.identity().authenticate(credential.via, credential.sha256));
  // Input is judged only for a caller the route admits: a stranger learns nothing of its schemas.
  if (!call.input.ok) return { kind: "refused", refusal: call.input.refusal };
  const definition = applianceNamed(core.env, core.name);
  if (!definition) throw new Error(`appliance '${core.name}' is not in the fleet file`);
  const appliance: ApplianceContext = { name: core.name, definition, stub: core, env: core.env, secure: call.secure, clientIp: call.clientIp };
  const { params, query, body, bytes } = call.input;
  // The request is rebuilt only for the few handlers that read its headers (a handful of routes of ~130), which say so;
  // the response's own headers are made only for the few that set one (a cookie, a Location).
  let request: Request | undefined;
  let responseHeaders: Headers | undefined;
  const context = {
    get request() {
      if (!route.readsHeaders) throw new Error(`${routeKey(route)} reads the request's headers without declaring readsHeaders`);
      return (request ??= new Request(call.url, { method: call.method, headers: call.headers }));
    },
    get responseHeaders() {
      return (responseHeaders ??= new Headers());
    },
    method: call.method, url: call.url, appliance, principal, credential: call.credential, ifMatch: call.ifMatch, params, query, body, bytes,
  };
  if (!route.handle) throw new Error(`${routeKey(route)} runs in the Worker, not in the object`);
  const result: unknown = await route.handle(context);
  const headers: [string, string][] = responseHeaders ? [...responseHeaders] : [];
  if (result instanceof Response) {
    for (const [name, value] of headers) result.headers.append(name, value);
    return { kind: "response", response: result };
  }
  // Serialised once, here: the Worker sends the text as it is (or, for a route that finishes there, parses it).
  const json = result instanceof Encoded ? result.text : JSON.stringify(result);
  if (headers.length === 0) return json;
  return route.finish ? { kind: "continue", json, headers } : { kind: "json", json, headers };
}
