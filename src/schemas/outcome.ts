/**
 * Domain outcomes crossing from the appliance object to the Worker: a tagged
 * union, mapped to HTTP by one exhaustive switch (`unwrap`).
 */
import { StatusError, type FieldError } from "../http/problem.ts";

export type Refusal =
  | { ok: false; reason: "not-found"; detail: string }
  | { ok: false; reason: "conflict"; detail: string }
  | { ok: false; reason: "bad-credentials"; detail: string }
  | { ok: false; reason: "locked"; detail: string; retryAfterSeconds: number }
  | { ok: false; reason: "throttled"; detail: string; retryAfterSeconds: number }
  | { ok: false; reason: "forbidden"; detail: string }
  | { ok: false; reason: "invalid"; detail: string; pointer?: string }
  | { ok: false; reason: "rejected"; detail: string; errors: FieldError[] }
  | { ok: false; reason: "upstream"; detail: string };

export type Outcome<T> = ({ ok: true } & T) | Refusal;

/** A refusal, for the object's methods to return. */
export const refuse = <R extends Refusal["reason"]>(reason: R, detail: string, extra: Omit<Extract<Refusal, { reason: R }>, "ok" | "reason" | "detail"> = {} as never): Refusal =>
  ({ ok: false, reason, detail, ...extra }) as Refusal;

/** The value of a successful outcome, or the StatusError its refusal maps to. */
export function unwrap<O extends { ok: boolean }>(result: O): Extract<O, { ok: true }> {
  if (result.ok) return result as Extract<O, { ok: true }>;
  const outcome = result as unknown as Refusal;
  switch (outcome.reason) {
    case "not-found":
      throw new StatusError(404, outcome.detail);
    case "conflict":
      throw new StatusError(409, outcome.detail);
    case "bad-credentials":
      throw new StatusError(401, outcome.detail);
    case "locked":
      throw new StatusError(423, outcome.detail, { headers: { "retry-after": String(outcome.retryAfterSeconds) } });
    case "throttled":
      throw new StatusError(429, outcome.detail, { headers: { "retry-after": String(outcome.retryAfterSeconds) } });
    case "forbidden":
      throw new StatusError(403, outcome.detail);
    case "invalid":
      throw new StatusError(400, outcome.detail, outcome.pointer ? { errors: [{ in: "body", pointer: outcome.pointer, detail: outcome.detail }] } : {});
    case "rejected":
      // Configuration validation (spec: 422 when validation rejects), every rejected field listed.
      throw new StatusError(422, outcome.detail, { errors: outcome.errors });
    case "upstream":
      // A service this appliance depends on (an identity provider) failed: a gateway error, not the caller's.
      throw new StatusError(502, outcome.detail);
    default: {
      const never: never = outcome;
      throw new Error(`unmapped refusal ${JSON.stringify(never)}`);
    }
  }
}
