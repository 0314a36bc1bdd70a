/**
 * Users: the accounts, kept in the configuration list `login.users` (the identity model shared with the appliance
 * CLI), with the identity store's state beside them.
 */
import type { Role } from "../../../src/auth/roles.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { actor } from "../caller.ts";
import { keyedList } from "../keyed-list.ts";

/** The configuration list of accounts. */
const USERS_LIST = "login.users";

/** The accounts as a keyed list of the configuration (the own-password change commits through it too). */
export const accountList = (core: Pick<ApplianceCore, "config">) => keyedList(core, USERS_LIST, "user");

export function userPorts(core: Pick<ApplianceCore, "identity" | "config">) {
  const identity = () => core.identity();
  const version = () => core.config().activeVersion().version;
  const accounts = accountList(core);
  return {
    list: () => ({ users: identity().listUsers(), version: version() }),
    get: (_: Caller, username: string) => {
      const found = identity().getUser(username);
      return found.ok ? { ...found, version: version() } : found;
    },
    create: (caller: Caller, username: string, fields: { role: string; password: string }) =>
      accounts.put("create")(caller, username, fields, null),
    update: async (caller: Caller, username: string, role: Role, revokeTokens: boolean) => {
      const committed = await accounts.put("update")(caller, username, { role }, null);
      if (committed.ok && revokeTokens) identity().revokeTokensOf(username, role, actor(caller));
      return committed;
    },
    // The identity store revokes the account's tokens as the commit removes it (syncAccounts), flag or not.
    remove: (caller: Caller, username: string) => accounts.remove(caller, username, null),
    setPassword: (caller: Caller, username: string, password: string) =>
      accounts.put("update")(caller, username, { password }, null),
    resetTotp: (caller: Caller, username: string) => identity().resetTotp(username, actor(caller)),
    unlock: (caller: Caller, username: string) => identity().unlock(username, actor(caller)),
  } satisfies PortsOf<"users">;
}
