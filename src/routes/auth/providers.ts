/** OIDC providers (client secret write-only) and the passkey policy. */
import { inWorker } from "../../http/route.ts";
import { unwrap } from "../../http/refusal.ts";
import { providers } from "../../schemas/auth/providers.ts";

export const providerRoutes = [
  inWorker(providers.putOidc, async (ctx) => {
    // The issuer is judged by the outbound policy in the object, at the door (422), before anything is stored.
    const { created } = unwrap(await ctx.port.providers.putOidc(ctx.params.name, ctx.body));
    return { status: created ? ("created" as const) : ("updated" as const) };
  }),
  inWorker(providers.deleteOidc, async (ctx) => {
    unwrap(await ctx.port.providers.deleteOidc(ctx.params.name));
    return { status: "deleted" as const };
  }),
  inWorker(providers.putPasskeyPolicy, async (ctx) => {
    await ctx.port.providers.putPasskeyPolicy(ctx.body);
    return ctx.body;
  }),
];
