/**
 * Who is signed in, and what the role may do. The role floors come from the
 * served OpenAPI document (`x-role-floor`, `x-fleet-proxy`, written from the
 * server's route table), so the UI offers exactly what the server allows and
 * never keeps its own copy of the rules; the server still decides.
 */
import { signal } from "@preact/signals";
import { ROLES } from "../src/auth/role-order.ts";
import { api, csrfToken, sessionLost } from "./api.ts";
import { loadOperations, operationFor } from "./openapi.ts";
import type { Role, Whoami } from "./types.ts";

export const me = signal<Whoami | null>(null);
/** Whether the first whoami has answered (signed in or not). */
export const checked = signal(false);

/** Reads whoami (and the role floors); null when no session. */
export async function refreshSession(): Promise<void> {
  try {
    const who = await api<Whoami>("/auth/whoami", { signIn: true });
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

/** Whether the signed-in role meets the floor of `method /api/v1<path>`. */
export function can(method: string, path: string): boolean {
  const who = me.value;
  if (!who) return false;
  const op = operationFor(method, path);
  if (!op) return false;
  return op.floor === "anonymous" || rank(who.role) >= rank(op.floor);
}

/** Whether a peer's GET can be read through the fleet proxy: the proxy relays exactly the operations marked `x-fleet-proxy`. */
export function readableOnPeer(path: string): boolean {
  return operationFor("GET", path.split("?")[0]!)?.fleetProxy === true;
}
