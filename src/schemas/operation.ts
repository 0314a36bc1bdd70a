/**
 * The one call a request makes into its appliance: the Worker resolves the
 * route, validates the input and runs the handler, whose one port call the
 * object authorizes and then runs (`Appliance.call`).
 */
import type { FieldError } from "./common.ts";
import type { Outcome } from "./outcome.ts";
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

/**
 * The request's input after the Worker's validation, or the refusal it earned (answered only once the caller is
 * authorized).
 */
export type OperationInput =
  | { ok: true; params: unknown; query: unknown; body: unknown; bytes?: Uint8Array | undefined }
  | { ok: false; refusal: Refusal };

/**
 * Who is calling, as a port method sees it inside the object: the authorized principal (null on anonymous operations)
 * and the connection's facts.
 */
export interface Caller {
  principal: Principal | null;
  /** The credential `principal` was resolved from (its kind and SHA-256); null on anonymous operations. */
  credential: PresentedCredential | null;
  /** The caller's address on an operation of ADDRESSED_SECTIONS (src/schemas/contract.ts); `unknown` on any other. */
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
  /** The caller's address on an operation of ADDRESSED_SECTIONS (src/schemas/contract.ts); `unknown` on any other. */
  clientIp: string;
  secure: boolean;
  ifMatch: string | null;
}

/** What a port call answers: the port's value, or why the caller was refused before it ran. */
export type PortAnswer = Outcome<{ value: unknown }>;
