/**
 * Who is signed in, and what the role may do. An operation's role floor and
 * fleet-proxy flag come with its reference (`bngfleet:contract`, written at
 * build time from the server's contract), so the UI offers exactly what the
 * server allows and keeps no copy of the rules; the server still decides.
 */
import { signal } from "@preact/signals";
import { contract } from "bngfleet:contract";
import { ROLES } from "../src/auth/role-order.ts";
import { call, csrfToken, sessionLost, type OperationRef } from "./api.ts";
import { loadOperations } from "./openapi.ts";
import type { Role, Whoami } from "./types.ts";

export const me = signal<Whoami | null>(null);
/** Whether the first whoami has answered (signed in or not). */
export const checked = signal(false);

/** Reads whoami (and the OpenAPI document the forms' fields come from); null when no session. */
export async function refreshSession(): Promise<void> {
  try {
    const who = await call(contract.authSession.whoami, {}, "", { signIn: true });
    csrfToken.value = who.csrfToken;
    // A session signed in with the published default password may read nothing until it changes it.
    if (!who.passwordChangeRequired) await loadOperations();
    me.value = who;
    sessionLost.value = false;
  } catch {
    me.value = null;
  } finally {
    checked.value = true;
  }
}

const rank = (role: string) => ROLES.indexOf(role as Role);

/** Whether the signed-in role meets the operation's floor. */
export function can(operation: Pick<OperationRef, "floor">): boolean {
  const who = me.value;
  if (!who) return false;
  return operation.floor === "anonymous" || rank(who.role) >= rank(operation.floor);
}

/** Whether a peer's GET can be read through the fleet proxy: the proxy relays exactly the operations marked FP. */
export function readableOnPeer(operation: Pick<OperationRef, "fp">): boolean {
  return operation.fp;
}
