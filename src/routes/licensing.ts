/**
 * Licensing: the licence status, activation (online), offline leases,
 * renewal and the telemetry preview. Tokens and leases are verified offline
 * (src/trust/licence.ts); the clock-driven states are the model's
 * (simulator/licence.ts). Writes are super-user, as the spec's activation and
 * load-offline; no read ever returns a token or a lease signature.
 */
import { implement } from "../http/route.ts";
import { licensing } from "../schemas/licensing.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";

export const licensingRoutes = [
  implement(licensing.status, (ctx) => ctx.appliance.stub.licensing().status()),
  implement(licensing.activate, async (ctx) => {
    const { activated, instanceId } = unwrap(await ctx.appliance.stub.licensing().activate(ctx.body.token, ctx.body.licenceId ?? null, actorName(ctx.principal!)));
    return { activated, instanceId };
  }),
  implement(licensing.loadOffline, async (ctx) => {
    const { applied, state } = unwrap(await ctx.appliance.stub.licensing().loadOffline(ctx.body, actorName(ctx.principal!)));
    return { applied, state };
  }),
  implement(licensing.renew, async (ctx) => {
    const { renewed, state, expiresAtUtc, lastRenewalUtc } = unwrap(await ctx.appliance.stub.licensing().renew(actorName(ctx.principal!)));
    return { renewed, state, expiresAtUtc, lastRenewalUtc };
  }),
  implement(licensing.telemetry, (ctx) => ctx.appliance.stub.licensing().telemetry()),
];
