/**
 * The appliance's implementation: its stores, their wiring and what the
 * operations read. The object (durable-objects/appliance.ts) holds one in a
 * private field, so none of it is reachable over RPC; the operations' ports
 * (durable-objects/ports/) run against it inside the object.
 */
import type { Connection } from "partyserver";
import type { Env } from "../src/env.ts";
import { listenerOrigin } from "../fleet-config/schema.ts";
import { seedDocument } from "../src/config/seed.ts";
import { profileWithCgn } from "../src/config/cgn.ts";
import {
  applianceNamed,
  inboundPeerCredentials,
  listenerOptions,
  loadFleet,
  peersOf,
} from "../src/fleet/definition.ts";
import type { Role } from "../src/auth/roles.ts";
import { IdentityStore } from "./identity.ts";
import type { IdentityEvent } from "./identity-event.ts";
import { adminSeed, firstAdminHash } from "../src/auth/bootstrap.ts";
import { deploymentOf } from "../src/fleet/deployment.ts";
import { clockStartOf } from "../src/fleet/clock-start.ts";
import { isWellFormedToken } from "../src/trust/tokens.ts";
import { ProviderStore } from "./providers.ts";
import { PasskeyStore } from "./passkeys.ts";
import type { PasskeyContext } from "../src/trust/passkeys.ts";
import { pageOrigins } from "../src/config/web-ui.ts";
import { resolveWith } from "../src/config/destinations.ts";
import { ConfigStore, accountsOf, configDocumentOf, secretItemsOf, type ConfigEvent } from "./config-store.ts";
import type { SinkSettings } from "./alert-sinks.ts";
import { ALERT_QUEUE_SIZE } from "../src/config/sink-urls.ts";
import {
  BGP_WATCH,
  GRE_BGP_WATCH,
  GRE_WATCH,
  IGP_WATCH,
  IPSEC_WATCH,
  StateWatch,
} from "../simulator/control-plane-watch.ts";
import { DataPlane, TICK_MS, type SourceVrfRule } from "./data-plane.ts";
import { profileOf } from "./profiles.ts";
import { GreStore } from "./gre.ts";
import { LicensingStore } from "./licensing.ts";
import { LOCAL_LISTS, localSubscribersOf } from "../src/config/local-subscribers.ts";
import { POOLS_LIST, poolSettingsOf } from "../src/config/address-pools.ts";
import { radiusServersOf } from "../src/config/radius.ts";
import { appliersOf, type Applier } from "../src/config/registry.ts";
import { SYSLOG_LIST, syslogDestinationsOf } from "../src/config/syslog.ts";
import { SyslogShipper } from "./syslog.ts";
import { RealAaa } from "./radius/real-aaa.ts";
import { RoutingStore } from "./routing.ts";
import { IpsecStore } from "./ipsec.ts";
import { UpgradeStore } from "./upgrade.ts";
import { AcmeStore } from "./acme.ts";
import { AuditTrail } from "./audit.ts";
import type { Profile } from "../simulator/index.ts";
import type { ScrapeState } from "../src/metrics/families.ts";
import { applyScenarioAction, runScenarioFile, type ScenarioPackages, type ScenarioStores } from "./scenario-runner.ts";
import type { SystemStatus } from "../src/schemas/system.ts";
import { LiveFeed } from "./live.ts";

/**
 * Identity events after which an open log stream's credential may no longer hold (an OIDC provider deleted, disabled or
 * changed ends its sessions).
 */
const CREDENTIAL_ENDINGS = new Set([
  "auth.logout",
  "auth.session.ended",
  "auth.token.revoked",
  "auth.user.deleted",
  "auth.password.changed",
  "auth.totp.reset",
  "auth.oidc.sessions.ended",
]);

/** The software version the appliance reports. */
export const SOFTWARE_VERSION = "bngfleet 0.1.0";

/**
 * An alarm set for the instant a step falls due fires a few milliseconds past it; the slack keeps it from landing just
 * before.
 */
const ALARM_SLACK_MS = 5;

/** Configured source-VRF rules as the data plane applies them. */
function sourceVrfRulesOf(items: { key: string; values: Record<string, unknown> }[]): SourceVrfRule[] {
  return items.map((item) => ({
    name: item.key,
    ingestVrf: String(item.values.ingestVrf),
    sourceSubnets: Array.isArray(item.values.sourceSubnets) ? item.values.sourceSubnets.map(String) : [],
    targetVrf: String(item.values.targetVrf),
  }));
}

/** Configured alert sinks as the fan-out sends to them, credentials included. */
function alertSinksOf(items: { key: string; values: Record<string, unknown> }[]): SinkSettings[] {
  return items.map((item) => ({
    name: item.key,
    kind: item.values.kind as SinkSettings["kind"],
    url: String(item.values.url),
    severityFloor: (item.values.severityFloor ?? "major") as SinkSettings["severityFloor"],
    credential: typeof item.values.credential === "string" ? item.values.credential : null,
    queueSize: typeof item.values.queueSize === "number" ? item.values.queueSize : ALERT_QUEUE_SIZE,
  }));
}

/**
 * The appliance's implementation: a plain class held in the object's `#core`, so none of it is reachable over RPC
 * (TypeScript's `private` would not stop an RPC caller; workers-oauth-provider keeps its helpers off the wire the same
 * way). The operations' ports (durable-objects/ports/) run against it inside the object (`Appliance.call`).
 */
export class ApplianceCore {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  readonly #nameOf: () => string;
  readonly #connections: () => Iterable<Connection>;
  #identity!: IdentityStore;
  /** Undefined only if the stores failed to open. */
  #live: LiveFeed | undefined;
  #providers!: ProviderStore;
  #passkeys!: PasskeyStore;
  #dataPlane!: DataPlane;
  #config!: ConfigStore;
  #gre!: GreStore;
  #licensing: LicensingStore | undefined;
  #routing!: RoutingStore;
  #ipsec!: IpsecStore;
  #upgrade!: UpgradeStore;
  #acme!: AcmeStore;
  #audit!: AuditTrail;
  #syslog!: SyslogShipper;
  #realAaa!: RealAaa;
  /** Ends the subscription to CGN compliance records; null while no destination takes them. */
  #stopPortBlocks: (() => void) | null = null;
  /** The configuration version the running data plane booted with (restart-only keys committed later are pending). */
  #bootConfigVersion = 0;
  /** `webUi.peers` as they were when the object started (the key applies at restart). */
  #peers: ReturnType<ConfigStore["peers"]> = [];
  readonly #startedMs = Date.now();

  constructor(ctx: DurableObjectState, env: Env, nameOf: () => string, connections: () => Iterable<Connection>) {
    this.ctx = ctx;
    this.env = env;
    // The outbound policy judges a name by what it resolves to, through the local launcher's resolver (none deployed).
    resolveWith(env);
    this.#nameOf = nameOf;
    this.#connections = connections;
  }

  /** The appliance's name (its object's name, as the fleet file spells it). */
  get name(): string {
    return this.#nameOf();
  }

  /** Opens the stores; the object runs it before any entry point (fetch, alarm and RPC alike). */
  async open(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const definition = applianceNamed(this.env, this.name);
    if (!definition) throw new Error(`appliance '${this.name}' is not in the fleet file`);
    const shipped = profileOf(this.env, definition);
    // The configuration is opened first: the data plane and the accounts start from what it says.
    // A lapsed licence freezes configuration commits (refused with 409, logged as config.frozen).
    const context = {
      appliance: this.name,
      members: loadFleet(this.env).appliances.map((a) => a.name),
      ...(shipped ? { profile: shipped } : {}),
    };
    this.#config = new ConfigStore(
      this.ctx.storage,
      context,
      (event) => this.#configApplied(event),
      (meta) => {
        const frozen = this.#licensing?.freezeDetail() ?? null;
        if (frozen !== null) {
          this.#dataPlane.log("warning", "config.frozen", { operation: meta.operation, actor: meta.actor });
        }
        return frozen;
      },
      // A commit happens at the instant its log entry carries (the data plane's clock; the wall clock while it opens).
      () => this.#dataPlane?.eventInstant() ?? Date.now(),
    );
    const log = (event: IdentityEvent) => {
      this.#dataPlane.log(event.severity, event.msgId, event.fields);
      // A session or token just ended, or an account lost its right: open log streams and live connections recheck
      // their credential now.
      if (CREDENTIAL_ENDINGS.has(event.msgId)) {
        this.#dataPlane.recheckStreams();
        this.#live?.recheck();
      }
    };
    // Identity is created below; the provider store reaches it only when a provider changes.
    this.#providers = new ProviderStore(
      sql,
      (provider, reason) => void this.#identity.endProviderSessions(provider, reason),
    );
    this.#passkeys = new PasskeyStore(sql, () => this.#passkeyContext(), log);
    // With a live clock, token uses are written with the tick's commit (IdentityStore's `#touches`).
    this.#identity = new IdentityStore(sql, this.name, log, this.#passkeys, { deferTouches: this.#liveClock });
    this.#identity.open();
    if (!this.#config.isSeeded() || this.#config.missingKeys().length > 0) {
      const listener = listenerOrigin(loadFleet(this.env), definition, listenerOptions(this.env));
      const stored = this.#identity.storedAccounts();
      // Deployed, never a well-known password (src/auth/bootstrap.ts): without BNG_ADMIN_PASSWORD, one nobody knows.
      const seed = adminSeed(this.env, deploymentOf(this.env));
      const accounts =
        stored.length > 0
          ? stored
          : [{ username: "admin", role: "super-user", passwordHash: await firstAdminHash(seed) }];
      const seeded = seedDocument({
        definition,
        listener,
        peers: await peersOf(this.env, definition),
        profile: shipped,
        accounts,
        localFleet: deploymentOf(this.env) === "local",
      });
      if (this.#config.isSeeded()) this.#config.seedMissing(seeded);
      else this.#config.seed(seeded);
    }
    this.#peers = this.#config.peers();
    // CGN allocators are built at startup: the data plane runs the profile with its CGN section taken
    // from the configuration as it is now. A changed section no longer matches the snapshot's profile
    // fingerprint, so the data plane starts afresh, as a real box does when it boots a new CGN setup.
    const built = profileWithCgn(shipped, this.#config.cgnSection());
    const profile = built.ok ? built.profile : { ...shipped, cgn: { ...shipped.cgn, groups: [] } };
    this.#dataPlane = new DataPlane(sql, this.name, profile, definition.seed, this.#config.captureAllowlist(), {
      startMs: clockStartOf(this.env),
      live: this.#liveClock,
    });
    this.#audit = new AuditTrail(sql);
    this.#dataPlane.watchLog((entry) => this.#audit.observe(entry));
    // Entries from here on are shipped (not those of the catch-up replay: the box was off).
    this.#syslog = new SyslogShipper(this.name, (severity, msgId, fields) =>
      this.#dataPlane.log(severity, msgId, fields),
    );
    this.#dataPlane.watchLog((entry) => this.#syslog.observe(entry));
    this.#dataPlane.setDriverLosses(() => this.#syslog.driverLosses());
    this.#applySyslog();
    // The pools, RADIUS servers and local subscriber table as configured now (a restored snapshot already
    // holds them: then nothing changes). Pools first: local subscribers' static addresses are placed in them.
    this.#dataPlane.setPools(poolSettingsOf(this.#config.items(POOLS_LIST)));
    this.#realAaa = new RealAaa(
      this.#dataPlane,
      () => this.#nasIdentity(),
      () => this.#dataPlane.eventInstant(),
    );
    this.#applyRadius();
    this.#dataPlane.setLocalSubscribers(
      localSubscribersOf(this.#config.items(LOCAL_LISTS.ipoe), this.#config.items(LOCAL_LISTS.pppoe)),
    );
    this.#dataPlane.setSourceVrfRules(sourceVrfRulesOf(this.#config.items("sourceVrfRules")));
    this.#applyAlertSinks();
    if (!built.ok)
      this.#dataPlane.log("error", "cgn.config.invalid", {
        issues: built.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      });
    this.#licensing = new LicensingStore(sql, this.name, this.#dataPlane, this.env.BNG_FLEET_SECRET, SOFTWARE_VERSION);
    this.#gre = new GreStore(
      sql,
      () => this.#dataPlane.clock(),
      () => this.#dataPlane.daemons().routing,
    );
    this.#bootConfigVersion = this.#config.activeVersion().version;
    this.#dataPlane.onReboot(() => this.#rebootProfile(shipped));
    this.#upgrade = new UpgradeStore(
      this.ctx.storage,
      SOFTWARE_VERSION.split(" ")[1] ?? SOFTWARE_VERSION,
      () => this.#dataPlane,
      this.env.BNG_UPGRADE_PUBLIC_KEY,
    );
    this.#upgrade.reconcileAtStart();
    this.#gre.apply(this.#config.items("gre.listeners"), this.#config.items("gre.circuits"));
    const document = () => configDocumentOf(this.#config);
    this.#routing = new RoutingStore(sql, { document, dataPlane: this.#dataPlane, gre: this.#gre });
    this.#ipsec = new IpsecStore(sql, { document, dataPlane: this.#dataPlane });
    // BGP sessions and GRE tunnels are sampled after every step: their changes are logged and alarmed.
    const bgp = new StateWatch(BGP_WATCH);
    const gre = new StateWatch(GRE_WATCH);
    const igp = new StateWatch(IGP_WATCH);
    const ipsec = new StateWatch(IPSEC_WATCH);
    const greBgp = new StateWatch(GRE_BGP_WATCH);
    this.#dataPlane.watchSteps((sink) => {
      bgp.sample(this.#routing.neighborStates(), sink);
      const adjacencies = this.#routing.igp();
      igp.sample(
        adjacencies.reachable
          ? adjacencies.adjacencies.map((a) => ({
              key: `${a.interface} ${a.neighborId}`,
              state: a.state,
              sinceMs: Date.parse(a.lastChangeUtc),
            }))
          : null,
        sink,
      );
      // Rekeys are not losses, so SAs are compared by state alone.
      const sas = this.#ipsec.status();
      ipsec.sample(
        sas.reachable ? sas.peers.map((p) => ({ key: p.name, state: sas.enabled ? p.state : "DISABLED" })) : null,
        sink,
      );
      // A circuit's lastChange covers BFD and BGP too, so tunnels are compared by state alone: their outages outlast a
      // step.
      gre.sample(
        this.#gre.status().circuits.map((c) => ({ key: c.id, state: c.tunnelState })),
        sink,
      );
      // Their eBGP sessions too: one can go Idle with its tunnel up (the peer over maximumPrefix).
      greBgp.sample(this.#gre.bgpSessions(), sink);
    });
    this.#live = new LiveFeed({
      session: (sha256, touch) => this.#identity.authenticate("session", sha256, touch),
      pageOrigins: () => pageOrigins(this.#config.field("webUi.listeners"), this.#hostname()),
      status: () => this.systemStatus(),
      connections: this.#connections,
    });
    // The web UI's live connections hear of every step (alarms raised and cleared, sessions, the licence meter).
    this.#dataPlane.watchSteps(() => this.#live?.changed());
    this.#acme = new AcmeStore(sql, this.#config, (severity, msgId, fields) =>
      this.#dataPlane.log(severity, msgId, fields),
    );
    this.#identity.syncAccounts(accountsOf(this.#config), "system");
    const provisioned: { name: string; role: Role; plaintext: string }[] = (
      await inboundPeerCredentials(this.env, this.name)
    ).map((peer) => ({
      name: peer.tokenName,
      role: "read-only",
      plaintext: peer.credential,
    }));
    if (this.env.BNG_BOOTSTRAP_TOKEN && isWellFormedToken(this.env.BNG_BOOTSTRAP_TOKEN))
      provisioned.push({ name: "bootstrap", role: "super-user", plaintext: this.env.BNG_BOOTSTRAP_TOKEN });
    await this.#identity.provisionTokens(provisioned);
    if (this.#liveClock && (await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now() + TICK_MS);
    // A certificate due (or an attempt cut short by the restart) is obtained without waiting for the alarm.
    this.#startAcme();
  }

  /**
   * The clock moves on its own, the alarm ticking every 10 s, unless a test or pipeline drives it (BNG_CLOCK=manual).
   */
  get #liveClock(): boolean {
    return this.env.BNG_CLOCK !== "manual";
  }

  /** Starts an ACME attempt if one is due; it runs in the background and logs its own outcome. */
  #startAcme(): void {
    this.#acme.tick().catch((error: unknown) =>
      this.#dataPlane.log("error", "acme.order.failed", {
        directoryUrl: null,
        error: String(error),
        failures: 0,
        nextAttempt: null,
      }),
    );
  }

  /** What each applier the registry names (appliedBy) does to the running appliance, from the committed document. */
  readonly #appliers: Record<Applier, (event: Extract<ConfigEvent, { kind: "committed" }>) => void> = {
    captures: ({ document }) => {
      const allowlist = document.fields["captures.mirrorAllowlist"];
      this.#dataPlane.setCaptureAllowlist(Array.isArray(allowlist) ? allowlist : []);
    },
    gre: ({ document }) => this.#gre.apply(document.lists["gre.listeners"] ?? [], document.lists["gre.circuits"] ?? []),
    acme: () => {
      this.#acme.configChanged();
      this.#startAcme();
    },
    "alert-sinks": () => this.#applyAlertSinks(),
    syslog: () => this.#applySyslog(),
    accounts: ({ actor }) => this.#identity.syncAccounts(accountsOf(this.#config), actor),
    routing: () => this.#routing.sync(),
    ipsec: () => this.#ipsec.sync(),
    pools: ({ document }) => this.#dataPlane.setPools(poolSettingsOf(document.lists[POOLS_LIST] ?? [])),
    radius: () => this.#applyRadius(),
    "source-vrf-rules": ({ document }) =>
      this.#dataPlane.setSourceVrfRules(sourceVrfRulesOf(document.lists.sourceVrfRules ?? [])),
    "local-subscribers": ({ document }) =>
      this.#dataPlane.setLocalSubscribers(
        localSubscribersOf(document.lists[LOCAL_LISTS.ipoe] ?? [], document.lists[LOCAL_LISTS.pppoe] ?? []),
      ),
  };

  /**
   * The hot-apply event of a configuration commit: hot keys take effect now;
   * restart-only keys are read at the next start (`#open`). Every commit and
   * every refused change is audited in the log ring.
   */
  #configApplied(event: ConfigEvent): void {
    // Still opening (keys seeded after a software update): #open reads the configuration itself.
    if (this.#dataPlane === undefined) return;
    if (event.kind === "rejected") {
      this.#dataPlane.log("warning", "config.rejected", {
        operation: event.operation,
        actor: event.actor,
        errors: event.errors,
      });
      return;
    }
    // The hot-apply and its effects (pools rebuilt, sessions dropped…) happen at the commit's instant, as its entry
    // says.
    this.#dataPlane.atInstant(Date.parse(event.committedUtc), () => {
      for (const applier of appliersOf(event.keys)) this.#appliers[applier](event);
      this.#dataPlane.log("notice", "config.commit", {
        version: event.version,
        operation: event.operation,
        actor: event.actor,
        comment: event.comment,
        changes: event.changedPaths.length,
        restartRequired: event.restartRequired,
      });
    });
  }

  /**
   * An upgrade's reboot boots what a start would (`open`): the CGN section and
   * the peers as configured now, so restart-only changes take effect there.
   */
  /** The alert fan-out follows `alarms.sinks` and `alarms.webhookAllowlist` as configured now. */
  #applyAlertSinks(): void {
    this.#dataPlane.setAlertSinks(
      alertSinksOf(secretItemsOf(this.#config, "alarms.sinks")),
      this.#config.outboundAllowlist(),
    );
  }

  /** The RADIUS servers as configured now: simulated ones in the model, real ones through the RADIUS client too. */
  #applyRadius(): void {
    const document = configDocumentOf(this.#config);
    this.#realAaa.apply(document, radiusServersOf(document.lists["radius.servers"] ?? []), this.#dataPlane.aaaPolicy());
  }

  /** Who this NAS is in RADIUS: its name, and its router id (the address a BNG sources RADIUS from) when IPv4. */
  #nasIdentity(): { identifier: string; ipAddress: string | null } {
    const routerId = this.#config.field("routing.routerId");
    return {
      identifier: this.name,
      ipAddress: typeof routerId === "string" && /^\d+\.\d+\.\d+\.\d+$/.test(routerId) ? routerId : null,
    };
  }

  /** Syslog shipping follows `logging.syslog` and `alarms.webhookAllowlist` as configured now. */
  #applySyslog(): void {
    const destinations = syslogDestinationsOf(this.#config.items(SYSLOG_LIST));
    this.#syslog.set(destinations, this.#config.outboundAllowlist());
    // CGN compliance logging: the model tells of port blocks, the syslog driver ships them and counts its losses. A
    // record is
    // built for every block allocated or released (a subscriber's setup and teardown), so the model is asked for them
    // only
    // while a destination takes them.
    const wanted = destinations.some((d) => d.stream === "cgn");
    if (wanted && !this.#stopPortBlocks)
      this.#stopPortBlocks = this.#dataPlane.watchPortBlocks((record) => this.#syslog.observePortBlock(record));
    else if (!wanted && this.#stopPortBlocks) {
      this.#stopPortBlocks();
      this.#stopPortBlocks = null;
    }
  }

  #rebootProfile(shipped: Profile): Profile {
    this.#peers = this.#config.peers();
    this.#bootConfigVersion = this.#config.activeVersion().version;
    const built = profileWithCgn(shipped, this.#config.cgnSection());
    if (!built.ok)
      this.#dataPlane.log("error", "cgn.config.invalid", {
        issues: built.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      });
    return built.ok ? built.profile : { ...shipped, cgn: { ...shipped.cgn, groups: [] } };
  }

  /**
   * Every 10 s: advance the simulation to now, then schedule the next tick for when the model's next step falls
   * due (a scenario's advance moves that instant), so each tick runs one step on time and interface counters
   * read between ticks move evenly (DataPlane.interfaces).
   */
  async alarm(): Promise<void> {
    this.#dataPlane.tick();
    // In the same commit as the tick's own writes and the next alarm: no disk sync of their own.
    this.#identity.writeTouches();
    this.#startAcme();
    if (this.#liveClock)
      await this.ctx.storage.setAlarm(
        Date.now() + Math.min(TICK_MS, this.#dataPlane.msUntilNextStep() + ALARM_SLACK_MS),
      );
  }

  /** Sessions, pools, CGN, RADIUS, metrics, logs, alarms, captures and scenario control. */
  dataPlane(): DataPlane {
    return this.#dataPlane;
  }

  /**
   * A live log stream for the credential (token or session, by its SHA-256)
   * that opened it: it ends when that credential stops authenticating
   * (checked at every keepalive and whenever a session or token ends).
   */
  logStream(sinceSeq: number | null, credential: { via: "token" | "session"; sha256: string }, owner: string) {
    return this.#dataPlane.logStream(
      sinceSeq,
      owner,
      () => this.#identity.authenticate(credential.via, credential.sha256, false) !== null,
    );
  }

  /** The audit trail (durable-objects/audit.ts): the newest `count` entries, or those after `sinceSeq`. */
  auditTail(count: number, sinceSeq: number | null) {
    return this.#audit.tail(count, sinceSeq);
  }

  /** The web UI's live channel (durable-objects/live.ts). */
  live(): LiveFeed {
    if (!this.#live) throw new Error(`appliance '${this.name}' did not start: its live channel is closed`);
    return this.#live;
  }

  /**
   * Something the web UI shows may have changed: its live connections are told (nothing to do if the object never
   * started).
   */
  changed(): void {
    this.#live?.changed();
  }

  /** Accounts, tokens, sessions and the login state machine. */
  identity(): IdentityStore {
    return this.#identity;
  }

  /** The configuration: active document, history and the commit pipeline. */
  /** The running `webUi.peers`, credentials included, for the fleet proxy. */
  fleetPeers(): ReturnType<ConfigStore["peers"]> {
    return this.#peers;
  }

  config(): ConfigStore {
    return this.#config;
  }

  /** GRE circuits' live state. */
  gre(): GreStore {
    return this.#gre;
  }

  /** The licence: status, activation, offline leases, renewal and the telemetry preview. */
  licensing(): LicensingStore {
    return this.#licensing!;
  }

  /** The accounts' passkeys. */
  passkeys(): PasskeyStore {
    return this.#passkeys;
  }

  /**
   * Where passkeys are bound: the policy's rpId, else `webUi.hostname`; pages
   * are served from the hostname at each listener's port.
   */
  #passkeyContext(): PasskeyContext {
    const policy = this.#providers.passkeyPolicy();
    const pageHost = this.#hostname() ?? policy.rpId;
    const origins = pageHost === null ? [] : pageOrigins(this.#config.field("webUi.listeners"), pageHost);
    return {
      enabled: policy.enabled,
      replacesTotp: policy.replacesTotp,
      userVerification: policy.userVerification,
      rpId: policy.rpId ?? pageHost,
      origins,
    };
  }

  /** `webUi.hostname`: the name browsers use for the appliance's pages; null when none is configured. */
  #hostname(): string | null {
    const hostname = this.#config.field("webUi.hostname");
    return typeof hostname === "string" ? hostname : null;
  }

  /** BGP, the IGP and the route tables. */
  routing(): RoutingStore {
    return this.#routing;
  }

  /** IPsec peers and SAs. */
  ipsec(): IpsecStore {
    return this.#ipsec;
  }

  /** The ACME client: its status, and the HTTP-01 answers the listener serves. */
  acme(): AcmeStore {
    return this.#acme;
  }

  /** OIDC providers and the passkey policy. */
  providers(): ProviderStore {
    return this.#providers;
  }

  /** Liveness of the object and its storage, and the software it runs. */
  health(): { appliance: string; uptimeSeconds: number; storage: "ok"; softwareVersion: string } {
    this.ctx.storage.sql.exec("SELECT 1").toArray();
    return {
      appliance: this.name,
      uptimeSeconds: Math.floor((Date.now() - this.#startedMs) / 1000),
      storage: "ok",
      softwareVersion: this.#upgrade.softwareVersion(),
    };
  }

  /** Software upgrade: the staged package, the apply under way and the results. */
  upgrade(): UpgradeStore {
    return this.#upgrade;
  }

  /**
   * GET /system/status's answer, read at one instant from the data plane, the
   * configuration and the upgrade store: the route answers it and the web UI's
   * live channel pushes it, so both show the same numbers.
   */
  systemStatus(): SystemStatus {
    const d = this.#dataPlane.systemView();
    const configuration = this.#config.activeVersion();
    const pendingRestartVersions = this.#config.restartRequiredSince(this.#bootConfigVersion);
    const rebooting = d.upgradePhase === "rebooting";
    const uptimeSeconds = Math.floor((Date.now() - this.#startedMs) / 1000);
    return {
      appliance: d.appliance,
      hostname: this.#hostname(),
      softwareVersion: this.#upgrade.softwareVersion(),
      asOfUtc: new Date(d.nowMs).toISOString(),
      controlPlane: {
        state: d.upgradePhase === "draining" ? "draining" : rebooting ? "rebooting" : "running",
        startedUtc: new Date(this.#startedMs).toISOString(),
        uptimeSeconds,
      },
      dataPlane: {
        forwarding: d.forwarding,
        acceptingSessions: d.upgradePhase !== "draining" && !rebooting,
        bootedUtc: new Date(d.bootedMs).toISOString(),
        uptimeSeconds: Math.max(0, Math.floor((d.nowMs - d.bootedMs) / 1000)),
      },
      simulation: { profile: d.profile, seed: d.seed, simulatedTimeUtc: new Date(d.nowMs).toISOString() },
      sessions: {
        total: d.sessions,
        licensed: d.licence.bandMax,
        utilisationPercent: Math.round((d.sessions / d.licence.bandMax) * 1000) / 10,
        setupsSinceBoot: d.sessionEvents.setups,
        teardownsSinceBoot: d.sessionEvents.teardowns,
        setupFailuresSinceBoot: d.sessionEvents.failures,
      },
      traffic: { rxBps: d.ports.reduce((n, p) => n + p.rxBps, 0), txBps: d.ports.reduce((n, p) => n + p.txBps, 0) },
      cpu: { cores: d.load.cpuCores, utilisationPercent: d.load.cpuPercent },
      memory: {
        totalBytes: d.load.memoryTotalBytes,
        usedBytes: d.load.memoryUsedBytes,
        utilisationPercent: d.load.memoryPercent,
      },
      alarms: d.alarms,
      configuration: { ...configuration, pendingRestartVersions, pendingRestart: pendingRestartVersions.length > 0 },
      // The state GET /licensing and the scrape report, read at the same instant.
      licence: {
        state: this.licensing().status().state,
        meter: d.licence.meter,
        bandMax: d.licence.bandMax,
        currentCount: d.licence.currentCount,
        peakCount: d.licence.peakCount,
      },
      upgrade: { state: this.#upgrade.state() },
    };
  }

  /**
   * Everything the Prometheus scrape shows, gathered in one synchronous call:
   * separate RPC calls could straddle a clock tick, and the scrape must agree
   * with the JSON endpoints at one instant.
   */
  scrape(): ScrapeState {
    const licence = this.licensing().status();
    return {
      ...this.#dataPlane.scrape(),
      softwareVersion: this.#upgrade.softwareVersion(),
      controlPlaneUptimeSeconds: Math.floor((Date.now() - this.#startedMs) / 1000),
      bgp: this.#routing.bgpSummary(),
      igp: this.#routing.igp(),
      ipsec: this.#ipsec.status(),
      gre: this.#gre.status().circuits,
      licenceStatus: { state: licence.state, daysRemaining: licence.daysRemaining },
      upgradeState: this.#upgrade.state(),
      syslogDropped: this.#syslog.dropped(),
    };
  }

  /** Applies one scenario action: the data plane's, or `reset-bgp`, `upgrade`, `load-lease` (scenario-runner.ts). */
  scenario(raw: unknown, actor: string) {
    return applyScenarioAction(this.#scenarioStores(), raw, actor);
  }

  /** Runs a scenario file's timeline (scenario-runner.ts), its upgrades with the signed `packages` given. */
  runScenario(raw: unknown, actor: string, packages?: ScenarioPackages) {
    return runScenarioFile(this.#scenarioStores(), raw, actor, packages);
  }

  #scenarioStores(): ScenarioStores {
    return { dataPlane: this.#dataPlane, routing: this.#routing, upgrade: this.#upgrade, licensing: this.licensing() };
  }

  /** The interface table, with the GRE tunnels' live state, at one instant. */
  interfaceTable() {
    const { interfaces, asOfMs } = this.#dataPlane.interfaceTable();
    return { interfaces, tunnels: this.#gre.status().circuits, asOfUtc: new Date(asOfMs).toISOString() };
  }
}
