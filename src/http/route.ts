/**
 * A route is an operation of the contract (src/schemas/contract.ts) and its
 * handler. The router, the OpenAPI document and the authorization tests all
 * read the same table, so they cannot drift apart.
 */
import type { z } from "zod";
import type { Operation } from "../schemas/contract.ts";
import type { ApplianceTarget } from "../fleet/context.ts";
import type { JsonText } from "../../simulator/row-texts.ts";
import type { Ports } from "./port.ts";
import { answered } from "./refusal.ts";

/** A request's headers as the pipeline and its handlers read them: by name, as `Headers.get` does. */
export type RequestHeaders = Pick<Headers, "get">;

/**
 * What a handler running in the Worker receives: the validated input, the
 * request's headers, the appliance as the Worker knows it, and its ports,
 * through which the handler makes the request's one call into the object
 * (which authorizes the caller first). A handler reads no state but through
 * that call, so whatever it computes before it is nothing a stranger could learn from.
 */
export interface WorkerContext<P, Q, B> {
  /** The request's method as sent (HEAD for a GET route) and its URL. */
  method: string;
  url: string;
  /** The URL's path (still percent-encoded) and query string (with its `?`, or empty). */
  pathname: string;
  search: string;
  /** The request's headers, read by name (a fleet relay's carry only `Accept`). */
  headers: RequestHeaders;
  appliance: ApplianceTarget;
  port: Ports;
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

/**
 * A handler's answer the model keeps as JSON text already (the sessions list's rows): sent as it is, never parsed and
 * serialised again.
 */
export class Encoded<T> {
  readonly text: JsonText<T>;
  constructor(text: JsonText<T>) {
    this.text = text;
  }
}

/** An operation of the contract with the handler that serves it. */
export interface RouteDefinition<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = z.ZodType,
> extends Operation<P, Q, B, R> {
  /** The contract's operation this route serves, as declared (the object authorizes a port call against it). */
  operation: Operation;
  /** The handler, run in the Worker: it reaches the object through `ctx.port`, once. */
  serve(ctx: WorkerContext<z.output<P>, z.output<Q>, z.output<B>>): Reply<R> | Promise<Reply<R>>;
}

// The handler's parameter types differ per route; the table holds them erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Route = RouteDefinition<any, any, any, any>;

/**
 * Serves an operation of the contract with a handler that runs in the Worker and reaches the appliance through its
 * ports.
 */
export function inWorker<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  operation: Operation<P, Q, B, R>,
  serve: RouteDefinition<P, Q, B, R>["serve"],
): Route {
  return { ...operation, operation, serve };
}

/**
 * Serves an operation that has no handler of its own: the port of the same name (durable-objects/ports/, declared with
 * `serves`) takes the validated request and answers the reply, or a refusal thrown as its problem.
 */
function byPort(section: string, name: string, operation: Operation): Route {
  return {
    ...operation,
    operation,
    serve: async (ctx) => {
      const port = (ctx.port as unknown as Record<string, Record<string, (request: unknown) => Promise<unknown>>>)[
        section
      ]![name]!;
      return answered(await port({ params: ctx.params, query: ctx.query, body: ctx.body }));
    },
  };
}

/**
 * The route table: every operation of the contract, section by section in the contract's order, served by its handler
 * where the Worker has one and by the port of its name otherwise. A handler for no operation of the contract is a
 * mistake, refused at start.
 */
export function routeTable(sections: Record<string, Record<string, Operation>>, handlers: readonly Route[]): Route[] {
  const own = new Map(handlers.map((route) => [route.operation, route]));
  const table = Object.entries(sections).flatMap(([section, operations]) =>
    Object.entries(operations).map(([name, operation]) => {
      const handler = own.get(operation);
      own.delete(operation);
      return handler ?? byPort(section, name, operation);
    }),
  );
  if (own.size > 0)
    throw new Error(`handlers for operations outside the contract: ${[...own.keys()].map((o) => o.path).join(", ")}`);
  return table;
}
