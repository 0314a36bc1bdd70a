/**
 * Licensing, the wire contract: the licence status, the offline lease, the telemetry the appliance would report, and
 * the section's operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { LICENCE_MODES, LICENCE_STATES } from "../../simulator/vocabulary.ts";

const State = z.enum(LICENCE_STATES);
const Mode = z.enum(LICENCE_MODES);
const Count = z.int().min(0);
const Utc = z.iso.datetime().nullable();

export const LicenceStatus = z
  .object({
    state: State,
    mode: Mode,
    role: z.string().meta({ description: "the product role the licence covers (`bng`)" }),
    licenceId: z.string().nullable(),
    instanceId: z.string().nullable().meta({ description: "assigned at activation or by the lease; null in dev mode" }),
    bandName: z.string().meta({ description: "`dev` in dev mode" }),
    meter: z.literal("sessions"),
    bandMax: Count.meta({ description: "sessions the band allows; in dev mode the platform's session capacity" }),
    currentCount: Count.meta({ description: "live sessions: the sessions summary's `total`" }),
    peakCount: Count.meta({ description: "high-water mark of live sessions since the data plane started" }),
    expiresAtUtc: Utc,
    contractEndUtc: Utc,
    lastRenewalUtc: Utc.meta({ description: "activation, the last renewal, or when the lease was loaded" }),
    daysRemaining: z.int32().nullable().meta({
      description:
        "whole days, rounded up, to expiry (Licensed) or to the lapse (Grace); 0 when Lapsed; null in dev mode",
    }),
    adminFreezeActive: z.boolean().meta({ description: "true when Lapsed: configuration commits answer 409" }),
    isUnlicensed: z.boolean().meta({ description: "true in Dev and Lapsed" }),
    isEnrolled: z.boolean().meta({ description: "true once an activation or a lease assigned an instance id" }),
  })
  .meta({ id: "LicenceStatus" });
export type LicenceStatus = z.output<typeof LicenceStatus>;

export const TelemetryPreview = z
  .object({
    format: z.literal("bngfleet-telemetry/1"),
    appliance: z.string(),
    instanceId: z.string().nullable(),
    licenceId: z.string().nullable(),
    softwareVersion: z.string(),
    mode: Mode,
    state: State,
    meter: z.literal("sessions"),
    bandName: z.string(),
    bandMax: Count,
    period: z.object({
      startUtc: Utc.meta({ description: "the last activation, renewal or lease load; null in dev mode" }),
      endUtc: z.iso.datetime(),
    }),
    peakCount: Count,
    currentCount: Count,
    generatedUtc: z.iso.datetime(),
    delivery: z.enum(["renewal", "manual", "none"]).meta({
      description:
        "`renewal`: sent with the next online renewal; `manual`: offline, exported by " +
        "hand; `none`: dev mode reports nothing",
    }),
  })
  .meta({ id: "LicenceTelemetryPreview" });
export type TelemetryPreview = z.output<typeof TelemetryPreview>;

export const LicenceLeaseResult = z
  .object({ applied: z.literal(true), state: State })
  .meta({ id: "LicenceLeaseResult" });
export type LicenceLeaseResult = z.output<typeof LicenceLeaseResult>;
export const LicenceRenewalResult = z
  .object({ renewed: z.literal(true), state: State, expiresAtUtc: Utc, lastRenewalUtc: Utc })
  .meta({ id: "LicenceRenewalResult" });
export type LicenceRenewalResult = z.output<typeof LicenceRenewalResult>;

const Activation = z
  .strictObject({
    token: z.string().min(1).max(4096).meta({ description: "activation token issued with the licence, `bnglic_…`" }),
    licenceId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .meta({ description: "the licence the token is for, when the token alone is ambiguous; must match the token's" }),
  })
  .meta({ id: "LicenceActivation" });

const LICENSING =
  "States: a fresh appliance is `Dev` (mode `dev`: unlicensed development mode, " +
  "the band is the platform's session capacity). " +
  ("Activation (online) or a lease (offline) makes it `Licensed` until " +
    "`expiresAtUtc`; then `Grace` for the licence's `graceDays` (default 30), then " +
    "`Lapsed`. Every change is logged (`licence.state`) at the simulated instant it " +
    "happens; Grace and Lapsed raise the alarms `licence.grace` and " +
    "`licence.lapsed`. ") +
  ("`Lapsed` freezes configuration commits (`adminFreezeActive`): they answer 409 " +
    "until a licence is activated or a lease loaded; account changes under /auth and " +
    "the licensing operations stay available, and the data plane keeps forwarding. ") +
  ("Sessions above `bandMax` are still admitted and raise the alarm " +
    "`licence.band.exceeded`. The state follows the simulated clock (scenario " +
    "`advance-clock`) and survives restarts and reseeds.");

/**
 * The fields a licence carries, shared by the offline lease and the activation token's claims (src/trust/licence.ts).
 */
export const LEASE_FORMAT = "bngfleet-lease/1";
export const LicenceId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1-64 letters, digits, '.', '_', '-'")
  .meta({ description: "the licence's id, e.g. `LIC-2026-0001`" });
export const BandName = z.string().min(1).max(64).meta({ description: "the licensed band's name, e.g. `S-2k`" });
export const BandMax = z
  .int()
  .min(1)
  .max(2 ** 31 - 1)
  .meta({ description: "sessions the band allows" });
export const Role = z
  .string()
  .min(1)
  .max(32)
  .default("bng")
  .meta({ description: "the product role the licence covers; default `bng`" });
export const GraceDays = z
  .int()
  .min(0)
  .max(365)
  .default(30)
  .meta({ description: "days a licence past its expiry keeps working (Grace) before it lapses; default 30" });
/** A lease's and a token's instants: UTC, no offset. */
export const LeaseUtc = z.iso.datetime({ offset: false });

/** A signed offline lease, as posted verbatim to load-offline. */
export const OfflineLease = z
  .strictObject({
    format: z.literal(LEASE_FORMAT),
    licenceId: LicenceId,
    instanceId: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: "the appliance instance the lease is bound to (see `instanceIdFor`)" }),
    role: Role,
    bandName: BandName,
    bandMax: BandMax,
    issuedUtc: LeaseUtc,
    expiresAtUtc: LeaseUtc,
    contractEndUtc: LeaseUtc,
    graceDays: GraceDays,
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "43 base64url characters (an HMAC-SHA-256)")
      .meta({ description: "base64url HMAC-SHA-256 of the lease's canonical text" }),
  })
  .meta({ id: "OfflineLease", description: `a signed offline lease (format \`${LEASE_FORMAT}\`)` });
export type OfflineLease = z.output<typeof OfflineLease>;

/** The section's operations. */
export const licensing = {
  status: operation({
    method: "GET",
    path: "/api/v1/licensing",
    section: "Licensing",
    summary: "Licence status: state, mode, band and the sessions meter",
    description: LICENSING,
    response: { description: "LicenceStatus", schema: LicenceStatus },
    examples: {
      response: {
        state: "Dev",
        mode: "dev",
        role: "bng",
        licenceId: null,
        instanceId: null,
        bandName: "dev",
        meter: "sessions",
        bandMax: 2500,
        currentCount: 1999,
        peakCount: 1999,
        expiresAtUtc: null,
        contractEndUtc: null,
        lastRenewalUtc: null,
        daysRemaining: null,
        adminFreezeActive: false,
        isUnlicensed: true,
        isEnrolled: false,
      },
    },
  }),
  activate: operation({
    method: "POST",
    path: "/api/v1/licensing/activate",
    section: "Licensing",
    summary: "Activate a licence with its activation token (online mode)",
    description:
      "Works in every state, Lapsed included (the recovery path). The token is " +
      "`bnglic_` + base64url(JSON claims) + `.` + base64url(HMAC-SHA-256 under the " +
      "licensing key, HMAC-SHA-256(fleet secret, `bngfleet-licensing/1`)), verified " +
      "offline; `bngfleet licence token …` issues one. " +
      ("The licence runs one entitlement period (`renewalDays`, capped by the contract " +
        "end) from now; the instance id is " +
        "SHA-256(`bngfleet-instance/1:<appliance>:<licenceId>`) as a UUID. ") +
      ("A token whose signature or claims do not hold, a `licenceId` other than the " +
        "token's, or an ended contract answer 422 (the licensing service refused it; " +
        "`errors` names `#/token` or `#/licenceId`). The token is never stored or shown " +
        "again, only its SHA-256. 409 when the appliance has no fleet secret to verify with."),
    floor: "super-user",
    body: Activation,
    response: {
      description: "activated",
      schema: z
        .object({ activated: z.literal(true), instanceId: z.string().nullable() })
        .meta({ id: "LicenceActivationResult" }),
    },
    errors: [409, 422],
    examples: {
      body: { token: "bnglic_4hT9pQ2vXw8sLk3mN7rB1cYd", licenceId: "LIC-2026-00042" },
      response: { activated: true, instanceId: "edge-1-7f3a9c" },
    },
  }),
  loadOffline: operation({
    method: "POST",
    path: "/api/v1/licensing/load-offline",
    section: "Licensing",
    summary: "Load a signed offline lease (offline mode), applied at once",
    description:
      'The body is the lease JSON, posted verbatim: `{format: "bngfleet-lease/1", ' +
      "licenceId, instanceId, role, bandName, bandMax, issuedUtc, expiresAtUtc, " +
      "contractEndUtc, graceDays, signature}`, the signature being base64url " +
      "HMAC-SHA-256 under the licensing key of `bngfleet-lease/1\\n` + the JSON array " +
      "of the other fields in that order (`bngfleet licence lease …` issues one). " +
      ("A malformed body answers 400; a signature that does not verify, a lease bound " +
        "to another instance, or an expired lease 422 naming the field. Works in every " +
        "state; the lease is kept in the appliance's storage and never shown again."),
    floor: "super-user",
    body: OfflineLease,
    response: { description: "applied", schema: LicenceLeaseResult },
    errors: [409, 422],
    examples: {
      body: {
        format: "bngfleet-lease/1",
        licenceId: "LIC-2026-00042",
        instanceId: "edge-1-7f3a9c",
        role: "bng",
        bandName: "bng-5k",
        bandMax: 5000,
        issuedUtc: "2026-11-26T00:00:00Z",
        expiresAtUtc: "2027-11-26T00:00:00Z",
        contractEndUtc: "2027-11-26T00:00:00Z",
        graceDays: 30,
        signature: "q3J0dW5lZC1oYW1tZXItbGVhc2Utc2lnbmF0dXJlLTA",
      },
      response: { applied: true, state: "Licensed" },
    },
  }),
  renew: operation({
    method: "POST",
    path: "/api/v1/licensing/renew",
    section: "Licensing",
    summary: "Renew the online licence now (its check-in with the licensing service)",
    description:
      "Online mode: a new entitlement period (`renewalDays`) from now, capped by the " +
      "contract end; `lastRenewalUtc` is now. The twin has no licensing service to " +
      "call on its own, so renewal happens only when asked. " +
      ("409 in dev mode (nothing to renew), in offline mode (load a new lease instead) " +
        "and once the contract has ended (activate a new licence). Takes no body."),
    floor: "super-user",
    response: {
      description: "renewed",
      schema: LicenceRenewalResult,
    },
    errors: [409],
    examples: {
      response: {
        renewed: true,
        state: "Licensed",
        expiresAtUtc: "2027-11-26T00:00:00.000Z",
        lastRenewalUtc: "2026-11-26T20:41:07.000Z",
      },
      errors: { 409: "there is no licence to renew (dev mode): activate one with POST /api/v1/licensing/activate" },
    },
  }),
  telemetry: operation({
    method: "GET",
    path: "/api/v1/licensing/telemetry",
    section: "Licensing",
    summary: "Preview of the usage report the appliance would send the licensing service",
    description:
      "Instance, licence, software version, band, the reporting period (since the last " +
      "activation, renewal or lease) and the peak and current session counts. Online " +
      "it goes with the next renewal; offline it is exported by hand; dev mode reports nothing.",
    response: { description: "LicenceTelemetryPreview", schema: TelemetryPreview },
    examples: {
      response: {
        format: "bngfleet-telemetry/1",
        appliance: "edge-1",
        instanceId: null,
        licenceId: null,
        softwareVersion: "bngfleet 0.1.0",
        mode: "dev",
        state: "Dev",
        meter: "sessions",
        bandName: "dev",
        bandMax: 2500,
        period: { startUtc: null, endUtc: "2026-11-26T20:35:10.000Z" },
        peakCount: 1999,
        currentCount: 1999,
        generatedUtc: "2026-11-26T20:35:10.000Z",
        delivery: "none",
      },
    },
  }),
};
