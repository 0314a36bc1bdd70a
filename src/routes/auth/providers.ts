/** OIDC providers (client secret write-only) and the passkey policy. */
import { implement } from "../../http/route.ts";
import { unwrap } from "../../http/refusal.ts";
import { StatusError } from "../../http/problem.ts";
import { destinationVerdict } from "../../config/destinations.ts";
import { providers } from "../../schemas/auth/providers.ts";

export const providerRoutes = [
  implement(providers.listOidc, (ctx) => ctx.appliance.stub.providers().list()),
  implement(providers.getOidc, async (ctx) => unwrap(await ctx.appliance.stub.providers().get(ctx.params.name)).provider),
  implement(providers.putOidc, async (ctx) => {
    // The outbound policy at the door too (SSRF): a clear 422 now rather than a 502 at the first sign-in.
    const verdict = destinationVerdict(ctx.body.issuer, "oidc", ctx.appliance.stub.config().outboundAllowlist());
    if (!verdict.ok) throw new StatusError(422, `issuer: ${verdict.detail}`, { errors: [{ in: "body", pointer: "#/issuer", detail: verdict.detail }] });
    const { created } = unwrap(await ctx.appliance.stub.providers().put(ctx.params.name, ctx.body));
    return { status: created ? ("created" as const) : ("updated" as const) };
  }),
  implement(providers.deleteOidc, async (ctx) => {
    unwrap(await ctx.appliance.stub.providers().delete(ctx.params.name));
    return { status: "deleted" as const };
  }),
  implement(providers.getPasskeyPolicy, (ctx) => ctx.appliance.stub.providers().passkeyPolicy()),
  implement(providers.putPasskeyPolicy, async (ctx) => {
    await ctx.appliance.stub.providers().setPasskeyPolicy(ctx.body);
    return ctx.body;
  }),
];
