/**
 * Passkeys: an account registers its own (while logged in, in the browser
 * that holds the authenticator) and may then answer a login's
 * `totpCodeRequired` with one, where the passkey policy says a passkey
 * replaces the code. Registration is the account's own act, so these writes
 * are open to every role (a documented exception to the `/auth` super-user
 * rule); a super-user also sees, renames and removes anyone's.
 */
import { z } from "zod";
import { StatusError } from "../../http/problem.ts";
import { route, type RouteContext } from "../../http/route.ts";
import { StatusResult } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { isExternalIdentity } from "../../auth/accounts.ts";
import { PasskeyRecord, Reauthentication } from "../../schemas/auth.ts";

const base = "/api/v1/auth/passkeys";
const PasskeyName = z.string().trim().min(1).max(64);
const PasskeyId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,1023}$/, "a credential id (base64url)") });
/** PublicKeyCredentialCreationOptionsJSON as POST registration-options answers it: the fields the schema names, the rest passed through. */
export const PasskeyRegistrationOptions = z.looseObject({ challenge: z.string(), rp: z.looseObject({ id: z.string().optional(), name: z.string() }) });

/** The logged-in account (the routes take sessions only: a passkey belongs to a person). */
function account(ctx: RouteContext<unknown, unknown, unknown>): string {
  const username = ctx.principal!.username!;
  if (isExternalIdentity(username)) throw new StatusError(403, "an identity signed in through OIDC uses its provider's second factor");
  return username;
}

const actor = (ctx: RouteContext<unknown, unknown, unknown>) => ({ username: ctx.principal!.username, superUser: ctx.principal!.role === "super-user", name: actorName(ctx.principal!) });

export const passkeyRoutes = [
  route({
    method: "POST",
    path: `${base}/registration-options`,
    section: "Authentication",
    summary: "Start registering a passkey for the logged-in account",
    description:
      "Answers PublicKeyCredentialCreationOptionsJSON for `navigator.credentials.create()` (no attestation; the policy's user verification; the account's " +
      "passkeys excluded), valid 5 minutes. The relying party is the passkey policy's `rpId`, else `webUi.hostname`. 409 when the policy disables passkeys " +
      "or no relying-party id is known. " +
      "Re-authentication first (ASVS 5.0 V7.5.1): the body carries the account's `currentPassword` or a fresh `totpCode`, so a stolen session cannot add " +
      "its own passkey; a wrong one answers 401 and counts towards the lockout like a failed login.",
    floor: "read-only",
    credentials: "session",
    body: Reauthentication,
    response: { description: "registration options", schema: PasskeyRegistrationOptions },
    errors: [401, 409, 423],
    handle: async (ctx) => {
      // The account first: a pipelined stub left behind by a refusal would dangle.
      const username = account(ctx);
      unwrap(await ctx.appliance.stub.identity().reauthenticate(username, ctx.body, ctx.appliance.clientIp));
      const { options } = unwrap(await ctx.appliance.stub.passkeys().registrationOptions(username));
      // Spread into plain objects: SimpleWebAuthn's interfaces have no index signature, which the loose schema's type asks for.
      return { ...options, rp: { ...options.rp } };
    },
  }),
  route({
    method: "POST",
    path: base,
    section: "Authentication",
    summary: "Register a passkey: the authenticator's answer to the registration options",
    description:
      "Verifies the RegistrationResponseJSON against the pending challenge (once), the appliance's origins and relying-party id. 400 naming `#/response` " +
      "when it does not verify; 409 when no registration is under way or the passkey is already registered. Audited (`auth.passkey.registered`).",
    floor: "read-only",
    credentials: "session",
    body: z.object({
      name: PasskeyName.meta({ description: "a label, e.g. `YubiKey 5C`" }),
      response: z.looseObject({ id: z.string().max(1024), type: z.literal("public-key"), response: z.looseObject({}) }).meta({ description: "RegistrationResponseJSON from navigator.credentials.create()" }),
    }),
    response: { description: "the registered passkey", schema: PasskeyRecord },
    errors: [409],
    handle: async (ctx) => {
      const username = account(ctx);
      return unwrap(await ctx.appliance.stub.passkeys().register(username, ctx.body.name, ctx.body.response)).passkey;
    },
  }),
  route({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List passkeys: the caller's own, or every account's for a super-user",
    floor: "read-only",
    response: { description: "passkeys, newest first", schema: z.array(PasskeyRecord) },
    handle: (ctx) => ctx.appliance.stub.passkeys().list(ctx.principal!.role === "super-user" ? null : (ctx.principal!.username ?? "")),
  }),
  route({
    method: "PATCH",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "Rename a passkey",
    description: "The account's own, or any for a super-user; someone else's reads as 404.",
    floor: "read-only",
    params: PasskeyId,
    body: z.object({ name: PasskeyName }),
    response: { description: "the passkey", schema: PasskeyRecord },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.passkeys().rename(ctx.params.id, ctx.body.name, actor(ctx))).passkey,
  }),
  route({
    method: "DELETE",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "Remove a passkey; it no longer replaces the TOTP code",
    description: "The account's own, or any for a super-user; someone else's reads as 404. Audited (`auth.passkey.removed`).",
    floor: "read-only",
    params: PasskeyId,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404],
    handle: async (ctx) => {
      const { username } = unwrap(await ctx.appliance.stub.passkeys().remove(ctx.params.id, actor(ctx)));
      return { status: "deleted" as const, username };
    },
  }),
];
