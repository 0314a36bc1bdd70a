/**
 * The one call a request makes into its appliance: the Worker resolves the
 * route and validates the input, the object authenticates the credential
 * and runs the operation, together (`Appliance.serve`).
 */
import type { FieldError } from "./common.ts";
import type { Principal } from "./principal.ts";

/** A credential as it crosses the wire: its kind and its SHA-256, never the plaintext. */
export interface PresentedCredential {
  via: "token" | "session";
  sha256: string;
}

/** A refusal as a status, a detail and what the problem details carry besides. */
export interface Refusal {
  status: number;
  detail: string;
  headers: Record<string, string>;
  errors?: FieldError[] | undefined;
}

/** The request's input after the Worker's validation, or the refusal it earned (answered only once the caller is authorized). */
export type OperationInput =
  | { ok: true; params: unknown; query: unknown; body: unknown; bytes?: Uint8Array | undefined }
  | { ok: false; refusal: Refusal };

export interface OperationCall {
  /** `METHOD path` of the route-table entry, e.g. `GET /api/v1/sessions`. */
  route: string;
  /** The request's own method (HEAD for a GET route), URL and headers, minus its credentials; the headers only for a route that `readsHeaders`. */
  method: string;
  url: string;
  headers: [string, string][];
  credential: PresentedCredential | null;
  /** `X-CSRF-Token` as sent. */
  csrfToken: string | null;
  /** `If-Match` as sent: the configuration version a write expects (src/config/etag.ts). */
  ifMatch: string | null;
  /** True when clients reach this listener over HTTPS (cookies then carry `Secure`). */
  secure: boolean;
  clientIp: string;
  input: OperationInput;
}

/**
 * What the object answers: the handler's result as JSON text (serialised
 * once, in the object; most answers, which set no header, are the bare
 * text: an RPC returns a string for less than an object holding it), a
 * response of its own (a stream, a page, a redirect), a refusal, or, for a
 * route that finishes in the Worker (the fleet proxy), the value it
 * continues with (bare too when it set no header: the Worker knows which
 * routes finish).
 */
export type OperationAnswer =
  | string
  | { kind: "json"; json: string; headers: [string, string][] }
  | { kind: "response"; response: Response }
  | { kind: "refused"; refusal: Refusal }
  | { kind: "continue"; json: string; headers: [string, string][] };

/** Who is calling, as a port method sees it inside the object: the authorized principal (null on anonymous operations) and the connection's facts. */
export interface Caller {
  principal: Principal | null;
  /** The credential `principal` was resolved from (its kind and SHA-256); null on anonymous operations. */
  credential: PresentedCredential | null;
  clientIp: string;
  /** True when clients reach this listener over HTTPS (cookies then carry `Secure`). */
  secure: boolean;
  /** `If-Match` as sent: the configuration version a write expects. */
  ifMatch: string | null;
}

/**
 * The one call a request whose handler runs in the Worker makes into its
 * appliance (`Appliance.call`). A port is named as its operation is in the
 * contract (`contract[section][operation]`), and the object authorizes the
 * caller for that operation before the port runs: what a caller may do is
 * judged on what is done. `args` is null when the handler needs nothing of
 * the object but the caller must still be authorized (its input was refused,
 * or it answers from the Worker alone).
 */
export interface PortCall {
  section: string;
  operation: string;
  args: unknown[] | null;
  /** The request's own method: a cookie's mutation needs the CSRF token. */
  method: string;
  credential: PresentedCredential | null;
  csrfToken: string | null;
  clientIp: string;
  secure: boolean;
  ifMatch: string | null;
}
