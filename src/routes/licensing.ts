/**
 * Licensing: the licence status, activation (online), offline leases,
 * renewal and the telemetry preview. Tokens and leases are verified offline
 * (src/trust/licence.ts); the clock-driven states are the model's
 * (simulator/licence.ts). Writes are super-user, as the spec's activation and
 * load-offline; no read ever returns a token or a lease signature.
 */
import { z } from "zod";
import { route } from "../http/route.ts";
import { LicenceLeaseResult, LicenceRenewalResult, LicenceStatus, TelemetryPreview } from "../schemas/licensing.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { OfflineLease } from "../trust/licence.ts";

const Activation = z
  .strictObject({
    token: z.string().min(1).max(4096).meta({ description: "activation token issued with the licence, `bnglic_…`" }),
    licenceId: z.string().min(1).max(64).nullable().optional().meta({ description: "the licence the token is for, when the token alone is ambiguous; must match the token's" }),
  })
  .meta({ id: "LicenceActivation" });

const LICENSING =
  "States: a fresh appliance is `Dev` (mode `dev`: unlicensed development mode, the band is the platform's session capacity). " +
  "Activation (online) or a lease (offline) makes it `Licensed` until `expiresAtUtc`; then `Grace` for the licence's `graceDays` (default 30), then `Lapsed`. Every change is logged (`licence.state`) at the simulated instant it happens; Grace and Lapsed raise the alarms `licence.grace` and `licence.lapsed`. " +
  "`Lapsed` freezes configuration commits (`adminFreezeActive`): they answer 409 until a licence is activated or a lease loaded; account changes under /auth and the licensing operations stay available, and the data plane keeps forwarding. " +
  "Sessions above `bandMax` are still admitted and raise the alarm `licence.band.exceeded`. The state follows the simulated clock (scenario `advance-clock`) and survives restarts and reseeds.";

export const licensingRoutes = [
  route({
    method: "GET",
    path: "/api/v1/licensing",
    section: "Licensing",
    summary: "Licence status: state, mode, band and the sessions meter",
    description: LICENSING,
    response: { description: "LicenceStatus", schema: LicenceStatus },
    handle: (ctx) => ctx.appliance.stub.licensing().status(),
  }),
  route({
    method: "POST",
    path: "/api/v1/licensing/activate",
    section: "Licensing",
    summary: "Activate a licence with its activation token (online mode)",
    description:
      "Works in every state, Lapsed included (the recovery path). The token is `bnglic_` + base64url(JSON claims) + `.` + base64url(HMAC-SHA-256 under the licensing key, HMAC-SHA-256(fleet secret, `bngfleet-licensing/1`)), verified offline; `npm run -s licence -- token …` issues one. " +
      "The licence runs one entitlement period (`renewalDays`, capped by the contract end) from now; the instance id is SHA-256(`bngfleet-instance/1:<appliance>:<licenceId>`) as a UUID. " +
      "A token whose signature or claims do not hold, a `licenceId` other than the token's, or an ended contract answer 422 (the licensing service refused it; `errors` names `#/token` or `#/licenceId`). The token is never stored or shown again, only its SHA-256. 409 when the appliance has no fleet secret to verify with.",
    floor: "super-user",
    body: Activation,
    response: {
      description: "activated",
      schema: z.object({ activated: z.literal(true), instanceId: z.string().nullable() }).meta({ id: "LicenceActivationResult" }),
    },
    errors: [409, 422],
    handle: async (ctx) => {
      const { activated, instanceId } = unwrap(await ctx.appliance.stub.licensing().activate(ctx.body.token, ctx.body.licenceId ?? null, actorName(ctx.principal!)));
      return { activated, instanceId };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/licensing/load-offline",
    section: "Licensing",
    summary: "Load a signed offline lease (offline mode), applied at once",
    description:
      "The body is the lease JSON, posted verbatim: `{format: \"bngfleet-lease/1\", licenceId, instanceId, role, bandName, bandMax, issuedUtc, expiresAtUtc, contractEndUtc, graceDays, signature}`, the signature being base64url HMAC-SHA-256 under the licensing key of `bngfleet-lease/1\\n` + the JSON array of the other fields in that order (`npm run -s licence -- lease …` issues one). " +
      "A malformed body answers 400; a signature that does not verify, a lease bound to another instance, or an expired lease 422 naming the field. Works in every state; the lease is kept in the appliance's storage and never shown again.",
    floor: "super-user",
    body: OfflineLease,
    response: { description: "applied", schema: LicenceLeaseResult },
    errors: [409, 422],
    handle: async (ctx) => {
      const { applied, state } = unwrap(await ctx.appliance.stub.licensing().loadOffline(ctx.body, actorName(ctx.principal!)));
      return { applied, state };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/licensing/renew",
    section: "Licensing",
    summary: "Renew the online licence now (its check-in with the licensing service)",
    description:
      "Online mode: a new entitlement period (`renewalDays`) from now, capped by the contract end; `lastRenewalUtc` is now. The twin has no licensing service to call on its own, so renewal happens only when asked. " +
      "409 in dev mode (nothing to renew), in offline mode (load a new lease instead) and once the contract has ended (activate a new licence). Takes no body.",
    floor: "super-user",
    response: {
      description: "renewed",
      schema: LicenceRenewalResult,
    },
    errors: [409],
    handle: async (ctx) => {
      const { renewed, state, expiresAtUtc, lastRenewalUtc } = unwrap(await ctx.appliance.stub.licensing().renew(actorName(ctx.principal!)));
      return { renewed, state, expiresAtUtc, lastRenewalUtc };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/licensing/telemetry",
    section: "Licensing",
    summary: "Preview of the usage report the appliance would send the licensing service",
    description: "Instance, licence, software version, band, the reporting period (since the last activation, renewal or lease) and the peak and current session counts. Online it goes with the next renewal; offline it is exported by hand; dev mode reports nothing.",
    response: { description: "LicenceTelemetryPreview", schema: TelemetryPreview },
    handle: (ctx) => ctx.appliance.stub.licensing().telemetry(),
  }),
];
