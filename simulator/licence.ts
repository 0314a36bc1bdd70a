/**
 * The licence: the terms an activation or an offline lease granted, and the
 * state machine the simulated clock drives. Pure: the appliance object keeps
 * the terms in SQLite and hands them to the model, which evaluates them with
 * the alarms after every sub-step and action (conditions.ts), so a state
 * change is logged at the simulated instant it happens.
 *
 *   Dev (mode dev, no licence) ─ activation / lease ─→ Licensed
 *   Licensed ─ expiresAtUtc ─→ Grace ─ graceDays later ─→ Lapsed
 *   any state ─ activation, a valid lease, or (online) a renewal ─→ Licensed
 *
 * Lapsed freezes configuration commits (`adminFreezeActive`); the data plane
 * keeps forwarding. The meter is live sessions; a count above the band is
 * alarmed, never refused (setups beyond the platform capacity are, as before).
 */
import type { LicenceStatus } from "../src/schemas/licensing.ts";
import { isoTime } from "./clock.ts";
import type { LicenceMode, LicenceState } from "./vocabulary.ts";

export const DAY_MS = 86_400_000;

/** What the appliance is licensed for. */
export interface LicenceTerms {
  mode: LicenceMode;
  licenceId: string | null;
  instanceId: string | null;
  /** The product role the licence covers. */
  role: string;
  bandName: string;
  /** Sessions the band allows; null = the platform capacity (dev mode's generous band). */
  bandMax: number | null;
  expiresAtMs: number | null;
  contractEndMs: number | null;
  lastRenewalMs: number | null;
  graceDays: number;
  /** Online: the entitlement one renewal grants, in days (capped by the contract end). */
  renewalDays: number;
}

/** A factory-fresh appliance: unlicensed development mode. */
export const DEV_TERMS: LicenceTerms = {
  mode: "dev",
  licenceId: null,
  instanceId: null,
  role: "bng",
  bandName: "dev",
  bandMax: null,
  expiresAtMs: null,
  contractEndMs: null,
  lastRenewalMs: null,
  graceDays: 0,
  renewalDays: 0,
};

/** What an activation grants (the verified token's claims plus the instance the licensing service assigned). */
export interface LicenceGrant {
  licenceId: string;
  instanceId: string;
  role: string;
  bandName: string;
  bandMax: number;
  contractEndMs: number;
  renewalDays: number;
  graceDays: number;
}

/** What a verified offline lease grants. */
export interface LeaseGrant {
  licenceId: string;
  instanceId: string;
  role: string;
  bandName: string;
  bandMax: number;
  expiresAtMs: number;
  contractEndMs: number;
  graceDays: number;
}

/** The state at an instant. */
export function licenceState(terms: LicenceTerms, nowMs: number): LicenceState {
  if (terms.mode === "dev" || terms.expiresAtMs === null) return "Dev";
  if (nowMs < terms.expiresAtMs) return "Licensed";
  return nowMs < graceEndMs(terms) ? "Grace" : "Lapsed";
}

/** When a licence past its expiry lapses. */
export function graceEndMs(terms: LicenceTerms): number {
  return (terms.expiresAtMs ?? 0) + terms.graceDays * DAY_MS;
}

/**
 * Whole days (rounded up) to the next transition: expiry while Licensed, the lapse during Grace; 0 when Lapsed; null in
 * Dev.
 */
export function daysRemaining(terms: LicenceTerms, nowMs: number): number | null {
  switch (licenceState(terms, nowMs)) {
    case "Dev":
      return null;
    case "Licensed":
      return Math.ceil(((terms.expiresAtMs ?? nowMs) - nowMs) / DAY_MS);
    case "Grace":
      return Math.ceil((graceEndMs(terms) - nowMs) / DAY_MS);
    case "Lapsed":
      return 0;
  }
}

/** The band a meter reading is judged against. */
export function bandMaxOf(terms: LicenceTerms, platformCapacity: number): number {
  return terms.bandMax ?? platformCapacity;
}

/** The spec's licence status at an instant, for a meter reading. */
export function licenceStatus(
  terms: LicenceTerms,
  meter: Pick<LicenceStatus, "bandMax" | "currentCount" | "peakCount">,
  nowMs: number,
): LicenceStatus {
  const state = licenceState(terms, nowMs);
  const iso = (ms: number | null) => (ms === null ? null : isoTime(ms));
  return {
    state,
    mode: terms.mode,
    role: terms.role,
    licenceId: terms.licenceId,
    instanceId: terms.instanceId,
    bandName: terms.bandName,
    meter: "sessions",
    bandMax: meter.bandMax,
    currentCount: meter.currentCount,
    peakCount: meter.peakCount,
    expiresAtUtc: iso(terms.expiresAtMs),
    contractEndUtc: iso(terms.contractEndMs),
    lastRenewalUtc: iso(terms.lastRenewalMs),
    daysRemaining: daysRemaining(terms, nowMs),
    adminFreezeActive: state === "Lapsed",
    isUnlicensed: state === "Dev" || state === "Lapsed",
    isEnrolled: terms.instanceId !== null,
  };
}

/** Online terms from an activation at `nowMs`: one entitlement period, capped by the contract end. */
export function onlineTerms(
  grant: LicenceGrant,
  nowMs: number,
): { ok: true; terms: LicenceTerms } | { ok: false; reason: "contract-ended" } {
  if (grant.contractEndMs <= nowMs) return { ok: false, reason: "contract-ended" };
  return {
    ok: true,
    terms: {
      mode: "online",
      licenceId: grant.licenceId,
      instanceId: grant.instanceId,
      role: grant.role,
      bandName: grant.bandName,
      bandMax: grant.bandMax,
      expiresAtMs: Math.min(nowMs + grant.renewalDays * DAY_MS, grant.contractEndMs),
      contractEndMs: grant.contractEndMs,
      lastRenewalMs: nowMs,
      graceDays: grant.graceDays,
      renewalDays: grant.renewalDays,
    },
  };
}

/** Offline terms from a verified lease loaded at `nowMs`; an expired lease is refused. */
export function offlineTerms(
  lease: LeaseGrant,
  nowMs: number,
): { ok: true; terms: LicenceTerms } | { ok: false; reason: "expired" } {
  if (lease.expiresAtMs <= nowMs) return { ok: false, reason: "expired" };
  return {
    ok: true,
    terms: {
      mode: "offline",
      licenceId: lease.licenceId,
      instanceId: lease.instanceId,
      role: lease.role,
      bandName: lease.bandName,
      bandMax: lease.bandMax,
      expiresAtMs: lease.expiresAtMs,
      contractEndMs: lease.contractEndMs,
      lastRenewalMs: nowMs,
      graceDays: lease.graceDays,
      renewalDays: 0,
    },
  };
}

/** An online licence renewed at `nowMs` (the check-in with the licensing service). */
export function renewedTerms(
  terms: LicenceTerms,
  nowMs: number,
): { ok: true; terms: LicenceTerms } | { ok: false; reason: "dev" | "offline" | "contract-ended" } {
  if (terms.mode === "dev") return { ok: false, reason: "dev" };
  if (terms.mode === "offline") return { ok: false, reason: "offline" };
  const contractEnd = terms.contractEndMs ?? nowMs;
  if (contractEnd <= nowMs) return { ok: false, reason: "contract-ended" };
  return {
    ok: true,
    terms: { ...terms, expiresAtMs: Math.min(nowMs + terms.renewalDays * DAY_MS, contractEnd), lastRenewalMs: nowMs },
  };
}
