/**
 * Software upgrade: the staged package (one standby slot, in SQLite), the
 * running version, the apply under way and the history of results. The
 * drain and the reboot are the data plane's (simulator/upgrade.ts); this
 * store decides what may happen, fixes the plan, and reads the phase from the
 * plan and the simulated clock, so it never needs telling that a phase ended.
 *
 * A restart of the appliance before the planned reboot (while the image
 * installs or subscribers drain) fails the apply: the running version stays,
 * the package stays staged, sessions are admitted again. A restart after the
 * reboot began completes it, as the new image is already active.
 */
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import { PRODUCT, parsePackage, type ParsedPackage } from "../src/upgrade/package.ts";
import { importUpgradePublicKey, verifyManifest, type SignatureRefusal } from "../src/trust/package-signature.ts";
import { planUpgrade, upgradePhase, type UpgradePhase, type UpgradePlan } from "../simulator/upgrade-plan.ts";
import type { DataPlane } from "./data-plane.ts";
import {
  MAX_PACKAGE_BYTES,
  type StagedPackage,
  type UpgradeResult,
  type UpgradeState,
} from "../src/schemas/upgrade.ts";

/** Results kept in the history. */
export const HISTORY_LIMIT = 20;

const iso = (ms: number) => new Date(ms).toISOString();

/** What a refused signature tells the operator (422, pointer `#/manifest/signature`). */
const SIGNATURE_REFUSALS: Record<SignatureRefusal, string> = {
  "no-key":
    "this appliance has no upgrade public key (BNG_UPGRADE_PUBLIC_KEY unset, or not " +
    "an Ed25519 public key in PEM), so no package's signature can be verified",
  unsigned: "the package is not signed: its manifest has no signature (npm run upgrade-package signs one)",
  "bad-signature":
    "the package's signature does not verify with this appliance's upgrade public " +
    "key (BNG_UPGRADE_PUBLIC_KEY): it was signed by another key, or altered after signing",
};

interface PackageRow {
  id: string;
  version: string;
  size: number;
  sha256: string;
  payload_sha256: string;
  notes: string | null;
  staged_ms: number;
  staged_by: string;
  [key: string]: SqlStorageValue;
}

interface HistoryRow {
  package_id: string;
  from_version: string;
  to_version: string;
  drain: number;
  outcome: "succeeded" | "failed";
  reason: string | null;
  requested_ms: number;
  completed_ms: number;
  requested_by: string;
  sessions_drained: number;
  sessions_dropped: number;
  [key: string]: SqlStorageValue;
}

/** An apply under way: the plan and who asked. */
interface Applying {
  plan: UpgradePlan;
  requestedBy: string;
}

export class UpgradeStore {
  readonly #sql: SqlStorage;
  readonly #storage: DurableObjectStorage;
  readonly #dataPlane: () => DataPlane;
  readonly #publicKey: Promise<CryptoKey | null>;

  /**
   * `factoryVersion`: what a fresh appliance runs (the bare version, e.g. `0.1.0`); `publicKeyPem`: the vendor's key
   * packages must be signed with.
   */
  constructor(
    storage: DurableObjectStorage,
    factoryVersion: string,
    dataPlane: () => DataPlane,
    publicKeyPem: string | undefined,
  ) {
    this.#publicKey = publicKeyPem === undefined ? Promise.resolve(null) : importUpgradePublicKey(publicKeyPem);
    this.#storage = storage;
    this.#sql = storage.sql;
    this.#dataPlane = dataPlane;
    this.#sql.exec(`
      CREATE TABLE IF NOT EXISTS upgrade_package (
        id TEXT PRIMARY KEY, version TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
        payload_sha256 TEXT NOT NULL, notes TEXT, staged_ms INTEGER NOT NULL, staged_by TEXT NOT NULL,
        data BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS upgrade_state (
        id INTEGER PRIMARY KEY CHECK (id = 1), running_version TEXT NOT NULL, applying TEXT);
      CREATE TABLE IF NOT EXISTS upgrade_history (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, package_id TEXT NOT NULL, from_version TEXT NOT NULL,
        to_version TEXT NOT NULL, drain INTEGER NOT NULL, outcome TEXT NOT NULL, reason TEXT,
        requested_ms INTEGER NOT NULL, completed_ms INTEGER NOT NULL, requested_by TEXT NOT NULL,
        sessions_drained INTEGER NOT NULL, sessions_dropped INTEGER NOT NULL);
    `);
    this.#sql.exec(
      "INSERT INTO upgrade_state (id, running_version, applying) VALUES (1, ?, NULL) ON CONFLICT (id) DO NOTHING",
      factoryVersion,
    );
  }

  // ── reads ────────────────────────────────────────────────────────────────

  /** The version the appliance runs now (the new one from the instant its data plane is up again). */
  runningVersion(): string {
    this.#settle();
    return this.#row().running_version;
  }

  /** The running version as health and status report it, e.g. `bngfleet 0.2.0`. */
  softwareVersion(): string {
    return `${PRODUCT} ${this.runningVersion()}`;
  }

  /** The state alone, for the system status. */
  state(): UpgradeState {
    this.#settle();
    return this.#stateOf(this.#applying(), this.#staged(), this.#lastResult());
  }

  /**
   * GET /system/upgrade: running version, state, staged package, the apply under way, the last result and the history.
   */
  status() {
    this.#settle();
    const nowMs = this.#nowMs();
    const applying = this.#applying();
    const staged = this.#staged();
    const history = this.#history(HISTORY_LIMIT);
    const running = this.#row().running_version;
    return {
      asOfUtc: iso(nowMs),
      runningVersion: running,
      softwareVersion: `${PRODUCT} ${running}`,
      state: this.#stateOf(applying, staged, history[0] ?? null),
      staged,
      applying: applying ? this.#progress(applying, nowMs) : null,
      lastResult: history[0] ?? null,
      history,
    };
  }

  // ── actions ──────────────────────────────────────────────────────────────

  /**
   * Stages a package (replacing a staged one) once its magic, manifest,
   * payload digest and vendor signature check out; refused while an apply is
   * under way. Audited, refusals included.
   */
  async stage(bytes: Uint8Array, actor: string): Promise<Outcome<{ staged: StagedPackage; replaced: string | null }>> {
    if (bytes.length > MAX_PACKAGE_BYTES) return refuse("invalid", `packages are at most ${MAX_PACKAGE_BYTES} bytes`);
    const parsed = await parsePackage(bytes);
    const signed = parsed.ok ? await verifyManifest(parsed.parsed.manifest, await this.#publicKey) : null;
    // Everything below runs without awaiting, so no other request interleaves with the checks and the write.
    const checked =
      parsed.ok && signed && !signed.ok
        ? { ok: false as const, pointer: "#/manifest/signature", detail: SIGNATURE_REFUSALS[signed.reason] }
        : parsed;
    if (!checked.ok) {
      this.#dataPlane().log("warning", "audit.upgrade.rejected", { size: bytes.length, reason: checked.detail, actor });
      return refuse("rejected", `the package was refused: ${checked.detail}`, {
        errors: [{ in: "body", pointer: checked.pointer, detail: checked.detail }],
      });
    }
    return this.#stageChecked(bytes, checked.parsed, actor);
  }

  /**
   * The package a scenario's `upgrade` action applies, signed as any other (issue #47: the action staged an
   * unsigned placeholder, the one way past the vendor's signature): `given`, the launcher's package signed with
   * its development key, staged as an upload is; without one, the package already staged when it is of `version`
   * (an operator stages it as for any upgrade). A conflict (409) otherwise, saying how to stage one.
   */
  async scenarioPackage(
    version: string,
    given: Uint8Array | undefined,
    actor: string,
  ): Promise<Outcome<{ staged: StagedPackage }>> {
    let staged = this.#staged();
    if (given !== undefined) {
      const uploaded = await this.stage(given, actor);
      if (!uploaded.ok) return uploaded;
      staged = uploaded.staged;
    }
    if (staged?.version === version) return { ok: true, staged };
    return refuse(
      "conflict",
      `no signed package of version ${version} is staged${staged ? ` (${staged.version} is)` : ""}: stage one first ` +
        `(POST /api/v1/system/upgrade/stage; \`npm run -s upgrade-package ${version}\` ` +
        "signs one with the local fleet's key)",
    );
  }

  #stageChecked(
    bytes: Uint8Array,
    checked: ParsedPackage,
    actor: string,
  ): Outcome<{ staged: StagedPackage; replaced: string | null }> {
    this.#settle();
    const applying = this.#applying();
    if (applying)
      return refuse(
        "conflict",
        `an upgrade to ${applying.plan.version} is being applied ` +
          `(${upgradePhase(applying.plan, this.#nowMs())}); stage again once it has finished`,
      );
    const { manifest, sha256, size } = checked;
    const id = `pkg-${sha256.slice(0, 16)}`;
    const replaced = this.#staged()?.id ?? null;
    const nowMs = this.#nowMs();
    // Dropped whether the transaction commits or rolls back: the next read sees what storage holds.
    this.#forget();
    this.#storage.transactionSync(() => {
      this.#sql.exec("DELETE FROM upgrade_package");
      this.#sql.exec(
        "INSERT INTO upgrade_package (id, version, size, sha256, payload_sha256, notes, " +
          "staged_ms, staged_by, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        id,
        manifest.version,
        size,
        sha256,
        manifest.sha256,
        manifest.notes ?? null,
        nowMs,
        actor,
        bytes,
      );
    });
    this.#dataPlane().log("notice", "audit.upgrade.stage", {
      packageId: id,
      version: manifest.version,
      size,
      sha256,
      replaced,
      actor,
    });
    return { ok: true, staged: this.#staged()!, replaced };
  }

  /**
   * Applies the staged package: 409 while another apply runs or when nothing
   * is staged, 404 for an id other than the staged one. The plan is fixed
   * now; the data plane carries it out on the simulated clock. Audited.
   */
  apply(id: string, drain: boolean, actor: string) {
    this.#settle();
    const nowMs = this.#nowMs();
    const applying = this.#applying();
    if (applying)
      return refuse(
        "conflict",
        `an upgrade to ${applying.plan.version} is already being applied (${upgradePhase(applying.plan, nowMs)})`,
      );
    const staged = this.#staged();
    if (!staged)
      return refuse("conflict", "nothing is staged: stage a package with POST /api/v1/system/upgrade/stage first");
    if (staged.id !== id)
      return refuse(
        "not-found",
        `no staged package '${id}' (the staged package is '${staged.id}', version ${staged.version})`,
      );
    const fromVersion = this.#row().running_version;
    const plan = planUpgrade({ packageId: staged.id, fromVersion, version: staged.version, drain }, nowMs);
    this.#sql.exec(
      "UPDATE upgrade_state SET applying = ? WHERE id = 1",
      JSON.stringify({ plan, requestedBy: actor } satisfies Applying),
    );
    this.#forget();
    const dataPlane = this.#dataPlane();
    dataPlane.log("notice", "audit.upgrade.apply", {
      packageId: staged.id,
      version: staged.version,
      fromVersion,
      drain,
      actor,
    });
    dataPlane.beginUpgrade(plan);
    return {
      ok: true as const,
      result: {
        packageId: staged.id,
        fromVersion,
        toVersion: staged.version,
        drain,
        state: "applying" as const,
        requestedUtc: iso(plan.requestedMs),
        installedUtc: iso(plan.installedMs),
        rebootUtc: iso(plan.rebootMs),
        upUtc: iso(plan.upMs),
        sessions: dataPlane.upgrade()?.sessions ?? 0,
      },
    };
  }

  /**
   * At the appliance's start: an apply that had not reached its reboot failed
   * (the restart booted the old image); one past it completes.
   */
  reconcileAtStart(): void {
    const applying = this.#applying();
    if (!applying) return;
    const phase = upgradePhase(applying.plan, this.#nowMs());
    if (phase === "applying" || phase === "draining") {
      const reason =
        `interrupted: the appliance restarted ` +
        `while ${phase === "applying" ? "installing the image" : "draining subscribers"}; ` +
        `it still runs ${applying.plan.fromVersion} and the package stays staged`;
      this.#finish(applying, "failed", reason);
      this.#dataPlane().abandonUpgrade();
      this.#dataPlane().log("error", "upgrade.failed", {
        packageId: applying.plan.packageId,
        version: applying.plan.version,
        reason,
      });
    } else {
      this.#settle();
    }
  }

  // ── internals ────────────────────────────────────────────────────────────

  #nowMs(): number {
    return this.#dataPlane().clock().nowMs;
  }

  /**
   * The state row, the staged package and the last result, each read once and all dropped at every write
   * (`#forget`): every request's health asks for the version, and every status (a fleet overview asks each
   * appliance) for the three. The staged package's and the last result's reads were 3.5 to 5.5 % of a cold
   * overview's CPU at 1,000 appliances.
   */
  #stateRow: { running_version: string; applying: string | null } | undefined;
  #stagedRead: StagedPackage | null | undefined;
  #lastRead: UpgradeResult | null | undefined;

  #forget(): void {
    this.#stateRow = undefined;
    this.#stagedRead = undefined;
    this.#lastRead = undefined;
  }

  #row(): { running_version: string; applying: string | null } {
    return (this.#stateRow ??= this.#sql
      .exec<{ running_version: string; applying: string | null }>(
        "SELECT running_version, applying FROM upgrade_state WHERE id = 1",
      )
      .one());
  }

  #lastResult(): UpgradeResult | null {
    if (this.#lastRead === undefined) this.#lastRead = this.#history(1)[0] ?? null;
    return this.#lastRead;
  }

  #applying(): Applying | null {
    const text = this.#row().applying;
    return text ? (JSON.parse(text) as Applying) : null;
  }

  #staged(): StagedPackage | null {
    if (this.#stagedRead !== undefined) return this.#stagedRead;
    const row = this.#sql
      .exec<PackageRow>(
        "SELECT id, version, size, sha256, payload_sha256, notes, staged_ms, staged_by FROM upgrade_package",
      )
      .toArray()[0];
    this.#stagedRead = row
      ? {
          id: row.id,
          name: PRODUCT,
          version: row.version,
          size: row.size,
          sha256: row.sha256,
          payloadSha256: row.payload_sha256,
          notes: row.notes,
          stagedUtc: iso(row.staged_ms),
          stagedBy: row.staged_by,
        }
      : null;
    return this.#stagedRead;
  }

  #history(limit: number): UpgradeResult[] {
    return this.#sql
      .exec<HistoryRow>("SELECT * FROM upgrade_history ORDER BY seq DESC LIMIT ?", limit)
      .toArray()
      .map((r) => ({
        packageId: r.package_id,
        fromVersion: r.from_version,
        toVersion: r.to_version,
        drain: r.drain === 1,
        outcome: r.outcome,
        reason: r.reason,
        requestedUtc: iso(r.requested_ms),
        completedUtc: iso(r.completed_ms),
        requestedBy: r.requested_by,
        sessionsDrained: r.sessions_drained,
        sessionsDropped: r.sessions_dropped,
      }));
  }

  #stateOf(applying: Applying | null, staged: StagedPackage | null, last: UpgradeResult | null): UpgradeState {
    if (applying) {
      const phase = upgradePhase(applying.plan, this.#nowMs());
      return phase === "complete" ? "idle" : phase;
    }
    // A failure stays the state until something newer happens (a package staged since, or another apply).
    if (last?.outcome === "failed" && (!staged || staged.stagedUtc <= last.completedUtc)) return "failed";
    return staged ? "staged" : "idle";
  }

  /** What the data plane has done of the apply under way. */
  #progress(applying: Applying, nowMs: number) {
    const { plan } = applying;
    const live = this.#dataPlane().upgrade();
    const mine =
      live && live.plan.packageId === plan.packageId && live.plan.requestedMs === plan.requestedMs ? live : null;
    return {
      packageId: plan.packageId,
      fromVersion: plan.fromVersion,
      toVersion: plan.version,
      drain: plan.drain,
      // Never `complete` here: every read settles a finished apply first.
      phase: upgradePhase(plan, nowMs) as Exclude<UpgradePhase, "complete">,
      requestedUtc: iso(plan.requestedMs),
      requestedBy: applying.requestedBy,
      installedUtc: iso(plan.installedMs),
      rebootUtc: iso(plan.rebootMs),
      upUtc: iso(plan.upMs),
      sessions: mine?.sessions ?? 0,
      sessionsAtDrainStart: mine?.drainStartSessions ?? null,
      sessionsDrained: mine?.drained ?? 0,
      setupsRefused: mine?.refused ?? 0,
    };
  }

  /** Records a finished apply once the clock has passed its `up` instant: the new version is the running one. */
  #settle(): void {
    const applying = this.#applying();
    if (!applying || upgradePhase(applying.plan, this.#nowMs()) !== "complete") return;
    this.#finish(applying, "succeeded", null);
  }

  #finish(applying: Applying, outcome: "succeeded" | "failed", reason: string | null): void {
    const { plan } = applying;
    const live = this.#dataPlane().upgrade();
    const mine =
      live && live.plan.packageId === plan.packageId && live.plan.requestedMs === plan.requestedMs ? live : null;
    // Dropped whether the transaction commits or rolls back: the next read sees what storage holds.
    this.#forget();
    try {
      this.#storage.transactionSync(() => {
        this.#sql.exec(
          "INSERT INTO upgrade_history (package_id, from_version, to_version, drain, " +
            "outcome, reason, requested_ms, completed_ms, requested_by, sessions_drained, " +
            "sessions_dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          plan.packageId,
          plan.fromVersion,
          plan.version,
          plan.drain ? 1 : 0,
          outcome,
          reason,
          plan.requestedMs,
          outcome === "succeeded" ? plan.upMs : this.#nowMs(),
          applying.requestedBy,
          mine?.drained ?? 0,
          mine?.dropped ?? 0,
        );
        this.#sql.exec(
          "DELETE FROM upgrade_history WHERE seq <= (SELECT MAX(seq) FROM upgrade_history) - ?",
          HISTORY_LIMIT,
        );
        if (outcome === "succeeded") {
          this.#sql.exec("UPDATE upgrade_state SET running_version = ?, applying = NULL WHERE id = 1", plan.version);
          // The standby slot is now the running one: the package is consumed.
          this.#sql.exec("DELETE FROM upgrade_package WHERE id = ?", plan.packageId);
        } else {
          this.#sql.exec("UPDATE upgrade_state SET applying = NULL WHERE id = 1");
        }
      });
    } finally {
      this.#forget();
    }
  }
}
