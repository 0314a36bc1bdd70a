/**
 * The UI's only way to the appliance: the public /api/v1, same origin, the
 * `bng_session` cookie (HttpOnly, so the page never sees it) and the
 * session's CSRF token on every change, as any browser client of the API.
 */
import { signal } from "@preact/signals";
import type { z } from "zod";
import { contract } from "bngfleet:contract";
import type { Operation } from "../src/schemas/contract.ts";
import type { ProblemDetails } from "../src/schemas/common.ts";

/** An RFC 9457 problem as the API answers it. */
type Problem = z.output<typeof ProblemDetails>;

/** The session's CSRF token, from the login answer or whoami. */
export const csrfToken = signal<string | null>(null);
/** Set when a call answers 401 outside sign-in: the session ended (idle, expired or logged out elsewhere). */
export const sessionLost = signal(false);

/** A failed call: its status and the problem's `detail` (and field errors), ready to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Partial<Problem>;
  readonly retryAfterSeconds: number | null;
  constructor(status: number, problem: Partial<Problem>, retryAfter: string | null) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null;
  }
  /** The field errors of a 400 or 422, keyed by pointer. */
  get fieldErrors(): { pointer: string; detail: string }[] {
    return this.problem.errors ?? [];
  }
}

/** How a call is made, beyond what the operation says. */
export interface CallOptions {
  /** Sign-in calls: a 401 there is a wrong credential, not a lost session. */
  signIn?: boolean;
  /** Aborts the call (a search that gives up on a slow peer). */
  signal?: AbortSignal;
}

type Query = Record<string, string | number | boolean | null | undefined>;
interface Request extends CallOptions {
  method: OperationRef["method"];
  /** Read from a peer through the fleet proxy. */
  relayed: boolean;
  body?: unknown;
  query?: Query;
}

/** The query's defined values as a query string (empty, or starting with `?`). */
export function queryString(query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

/** `/api/v1` + path, with the query's defined values; the twin's own operations (`/twin/v1/…`) keep their path. */
export function apiUrl(path: string, query?: Query): string {
  return `${path.startsWith("/twin/") ? "" : "/api/v1"}${path}${queryString(query)}`;
}

async function problemOf(response: Response): Promise<Partial<Problem>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Partial<Problem>;
  } catch {
    return { detail: text || `${response.status} ${response.statusText}` };
  }
}

/** Marks the session lost when whoami says so; the form that saw the 401 keeps what was typed and shows its detail. */
async function confirmSessionLost(): Promise<void> {
  try {
    const answer = await fetch(apiUrl(pathOf(contract.authSession.whoami)), {
      headers: { accept: "application/json" },
      credentials: "same-origin",
    });
    if (answer.status === 401) sessionLost.value = true;
  } catch {
    // The appliance did not answer: nothing says the session ended.
  }
}

/**
 * Calls the API (`path` after /api/v1, filled in) and returns the parsed JSON answer; throws ApiError with the
 * problem's detail. Only `call` uses it: pages name operations, not paths.
 */
async function api<T>(path: string, options: Request): Promise<T> {
  const { method } = options;
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && csrfToken.value) headers["x-csrf-token"] = csrfToken.value;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      credentials: "same-origin",
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch (error) {
    throw new ApiError(0, { detail: `The appliance did not answer (${(error as Error).message})` }, null);
  }
  if (!response.ok) {
    const problem = await problemOf(response);
    // A 401 relayed by the fleet proxy is the peer's answer to its credential, not the end of this session.
    const { relayed } = options;
    // A 401 can also be a wrong credential inside a live session (the current password a change asks for): only whoami
    // says whether the session ended.
    if (response.status === 401 && !options.signIn && !relayed) void confirmSessionLost();
    throw new ApiError(response.status, problem, response.headers.get("retry-after"));
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/**
 * What `call` takes for an operation: its path parameters, query and body, as the contract types them (members the
 * operation has no schema for are absent).
 */
export type CallInput<O> =
  O extends Operation<infer P, infer Q, infer B, z.ZodType>
    ? (P extends z.ZodUndefined ? { params?: never } : { params: z.input<P> }) &
        (Q extends z.ZodUndefined ? { query?: never } : { query?: z.input<Q> }) &
        (B extends z.ZodUndefined ? { body?: never } : { body: z.input<B> })
    : never;
/** What `call` answers for an operation: its response schema's output. */
export type CallResult<O> = O extends Operation<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
/** What a reference's operation answers (`Answer<typeof contract.system.status>`): the UI's name for an API type. */
export type Answer<R> = R extends OperationRef<infer O> ? CallResult<O> : never;
/** What a reference's operation takes (`Input<typeof contract.config.apply>["body"]`). */
export type Input<R> = R extends OperationRef<infer O> ? CallInput<O> : never;

/**
 * An operation of the contract as the browser holds it (`bngfleet:contract`,
 * supplied by scripts/build-ui.ts): method, path, effective role floor and
 * fleet-proxy flag; its schemas only as types.
 */
export interface OperationRef<O extends Operation = Operation> {
  readonly method: O["method"];
  readonly path: string;
  readonly floor: string;
  readonly fp: boolean;
  /** Never present at run time: carries the operation's schemas for `call`'s types. */
  readonly __operation?: O;
}
/** Every section's operations as references. */
export type OperationRefs<C> = {
  readonly [S in keyof C]: { readonly [K in keyof C[S]]: C[S][K] extends Operation ? OperationRef<C[S][K]> : never };
};

/**
 * The operation's path with its parameters filled in, without the `/api/v1`
 * prefix `api` adds (a `{name+}` parameter keeps its slashes); a parameter
 * not given stays `{name}` (a form's, typed by the person).
 */
export function pathOf(operation: { path: string }, params: Record<string, unknown> = {}): string {
  return operation.path.replace(/^\/api\/v1/, "").replace(/\{(\w+)(\+?)\}/g, (whole, name: string, many: string) => {
    if (params[name] === undefined || params[name] === null) return whole;
    const value = String(params[name]);
    return many ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
  });
}

/**
 * Calls an operation of the contract (src/schemas/<section>.ts): its method
 * and path come from the operation, its input and answer are typed by the
 * operation's schemas, so a renamed field or path fails the UI's typecheck.
 * `base` reads a peer through the fleet proxy (`/fleet/<name>`).
 */
export function call<O extends Operation>(
  operation: OperationRef<O>,
  ...[input, base = "", options = {}]: {} extends CallInput<O>
    ? [CallInput<O>?, string?, CallOptions?]
    : [CallInput<O>, string?, CallOptions?]
): Promise<CallResult<O>> {
  const { params, query, body } = (input ?? {}) as { params?: Record<string, unknown>; query?: Query; body?: unknown };
  return api<CallResult<O>>(`${base}${pathOf(operation, params)}`, {
    ...options,
    method: operation.method,
    relayed: base !== "",
    ...(query ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * Uploads bytes to an operation that takes them (the upgrade package) with progress (fetch has no upload progress;
 * XMLHttpRequest does).
 */
export function upload<O extends Operation>(
  operation: OperationRef<O>,
  bytes: Blob,
  onProgress: (fraction: number) => void,
): Promise<CallResult<O>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(operation.method, apiUrl(pathOf(operation)));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    if (csrfToken.value) xhr.setRequestHeader("x-csrf-token", csrfToken.value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(0, { detail: "The upload was interrupted" }, null));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { detail: xhr.responseText };
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as CallResult<O>);
      else reject(new ApiError(xhr.status, body as Partial<Problem>, xhr.getResponseHeader("retry-after")));
    };
    xhr.send(bytes);
  });
}
