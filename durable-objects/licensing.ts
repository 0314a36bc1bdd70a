/**
 * The appliance's licence: the terms in force and the last offline lease,
 * kept in SQLite so they survive restarts (and reseeds, which only restart
 * the data plane). Activation tokens and leases are verified offline
 * (src/trust/licence.ts); the state machine itself is the model's
 * (simulator/licence.ts), driven by the simulated clock, so this store only
 * installs terms in the data plane and reads its status back.
 */
import {
  DEV_TERMS,
  licenceState,
  offlineTerms,
  onlineTerms,
  renewedTerms,
  type LicenceStatus,
  type LicenceTerms,
} from "../simulator/index.ts";
import { refuse, type Outcome, type Refusal } from "../src/schemas/outcome.ts";
import { instanceIdFor, licensingKey, signLease, verifyActivationToken, verifyLease } from "../src/trust/licence.ts";
import { sha256Hex } from "../src/trust/encoding.ts";
import type { DataPlane } from "./data-plane.ts";
import type {
  LicenceLeaseResult,
  LicenceRenewalResult,
  OfflineLease,
  TelemetryPreview,
} from "../src/schemas/licensing.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export class LicensingStore {
  readonly #sql: SqlStorage;
  readonly #appliance: string;
  readonly #dataPlane: DataPlane;
  readonly #fleetSecret: string | undefined;
  readonly #softwareVersion: string;
  #key: Promise<Uint8Array<ArrayBuffer>> | null = null;

  /** Opens the store and installs the stored terms (dev mode on a fresh appliance) in the data plane. */
  constructor(
    sql: SqlStorage,
    appliance: string,
    dataPlane: DataPlane,
    fleetSecret: string | undefined,
    softwareVersion: string,
  ) {
    this.#sql = sql;
    this.#appliance = appliance;
    this.#dataPlane = dataPlane;
    this.#fleetSecret = fleetSecret;
    this.#softwareVersion = softwareVersion;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS licence (
        id INTEGER PRIMARY KEY CHECK (id = 1), terms TEXT NOT NULL, lease TEXT, token_sha256 TEXT,
        updated_ms INTEGER NOT NULL);
    `);
    const row = sql.exec<{ terms: string }>("SELECT terms FROM licence WHERE id = 1").toArray()[0];
    dataPlane.setLicence(row ? parseTerms(row.terms) : DEV_TERMS);
  }

  /** The spec's licence status at the simulated now. */
  status(): LicenceStatus {
    return this.#dataPlane.model.licence.status();
  }

  /**
   * Activation (online mode): the token's signature and claims must hold,
   * `licenceId` (when given) must be the token's, and the contract must not
   * have ended. Works in every state, Lapsed included. Only the token's
   * SHA-256 is kept.
   */
  async activate(
    token: string,
    licenceId: string | null,
    actor: string,
  ): Promise<Outcome<{ activated: true; instanceId: string }>> {
    const key = await this.#licensingKey();
    if (!key)
      return this.#refused(
        "activate",
        "no-key",
        actor,
        "conflict",
        "this appliance cannot verify licences: the fleet secret (BNG_FLEET_SECRET) is not set",
      );
    const verified = await verifyActivationToken(key, token);
    if (!verified.ok)
      return this.#refused(
        "activate",
        verified.reason,
        actor,
        "rejected",
        `the activation token was refused: ${verified.detail}`,
        "#/token",
      );
    const claims = verified.claims;
    if (licenceId !== null && licenceId !== claims.licenceId) {
      return this.#refused(
        "activate",
        "licence-mismatch",
        actor,
        "rejected",
        `the activation token is for licence '${claims.licenceId}', not '${licenceId}'`,
        "#/licenceId",
      );
    }
    const instanceId = await instanceIdFor(this.#appliance, claims.licenceId);
    const nowMs = this.#nowMs();
    const terms = onlineTerms({ ...claims, instanceId, contractEndMs: Date.parse(claims.contractEndUtc) }, nowMs);
    if (!terms.ok) {
      return this.#refused(
        "activate",
        terms.reason,
        actor,
        "rejected",
        `licence '${claims.licenceId}' cannot be activated: its contract ended at ${claims.contractEndUtc}`,
        "#/token",
      );
    }
    this.#store(terms.terms, { tokenSha256: await sha256Hex(token.trim()) });
    this.#dataPlane.log("notice", "audit.licence.activate", {
      licenceId: claims.licenceId,
      instanceId,
      bandName: claims.bandName,
      bandMax: claims.bandMax,
      expiresAtUtc: iso(terms.terms.expiresAtMs ?? nowMs),
      actor,
    });
    return { ok: true, activated: true, instanceId };
  }

  /**
   * Loads a signed offline lease (offline mode), applied at once: the
   * signature must hold, the lease must be bound to this appliance's
   * instance for its licence, and it must not have expired.
   */
  async loadOffline(lease: OfflineLease, actor: string): Promise<Outcome<LicenceLeaseResult>> {
    const key = await this.#licensingKey();
    if (!key)
      return this.#refused(
        "load-offline",
        "no-key",
        actor,
        "conflict",
        "this appliance cannot verify licences: the fleet secret (BNG_FLEET_SECRET) is not set",
      );
    if (!(await verifyLease(key, lease))) {
      return this.#refused(
        "load-offline",
        "bad-signature",
        actor,
        "rejected",
        "the lease's signature does not verify: it was not issued for this fleet, or a field was altered",
        "#/signature",
      );
    }
    const instanceId = await instanceIdFor(this.#appliance, lease.licenceId);
    if (lease.instanceId !== instanceId) {
      return this.#refused(
        "load-offline",
        "wrong-instance",
        actor,
        "rejected",
        `the lease is bound to instance ${lease.instanceId}; this appliance is ` +
          `instance ${instanceId} for licence '${lease.licenceId}'`,
        "#/instanceId",
      );
    }
    const nowMs = this.#nowMs();
    const expiresAtMs = Date.parse(lease.expiresAtUtc);
    const contractEndMs = Date.parse(lease.contractEndUtc);
    if (expiresAtMs > contractEndMs) {
      return this.#refused(
        "load-offline",
        "bad-lease",
        actor,
        "rejected",
        `the lease expires (${lease.expiresAtUtc}) after its contract ends (${lease.contractEndUtc})`,
        "#/expiresAtUtc",
      );
    }
    const terms = offlineTerms({ ...lease, instanceId, expiresAtMs, contractEndMs }, nowMs);
    if (!terms.ok) {
      return this.#refused(
        "load-offline",
        terms.reason,
        actor,
        "rejected",
        `the lease expired at ${lease.expiresAtUtc} (appliance time ${iso(nowMs)})`,
        "#/expiresAtUtc",
      );
    }
    this.#store(terms.terms, { lease: JSON.stringify(lease) });
    this.#dataPlane.log("notice", "audit.licence.load-offline", {
      licenceId: lease.licenceId,
      instanceId,
      bandName: lease.bandName,
      bandMax: lease.bandMax,
      expiresAtUtc: lease.expiresAtUtc,
      actor,
    });
    return { ok: true, applied: true, state: licenceState(terms.terms, nowMs) };
  }

  /**
   * Scenario `load-lease`: the licensing service's part played by the twin
   * (it holds the fleet secret that stands in for the service): a lease for
   * this appliance expiring `days` simulated days from now, signed and loaded
   * as an operator's offline lease would be, so a scenario can then run the
   * clock through Grace to Lapsed.
   */
  async loadScenarioLease(
    request: { days: number; graceDays: number; bandMax: number },
    actor: string,
  ): Promise<Outcome<LicenceLeaseResult>> {
    const key = await this.#licensingKey();
    if (!key)
      return refuse("conflict", "this appliance cannot issue a lease: the fleet secret (BNG_FLEET_SECRET) is not set");
    const licenceId = "LIC-SCENARIO";
    const nowMs = this.#nowMs();
    const expiresAtMs = nowMs + request.days * 86_400_000;
    const lease = await signLease(key, {
      licenceId,
      instanceId: await instanceIdFor(this.#appliance, licenceId),
      bandName: "scenario",
      bandMax: request.bandMax,
      issuedUtc: iso(nowMs),
      expiresAtUtc: iso(expiresAtMs),
      contractEndUtc: iso(expiresAtMs),
      graceDays: request.graceDays,
    });
    return this.loadOffline(lease, actor);
  }

  /** Renewal, the online licence's check-in: a new entitlement period from now, capped by the contract end. */
  renew(actor: string): Outcome<LicenceRenewalResult> {
    const nowMs = this.#nowMs();
    const renewed = renewedTerms(this.#dataPlane.model.licence.terms(), nowMs);
    if (!renewed.ok) {
      const detail = {
        dev: "there is no licence to renew (dev mode): activate one with POST /api/v1/licensing/activate",
        offline:
          "an offline licence cannot be renewed online: load a new lease with POST /api/v1/licensing/load-offline",
        "contract-ended": "the contract has ended: activate a new licence with POST /api/v1/licensing/activate",
      }[renewed.reason];
      return this.#refused("renew", renewed.reason, actor, "conflict", detail);
    }
    this.#store(renewed.terms, {});
    const status = this.#dataPlane.model.licence.status();
    this.#dataPlane.log("notice", "audit.licence.renew", {
      licenceId: status.licenceId,
      expiresAtUtc: status.expiresAtUtc,
      actor,
    });
    return {
      ok: true,
      renewed: true,
      state: status.state,
      expiresAtUtc: status.expiresAtUtc,
      lastRenewalUtc: status.lastRenewalUtc,
    };
  }

  /** The usage report the appliance would send: online with its next renewal, offline by hand, in dev mode never. */
  telemetry(): TelemetryPreview {
    const status = this.#dataPlane.model.licence.status();
    const nowMs = this.#nowMs();
    return {
      format: "bngfleet-telemetry/1",
      appliance: this.#appliance,
      instanceId: status.instanceId,
      licenceId: status.licenceId,
      softwareVersion: this.#softwareVersion,
      mode: status.mode,
      state: status.state,
      meter: status.meter,
      bandName: status.bandName,
      bandMax: status.bandMax,
      period: { startUtc: status.lastRenewalUtc, endUtc: iso(nowMs) },
      peakCount: status.peakCount,
      currentCount: status.currentCount,
      generatedUtc: iso(nowMs),
      delivery: status.mode === "online" ? "renewal" : status.mode === "offline" ? "manual" : "none",
    };
  }

  /** Why configuration commits are frozen now (a lapsed licence), or null. */
  freezeDetail(): string | null {
    const status = this.#dataPlane.model.licence.status();
    if (!status.adminFreezeActive) return null;
    return (
      `licence '${status.licenceId ?? ""}' has lapsed: configuration commits are frozen until a licence is activated ` +
      "(POST /api/v1/licensing/activate) or an offline lease is loaded (POST /api/v1/licensing/load-offline)"
    );
  }

  #nowMs(): number {
    return this.#dataPlane.clock().nowMs;
  }

  #licensingKey(): Promise<Uint8Array<ArrayBuffer> | null> {
    if (!this.#fleetSecret) return Promise.resolve(null);
    this.#key ??= licensingKey(this.#fleetSecret);
    return this.#key;
  }

  /** Persists new terms (and the lease or token digest that granted them), then installs them. */
  #store(terms: LicenceTerms, source: { lease?: string; tokenSha256?: string }): void {
    this.#sql.exec(
      `INSERT INTO licence (id, terms, lease, token_sha256, updated_ms) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET terms = excluded.terms, updated_ms = excluded.updated_ms,
         lease = COALESCE(excluded.lease, licence.lease),
         token_sha256 = COALESCE(excluded.token_sha256, licence.token_sha256)`,
      JSON.stringify(terms),
      source.lease ?? null,
      source.tokenSha256 ?? null,
      Date.now(),
    );
    this.#dataPlane.setLicence(terms);
  }

  #refused(
    operation: "activate" | "load-offline" | "renew",
    reason: string,
    actor: string,
    kind: "rejected" | "conflict",
    detail: string,
    pointer?: string,
  ): Refusal {
    this.#dataPlane.log("warning", "audit.licence.refused", { operation, reason, actor });
    return kind === "rejected"
      ? refuse("rejected", detail, { errors: pointer ? [{ in: "body", pointer, detail }] : [] })
      : refuse("conflict", detail);
  }
}

/** Stored terms; anything unreadable falls back to dev mode rather than stopping the appliance. */
function parseTerms(text: string): LicenceTerms {
  try {
    const parsed = JSON.parse(text) as Partial<LicenceTerms>;
    return typeof parsed === "object" && parsed !== null && typeof parsed.mode === "string"
      ? { ...DEV_TERMS, ...parsed }
      : DEV_TERMS;
  } catch {
    return DEV_TERMS;
  }
}
