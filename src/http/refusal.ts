/**
 * The one place a domain refusal becomes an HTTP status: handlers `unwrap`
 * an outcome, and a refusal is thrown as the StatusError its reason maps to.
 */
import type { Refusal } from "../schemas/outcome.ts";
import { StatusError } from "./problem.ts";

/** The challenge a 401 for a missing or unknown credential carries (RFC 6750 §3). */
export const BEARER_CHALLENGE = { "www-authenticate": 'Bearer realm="bngfleet"' };

/** The StatusError a refusal answers with (the spec's status for each reason). */
export function refusalError(refusal: Refusal): StatusError {
  switch (refusal.reason) {
    case "not-found":
      return new StatusError(404, refusal.detail);
    case "conflict":
      return new StatusError(409, refusal.detail);
    case "bad-credentials":
      return new StatusError(401, refusal.detail);
    case "unauthenticated":
      return new StatusError(401, refusal.detail, { headers: BEARER_CHALLENGE });
    case "locked":
      return new StatusError(423, refusal.detail, { headers: { "retry-after": String(refusal.retryAfterSeconds) } });
    case "throttled":
      return new StatusError(429, refusal.detail, { headers: { "retry-after": String(refusal.retryAfterSeconds) } });
    case "forbidden":
      return new StatusError(403, refusal.detail);
    case "invalid":
      return new StatusError(
        400,
        refusal.detail,
        refusal.pointer ? { errors: [{ in: "body", pointer: refusal.pointer, detail: refusal.detail }] } : {},
      );
    case "rejected":
      // Configuration validation (spec: 422 when validation rejects), every rejected field listed.
      return new StatusError(422, refusal.detail, { errors: refusal.errors });
    case "upstream":
      // A service this appliance depends on (an identity provider) failed: a gateway error, not the caller's.
      return new StatusError(502, refusal.detail);
    case "precondition":
      // If-Match named another configuration version (RFC 9110 §13.1.1): the current one goes with the refusal.
      return new StatusError(412, refusal.detail, { headers: { etag: refusal.etag } });
    default: {
      const never: never = refusal;
      throw new Error(`unmapped refusal ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A port's answer as it is, or the StatusError it maps to when it is a refusal: no operation's answer has `ok: false`,
 * only a refusal does (the answer of a port that serves its operation whole, `byPort`).
 */
export function answered<T>(answer: T | Refusal): T {
  if (typeof answer === "object" && answer !== null && (answer as { ok?: unknown }).ok === false)
    throw refusalError(answer as Refusal);
  return answer as T;
}

/** The value of a successful outcome, or the StatusError its refusal maps to. */
export function unwrap<O extends { ok: boolean }>(result: O): Extract<O, { ok: true }> {
  if (result.ok) return result as Extract<O, { ok: true }>;
  throw refusalError(result as unknown as Refusal);
}
