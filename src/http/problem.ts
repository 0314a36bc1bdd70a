/**
 * The one error type and the one formatter: handlers throw `StatusError`;
 * `problemResponse` writes RFC 9457 problem details for it.
 */
import type { FieldError } from "../schemas/common.ts";

export interface StatusErrorOptions {
  headers?: Record<string, string>;
  errors?: FieldError[];
}

/** An error that maps to exactly one HTTP status and a human-readable detail. */
export class StatusError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;

  constructor(status: number, detail: string, options: StatusErrorOptions = {}) {
    super(detail);
    this.status = status;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  423: "Locked",
  426: "Upgrade Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The title of a status, as `about:blank` problems require. */
export const statusTitle = (status: number): string => TITLES[status] ?? "Error";

/** An `application/problem+json` response. */
export function problemResponse(
  status: number,
  detail: string,
  instance: string,
  options: StatusErrorOptions = {},
): Response {
  return new Response(JSON.stringify(problemBody(status, detail, instance, options)), {
    status,
    headers: { "content-type": "application/problem+json", ...options.headers },
  });
}

/** An RFC 9457 problem document (`type` about:blank, the status's title). */
export function problemBody(status: number, detail: string, instance: string, options: StatusErrorOptions = {}) {
  return {
    type: "about:blank",
    title: statusTitle(status),
    status,
    detail,
    instance,
    ...(options.errors ? { errors: options.errors } : {}),
  };
}
