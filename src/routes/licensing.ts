/**
 * Licensing: the licence status, activation (online), offline leases,
 * renewal and the telemetry preview. Tokens and leases are verified offline
 * (src/trust/licence.ts); the clock-driven states are the model's
 * (simulator/licence.ts). Writes are super-user, as the spec's activation and
 * load-offline; no read ever returns a token or a lease signature.
 */
import { inWorker } from "../http/route.ts";
import { licensing } from "../schemas/licensing.ts";
import { unwrap } from "../http/refusal.ts";

export const licensingRoutes = [
  inWorker(licensing.status, (ctx) => ctx.port.licensing.status()),
  inWorker(licensing.activate, async (ctx) => {
    const { activated, instanceId } = unwrap(
      await ctx.port.licensing.activate(ctx.body.token, ctx.body.licenceId ?? null),
    );
    return { activated, instanceId };
  }),
  inWorker(licensing.loadOffline, async (ctx) => {
    const { applied, state } = unwrap(await ctx.port.licensing.loadOffline(ctx.body));
    return { applied, state };
  }),
  inWorker(licensing.renew, async (ctx) => {
    const { renewed, state, expiresAtUtc, lastRenewalUtc } = unwrap(await ctx.port.licensing.renew());
    return { renewed, state, expiresAtUtc, lastRenewalUtc };
  }),
  inWorker(licensing.telemetry, (ctx) => ctx.port.licensing.telemetry()),
];
