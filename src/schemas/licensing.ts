/** Licensing's wire shapes: the licence status and the telemetry the appliance would report. */
import { z } from "zod";

const State = z.enum(["Dev", "Licensed", "Grace", "Lapsed"]);
const Mode = z.enum(["dev", "online", "offline"]);
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
    daysRemaining: z.int32().nullable().meta({ description: "whole days, rounded up, to expiry (Licensed) or to the lapse (Grace); 0 when Lapsed; null in dev mode" }),
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
    delivery: z.enum(["renewal", "manual", "none"]).meta({ description: "`renewal`: sent with the next online renewal; `manual`: offline, exported by hand; `none`: dev mode reports nothing" }),
  })
  .meta({ id: "LicenceTelemetryPreview" });
export type TelemetryPreview = z.output<typeof TelemetryPreview>;

export const LicenceLeaseResult = z.object({ applied: z.literal(true), state: State }).meta({ id: "LicenceLeaseResult" });
export const LicenceRenewalResult = z.object({ renewed: z.literal(true), state: State, expiresAtUtc: Utc, lastRenewalUtc: Utc }).meta({ id: "LicenceRenewalResult" });
