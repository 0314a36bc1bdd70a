/**
 * Domain outcomes crossing from the appliance object to the Worker: a tagged
 * union that names why an operation was refused, without HTTP. Only the HTTP
 * layer maps a refusal to a status code (src/http/refusal.ts).
 */
import type { FieldError } from "./common.ts";

export type Refusal =
  | { ok: false; reason: "not-found"; detail: string }
  | { ok: false; reason: "conflict"; detail: string }
  | { ok: false; reason: "bad-credentials"; detail: string }
  /** No credential, or one that resolves to nobody: the caller must authenticate (401 with a challenge). */
  | { ok: false; reason: "unauthenticated"; detail: string }
  | { ok: false; reason: "locked"; detail: string; retryAfterSeconds: number }
  | { ok: false; reason: "throttled"; detail: string; retryAfterSeconds: number }
  | { ok: false; reason: "forbidden"; detail: string }
  | { ok: false; reason: "invalid"; detail: string; pointer?: string }
  | { ok: false; reason: "rejected"; detail: string; errors: FieldError[] }
  | { ok: false; reason: "upstream"; detail: string }
  | { ok: false; reason: "precondition"; detail: string; etag: string };

export type Outcome<T> = ({ ok: true } & T) | Refusal;

/** A refusal, for the object's methods to return. */
export const refuse = <R extends Refusal["reason"]>(
  reason: R,
  detail: string,
  extra: Omit<Extract<Refusal, { reason: R }>, "ok" | "reason" | "detail"> = {} as never,
): Refusal => ({ ok: false, reason, detail, ...extra }) as Refusal;
