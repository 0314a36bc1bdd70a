/**
 * Passkeys: an account registers its own (while logged in, in the browser
 * that holds the authenticator) and may then answer a login's
 * `totpCodeRequired` with one, where the passkey policy says a passkey
 * replaces the code. Registration is the account's own act, so these writes
 * are open to every role (a documented exception to the `/auth` super-user
 * rule); a super-user also sees, renames and removes anyone's.
 */
import { inWorker } from "../../http/route.ts";
import { unwrap } from "../../http/refusal.ts";
import { passkeys } from "../../schemas/auth/passkeys.ts";

export const passkeyRoutes = [
  inWorker(passkeys.registrationOptions, async (ctx) => {
    const { options } = unwrap(await ctx.port.passkeys.registrationOptions(ctx.body));
    // Spread into plain objects: SimpleWebAuthn's interfaces have no index signature, which the loose schema's type
    // asks for.
    return { ...options, rp: { ...options.rp } };
  }),
  inWorker(
    passkeys.register,
    async (ctx) => unwrap(await ctx.port.passkeys.register(ctx.body.name, ctx.body.response)).passkey,
  ),
  inWorker(
    passkeys.rename,
    async (ctx) => unwrap(await ctx.port.passkeys.rename(ctx.params.id, ctx.body.name)).passkey,
  ),
  inWorker(passkeys.remove, async (ctx) => {
    const { username } = unwrap(await ctx.port.passkeys.remove(ctx.params.id));
    return { status: "deleted" as const, username };
  }),
];
