/**
 * Who may run an operation: the rule the appliance's object applies to every
 * call, before anything else runs. Pure: the credential arrives hashed, the
 * identity store's `lookup` resolves it, and a refusal comes back as data
 * (the HTTP layer maps `unauthenticated` to 401 with its challenge and
 * `forbidden` to 403).
 */
import type { Operation } from "../schemas/contract.ts";
import type { PresentedCredential } from "../schemas/operation.ts";
import { refuse, type Outcome } from "../schemas/outcome.ts";
import type { Principal } from "../schemas/principal.ts";
import { constantTimeEqual } from "../trust/encoding.ts";
import { defaultFloor, isMutation, meetsFloor } from "./roles.ts";

/** The operation's floor: its own, or the spec's common rule. */
export const floorOf = (operation: Pick<Operation, "floor" | "method" | "path">) =>
  operation.floor ?? defaultFloor(operation.method, operation.path);

/**
 * What the rule reads of a request: its method (a mutation needs the CSRF token), the CSRF token as sent, and the
 * credential.
 */
export interface Presented {
  method: string;
  csrfToken: string | null;
  credential: PresentedCredential | null;
}

/**
 * Resolves and checks the caller: the CSRF token for a cookie's mutation, the
 * password-change gate, the operation's credential kind and the role floor, in
 * that order; `principal` is null on anonymous operations. `lookup` is the
 * identity store's, so a revoked token or ended session is refused on its
 * very next request.
 */
export function authorizeOperation(
  operation: Pick<Operation, "floor" | "method" | "path" | "credentials" | "beforePasswordChange">,
  request: Presented,
  lookup: (credential: PresentedCredential) => Principal | null,
): Outcome<{ principal: Principal | null }> {
  const floor = floorOf(operation);
  if (floor === "anonymous") return { ok: true, principal: null };
  // The Worker sends a credential for every operation that is not anonymous; none here is a caller that bypassed it.
  if (!request.credential) return refuse("unauthenticated", "a bearer token or session cookie is required");
  const principal = lookup(request.credential);
  if (!principal)
    return refuse(
      "unauthenticated",
      request.credential.via === "token"
        ? "the bearer token is unknown, revoked or expired"
        : "the session has ended; log in again",
    );
  if (principal.via === "session" && isMutation(request.method)) {
    const sent = request.csrfToken ?? "";
    if (!principal.csrfToken || !constantTimeEqual(sent, principal.csrfToken)) {
      return refuse("forbidden", "cookie-authenticated changes need the session's CSRF token in X-CSRF-Token");
    }
  }
  if (principal.passwordChangeRequired && !operation.beforePasswordChange) {
    return refuse(
      "forbidden",
      "this account still has the published development default password: change it " +
        "with POST /api/v1/auth/password before anything else",
    );
  }
  if (operation.credentials === "session" && principal.via !== "session") {
    return refuse(
      "forbidden",
      "this operation belongs to a logged-in account (a browser session); a token cannot perform it",
    );
  }
  if (!meetsFloor(principal.role, floor))
    return refuse("forbidden", `this operation needs the ${floor} role; the caller has ${principal.role}`);
  return { ok: true, principal };
}
