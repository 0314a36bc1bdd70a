/** Passkeys: an account registers its own; a super-user also sees, renames and removes anyone's. */
import { isExternalIdentity } from "../../../src/auth/accounts.ts";
import { passkeys } from "../../../src/schemas/auth/passkeys.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import { refuse, type Outcome } from "../../../src/schemas/outcome.ts";
import { actorName } from "../../../src/schemas/principal.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PasskeyActor } from "../../passkeys.ts";
import type { PortsOf } from "../port-table.ts";
import { serves } from "../serves.ts";

/**
 * The logged-in account a passkey write is for (sessions only: a passkey belongs to a person); an OIDC identity is
 * refused.
 */
function account(caller: Caller): Outcome<{ username: string }> {
  const username = caller.principal!.username!;
  if (isExternalIdentity(username))
    return refuse("forbidden", "an identity signed in through OIDC uses its provider's second factor");
  return { ok: true, username };
}

const passkeyActor = (caller: Caller): PasskeyActor => ({
  username: caller.principal!.username,
  superUser: caller.principal!.role === "super-user",
  name: actorName(caller.principal!),
});

export function passkeyPorts(core: Pick<ApplianceCore, "passkeys" | "identity">) {
  const store = () => core.passkeys();
  return {
    // The account first, then its password or code again, then the options: one refusal, in that order.
    registrationOptions: async (
      caller: Caller,
      proof: { currentPassword?: string | undefined; totpCode?: string | undefined },
    ) => {
      const own = account(caller);
      if (!own.ok) return own;
      const reauthenticated = await core.identity().reauthenticate(own.username, proof, caller.clientIp);
      if (!reauthenticated.ok) return reauthenticated;
      return store().registrationOptions(own.username);
    },
    register: async (caller: Caller, name: string, response: unknown) => {
      const own = account(caller);
      return own.ok ? store().register(own.username, name, response) : own;
    },
    list: serves(passkeys.list, (caller) =>
      store().list(caller.principal!.role === "super-user" ? null : (caller.principal!.username ?? "")),
    ),
    rename: (caller: Caller, id: string, name: string) => store().rename(id, name, passkeyActor(caller)),
    remove: (caller: Caller, id: string) => store().remove(id, passkeyActor(caller)),
  } satisfies PortsOf<"passkeys">;
}
