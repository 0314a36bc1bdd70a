/** API tokens: created, listed, read and revoked (the plaintext is shown once, at creation). */
import type { Role } from "../../../src/auth/roles.ts";
import { tokens } from "../../../src/schemas/auth/tokens.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { actor } from "../caller.ts";
import { answerIn, serves } from "../serves.ts";

export function tokenPorts(core: Pick<ApplianceCore, "identity">) {
  const identity = () => core.identity();
  return {
    create: (caller: Caller, name: string, role: Role, expiresUtc: string | null) =>
      identity().createToken(name, role, expiresUtc, actor(caller)),
    list: () => identity().listTokens(),
    get: serves(tokens.get, (_, { params }) => answerIn(identity().getToken(params.id), "token")),
    revoke: (caller: Caller, id: string) => identity().revokeToken(id, actor(caller)),
  } satisfies PortsOf<"tokens">;
}
