/** The sign-in session: login, enrolment, logout, who am I, and the own password's change. */
import { isExternalIdentity } from "../../../src/auth/accounts.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import { refuse } from "../../../src/schemas/outcome.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { ownSession } from "../caller.ts";
import { accountList } from "./users.ts";

export function authSessionPorts(core: Pick<ApplianceCore, "identity" | "config">) {
  const identity = () => core.identity();
  const accounts = accountList(core);
  return {
    login: (caller: Caller, username: string, password: string, totpCode: string | null, passkey: unknown) =>
      identity().login(username, password, totpCode, caller.clientIp, passkey),
    enrol: (caller: Caller, enrolmentToken: string, totpCode: string) =>
      identity().enrol(enrolmentToken, totpCode, caller.clientIp),
    logout: (caller: Caller) => {
      const session = ownSession(caller);
      if (session !== null) identity().logout(session);
      return { endedSession: session !== null, username: caller.principal?.username ?? null };
    },
    whoami: (caller: Caller) => caller.principal!,
    password: async (caller: Caller, currentPassword: string, newPassword: string) => {
      const username = caller.principal!.username!;
      if (isExternalIdentity(username))
        return refuse("forbidden", "an identity signed in through OIDC has no password here; its provider manages it");
      // Counted like a login: a stolen session cannot guess the current password here faster than at the login.
      const reauthenticated = await identity().reauthenticate(username, { currentPassword }, caller.clientIp);
      if (!reauthenticated.ok) return reauthenticated;
      const changed = await accounts.put("update")(caller, username, { password: newPassword }, null);
      return changed.ok ? { ...changed, username } : changed;
    },
  } satisfies PortsOf<"authSession">;
}
