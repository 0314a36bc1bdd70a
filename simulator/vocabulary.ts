/**
 * The enumerations and constants the wire contract (src/schemas/) shares
 * with the model. A leaf: it imports nothing, so the contract can take these
 * at run time without loading the simulator, and the simulator can take the
 * contract's types without a circle.
 */

/** Syslog severity names (RFC 5424 §6.2.1), most severe first. */
export const SEVERITIES = ["emergency", "alert", "critical", "error", "warning", "notice", "info", "debug"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Entries the log ring retains (simulator/logs.ts). */
export const LOG_CAPACITY = 10_000;

/**
 * The catalogue of log messages the model emits: each `msgId`, its default
 * syslog severity and the keys of its `fields`. The spec leaves the catalogue
 * open ("Full catalog of msgId values and their fields keys: not shown"), so
 * this is the one place that defines it; `appendExternal` accepts other
 * ids for events from outside the model (logins, tokens).
 */
export interface LogCatalogueEntry {
  readonly severity: Severity;
  readonly fields: readonly string[];
  readonly meaning: string;
}

/** Every model msgId with its severity and field keys. */
export const LOG_CATALOGUE = {
  "session.up": {
    severity: "info",
    fields: ["sessionId", "username", "encap", "ipv4", "ipv6", "vrf", "portId", "aaa"],
    meaning: "a session came up (sampled: at most logging.sessionEventsPerStep per 10 s sub-step)",
  },
  "session.down": {
    severity: "info",
    fields: ["sessionId", "username", "encap", "cause", "uptimeSeconds"],
    meaning:
      "a session went down; cause is line-down, cpe-reboot or cpe-power-off (a PPP session whose CPE stopped " +
      "answering LCP echo), cpe-firmware-upgrade (the CPE closed it to reboot), session-timeout (a forced " +
      ("reconnect), lease-expired (an IPoE client gone past its lease), admin-reset, " +
        "admin-reboot (drained for a software upgrade), scenario, reseed, " +
        "local-subscriber-removed, local-subscriber-changed, static-address-claimed, " +
        "pool-reconfigured or l2tp-peer-unreachable (sampled like session.up; " +
        "local-subscriber-removed, local-subscriber-changed and static-address-claimed " +
        "always logged; pool-reconfigured counted in pool.reconfigured)"),
  },
  "session.setup-failed": {
    severity: "warning",
    fields: ["username", "encap", "reason"],
    meaning: "a setup attempt failed (sampled like session.up)",
  },
  "session.activity": {
    severity: "info",
    fields: ["intervalSeconds", "up", "down", "failed", "unloggedUp", "unloggedDown", "unloggedFailed"],
    meaning: "aggregate of one sub-step whose session events exceeded the sampling budget",
  },
  "aaa.local.table": {
    severity: "notice",
    fields: ["installed", "added", "changed", "removed", "disconnected"],
    meaning:
      "the local subscriber table was installed or changed (configuration hot-apply); " +
      "disconnected counts the sessions it ended",
  },
  "aaa.reject": {
    severity: "warning",
    fields: ["username", "server", "reason"],
    meaning: "authentication refused: access-reject, timeout (every attempt lost) or no-live-server",
  },
  "radius.server.dead": {
    severity: "error",
    fields: ["server", "consecutiveFailures", "reason"],
    meaning:
      "a RADIUS server was marked dead after consecutive failures; reason is the last one's: timeout (no answer), " +
      "and for a real server connect-failed, closed or secret-mismatch (GET /radius/servers lastFailureReason)",
  },
  "radius.server.alive": {
    severity: "notice",
    fields: ["server", "deadSeconds", "reason"],
    meaning: "a dead RADIUS server was revived (dead time elapsed, scenario, or a real server answered again)",
  },
  "pool.exhausted": {
    severity: "warning",
    fields: ["pool", "family", "vrf", "allocationFailures"],
    meaning: "an allocation was refused because the pool had no free block (at most once per pool per minute)",
  },
  "pool.reconfigured": {
    severity: "notice",
    fields: ["pool", "change", "size", "subnets", "disconnected"],
    meaning:
      "an address pool was added, changed or removed by a configuration hot-apply; " +
      "disconnected counts the dynamic sessions that lost a block (their subnet or " +
      "pool removed, an exclude added, the pool's VRF or delegation length changed)",
  },
  "radius.servers": {
    severity: "notice",
    fields: ["servers", "added", "removed", "changed"],
    meaning:
      "the RADIUS server list was changed by a configuration hot-apply (counts of " +
      "servers now configured, added, removed and reweighted)",
  },
  "pool.decline": {
    severity: "notice",
    fields: ["pool", "prefix", "quarantineSeconds"],
    meaning: "a DHCP client declined an offered address; the block is quarantined for one hour",
  },
  "cgn.binding-refused": {
    severity: "warning",
    fields: ["group", "reason"],
    meaning:
      "a CGN binding could not be created (max-bindings, no-free-chunk, setup-rate; at most once per group per minute)",
  },
  "cgn.identify": {
    severity: "notice",
    fields: ["bindingIndex", "group", "insideVrf", "insideIp", "publicIp", "portBlock", "subscriberId"],
    meaning: "compliance Identify event, one per port block of an identified binding",
  },
  "capture.start": {
    severity: "notice",
    fields: ["sessionId", "destinationIp", "maxPackets", "maxDurationSeconds"],
    meaning: "a packet capture began mirroring a session",
  },
  "capture.stop": {
    severity: "notice",
    fields: ["sessionId", "reason", "packets", "durationSeconds"],
    meaning: "a capture ended: operator, max-packets, max-duration or session-down",
  },
  "alarm.raise": {
    severity: "warning",
    fields: ["id", "instance", "severity", "text"],
    meaning:
      "an alarm was raised (entry severity follows the alarm's: critical → critical, " +
      "major → error, minor and warning → warning)",
  },
  "alarm.clear": {
    severity: "notice",
    fields: ["id", "instance", "manual"],
    meaning: "an alarm was cleared, by its condition or by an operator",
  },
  "bgp.neighbor.state": {
    severity: "notice",
    fields: ["peer", "from", "to"],
    meaning: "a BGP session changed state (sampled every 10 s step); warning when an Established session went down",
  },
  "igp.adjacency.state": {
    severity: "notice",
    fields: ["adjacency", "from", "to"],
    meaning:
      "an IGP adjacency (`<interface> <neighbor router id>`) changed state (sampled " +
      "every 10 s step); warning when a Full/Up one went down",
  },
  "ipsec.peer.state": {
    severity: "notice",
    fields: ["peer", "from", "to"],
    meaning:
      "an IPsec connection's IKE SA changed state (DOWN, CONNECTING, ESTABLISHED; " +
      "DISABLED when IPsec is switched off; sampled every 10 s step); warning when an " +
      "ESTABLISHED one was lost",
  },
  "gre.circuit.state": {
    severity: "notice",
    fields: ["circuit", "from", "to"],
    meaning:
      "a GRE circuit's tunnel changed state (provisioning, up, down; sampled every 10 " +
      "s step); warning when it went down",
  },
  "alarm.sink.delivered": {
    severity: "info",
    fields: ["sink", "kind", "notification", "alarmId", "status", "attempts"],
    meaning:
      "a sink accepted an alert notification: a webhook answered 2xx (`status`), a mail server accepted the message " +
      "or an MQTT broker acknowledged the PUBLISH; " +
      "`attempts` it took (more than 1 after an outage); `notification` is raised, cleared or test",
  },
  "alarm.sink.retrying": {
    severity: "warning",
    fields: ["sink", "kind", "notification", "alarmId", "reason", "queued"],
    meaning:
      "a sink's receiver failed a delivery (`reason`: not delivered: no connection, no answer in time, a webhook's " +
      "408, 429 or 5xx); the notification and the `queued` ones behind it " +
      "are retried in order, 1 s then doubling to 30 s apart, for up to 30 minutes. Logged once per outage: the " +
      "next `alarm.sink.delivered` of the sink ends it",
  },
  "alarm.sink.failed": {
    severity: "warning",
    fields: ["sink", "kind", "notification", "alarmId", "reason", "attempts"],
    meaning:
      "a sink refused a notification for good, which is dropped (`reason`: not delivered: a webhook's other 4xx or " +
      "3xx, an SMTP 5xx reply, a refused credential; " +
      "destination not allowed: the outbound policy refused the URL)",
  },
  "alarm.notifications.lost": {
    severity: "warning",
    fields: ["sink", "kind", "lost"],
    meaning:
      "a sink delivers again after `lost` notifications were dropped unseen (its queue full, or 30 minutes old); " +
      "logged once, after the first delivery that reached the receiver",
  },
  "syslog.entries.lost": {
    severity: "warning",
    fields: ["destination", "lost"],
    meaning:
      "shipping to a syslog destination (logging.syslog) works again after `lost` " +
      "entries found its queue full and were dropped; logged once, at the first write " +
      "that reaches the receiver",
  },
  "scenario.action": {
    severity: "notice",
    fields: ["action", "detail"],
    meaning: "a scenario action was applied (fault injection for CI pipelines)",
  },
  "l2tp.tunnel.up": {
    severity: "notice",
    fields: ["direction", "localTunnelId", "peerTunnelId", "peerIp", "peerHostname", "realm"],
    meaning:
      "an L2TP tunnel was opened for its first session (upstream to an LNS, or " +
      "downstream from a LAC; SCCRQ/SCCRP/SCCCN), or a pending handshake completed " +
      "once its peer answered",
  },
  "l2tp.tunnel.down": {
    severity: "notice",
    fields: ["direction", "localTunnelId", "peerIp", "reason", "uptimeSeconds"],
    meaning:
      "an L2TP tunnel was closed (StopCCN); reason idle-timeout (no session for l2tp.idleTimeoutSeconds), " +
      "hello-timeout (its Hello went unanswered: logged at warning, with its sessions) or no-response (the peer " +
      "never answered the handshake's SCCRQ within 31 s: warning)",
  },
  "licence.state": {
    severity: "notice",
    fields: ["from", "to", "mode", "licenceId", "expiresAtUtc"],
    meaning:
      "the licence state changed (Dev, Licensed, Grace, Lapsed), by activation, a " +
      "lease, a renewal or the clock; warning when it enters Grace or Lapsed",
  },
  "upgrade.started": {
    severity: "notice",
    fields: ["packageId", "version", "drain", "rebootUtc", "upUtc"],
    meaning:
      "a software upgrade was accepted: the image is being installed; the appliance " +
      "reboots at rebootUtc and forwards again at upUtc",
  },
  "upgrade.draining": {
    severity: "warning",
    fields: ["packageId", "version", "sessions", "drainSeconds"],
    meaning:
      "the image is installed and the graceful drain began: no new sessions are " +
      "admitted and the live ones are ended evenly over drainSeconds",
  },
  "upgrade.drain": {
    severity: "info",
    fields: ["packageId", "ended", "remaining", "refused"],
    meaning: "one 10 s step of a drain: sessions ended (cause admin-reboot), sessions still up, setup attempts refused",
  },
  "upgrade.rebooting": {
    severity: "warning",
    fields: ["packageId", "version", "sessionsDropped", "upUtc"],
    meaning:
      "the appliance rebooted into the new image; sessionsDropped were still up and " +
      "dropped without notice; the data plane forwards again at upUtc",
  },
  "upgrade.complete": {
    severity: "notice",
    fields: ["packageId", "version", "fromVersion", "downSeconds"],
    meaning: "the appliance is up on the new software version; subscribers reconnect",
  },
} as const satisfies Record<string, LogCatalogueEntry>;

/**
 * Events the appliance logs from outside the model, into the same ring: the
 * account and token events of the identity store, and the audit trail of
 * operator actions (each names the acting principal as `actor` or `by`).
 */
export const EXTERNAL_LOG_CATALOGUE = {
  "auth.login": {
    severity: "notice",
    fields: ["username", "sourceIp", "via"],
    meaning: "an account logged in (via `login`, `enrol` or `oidc`; an OIDC identity is named `<user>@<provider>`)",
  },
  "auth.oidc.refused": {
    severity: "warning",
    fields: ["provider", "reason", "sourceIp"],
    meaning: "an OIDC sign-in was refused: the provider's error, a bad state or ID token, or no matching role mapping",
  },
  "auth.login.failed": {
    severity: "warning",
    fields: ["username", "sourceIp", "factor", "failures"],
    meaning:
      "a login failed at the password, the TOTP code, the passkey or the enrolment " +
      "(`factor`); an unknown account is named `unknown:` and an HMAC prefix, never as typed",
  },
  "auth.lockout": {
    severity: "warning",
    fields: ["username", "sourceIp", "seconds"],
    meaning: "an account and source-IP pair was locked out, or (`sourceIp` `*`) the account everywhere, backing off",
  },
  "auth.logout": { severity: "info", fields: ["username"], meaning: "a browser session ended at logout" },
  "auth.totp.enrolled": {
    severity: "notice",
    fields: ["username"],
    meaning: "an account enrolled its TOTP authenticator",
  },
  "auth.totp.reset": {
    severity: "notice",
    fields: ["username", "by"],
    meaning: "an account's TOTP enrolment was reset",
  },
  "auth.token.created": {
    severity: "notice",
    fields: ["tokenId", "name", "role", "by"],
    meaning: "an API token was created",
  },
  "auth.session.ended": {
    severity: "notice",
    fields: ["session", "username", "by"],
    meaning: "an administrator ended a browser session",
  },
  "auth.passkey.registered": {
    severity: "notice",
    fields: ["username", "passkey", "name"],
    meaning: "an account registered a passkey",
  },
  "auth.passkey.removed": {
    severity: "notice",
    fields: ["username", "passkey", "by"],
    meaning: "a passkey was removed",
  },
  "auth.token.revoked": {
    severity: "notice",
    fields: ["tokenId", "name", "by"],
    meaning: "an API token was revoked (alone, or with its creator's deletion or demotion)",
  },
  "auth.user.created": { severity: "notice", fields: ["username", "role", "by"], meaning: "an account was created" },
  "auth.user.updated": { severity: "notice", fields: ["username", "role", "by"], meaning: "an account's role changed" },
  "auth.user.deleted": { severity: "notice", fields: ["username", "by"], meaning: "an account was deleted" },
  "auth.password.changed": { severity: "notice", fields: ["username", "by"], meaning: "an account's password was set" },
  "auth.unlocked": { severity: "notice", fields: ["username", "by"], meaning: "an account's lockouts were lifted" },
  "audit.session.disconnect": {
    severity: "notice",
    fields: ["sessionId", "username", "actor"],
    meaning: "an operator disconnected a session",
  },
  "audit.capture.start": {
    severity: "notice",
    fields: ["sessionId", "destinationIp", "maxPackets", "maxDurationSeconds", "actor"],
    meaning: "an operator started a packet capture",
  },
  "audit.capture.stop": {
    severity: "notice",
    fields: ["sessionId", "actor"],
    meaning: "an operator stopped a packet capture",
  },
  "audit.cgn.identify": {
    severity: "notice",
    fields: ["bindingIndex", "subscriberId", "actor"],
    meaning: "a super-user identified an auto-learned CGN binding",
  },
  "audit.alarm.clear": {
    severity: "notice",
    fields: ["id", "instance", "cleared", "actor"],
    meaning: "an operator cleared an alarm",
  },
  "audit.alarm.test": {
    severity: "notice",
    fields: ["severity", "actor"],
    meaning: "a synthetic alert was sent through the fan-out",
  },
  "audit.diagnostics.inject": {
    severity: "notice",
    fields: ["port", "source", "destination", "frameBytes", "emitted", "egressPortId", "lastStage", "verdict", "actor"],
    meaning:
      "an operator asked the data plane to transmit a diagnostics frame (`emit: " +
      "true`); emitted is false when a stage dropped it first (lastStage and verdict " +
      "say where and why); egressPortId -1 is the core uplink or an L2TP tunnel",
  },
  "audit.upgrade.stage": {
    severity: "notice",
    fields: ["packageId", "version", "size", "sha256", "replaced", "actor"],
    meaning: "a software package was staged (replaced: the id of the package it replaced, or null)",
  },
  "audit.upgrade.rejected": {
    severity: "warning",
    fields: ["size", "reason", "actor"],
    meaning:
      "a package offered for staging was refused (422): not a bngfleet package, a bad " +
      "manifest, or a payload that does not match its sha256",
  },
  "audit.upgrade.apply": {
    severity: "notice",
    fields: ["packageId", "version", "fromVersion", "drain", "actor"],
    meaning: "an operator asked for the staged package to be applied",
  },
  "upgrade.failed": {
    severity: "error",
    fields: ["packageId", "version", "reason"],
    meaning:
      "a software upgrade failed before the reboot (the appliance restarted " +
      "meanwhile); the running version is unchanged and the package stays staged",
  },
  "audit.scenario": {
    severity: "notice",
    fields: ["action", "actor"],
    meaning: "a scenario action was requested through the control surface",
  },
  "config.commit": {
    severity: "notice",
    fields: ["version", "operation", "actor", "comment", "changes", "restartRequired"],
    meaning:
      "a configuration change was committed (operation: config, vrf, source-vrf-rule, " +
      "gre-listener, gre-circuit, cgn-group, cgn-settings, local-subscriber, rollback, " +
      "certificate or acme); changes counts the changed paths",
  },
  "cgn.config.invalid": {
    severity: "error",
    fields: ["issues"],
    meaning: "at start, the CGN allocators could not be built from the configured CGN section; CGN runs without groups",
  },
  "config.apply-failed": {
    severity: "error",
    fields: ["key", "issues"],
    meaning:
      "a committed hot-applied section could not be installed in the running " +
      "simulation (validation should have refused it); the running state keeps what it had",
  },
  "audit.licence.activate": {
    severity: "notice",
    fields: ["licenceId", "instanceId", "bandName", "bandMax", "expiresAtUtc", "actor"],
    meaning: "a super-user activated a licence (online mode)",
  },
  "audit.licence.load-offline": {
    severity: "notice",
    fields: ["licenceId", "instanceId", "bandName", "bandMax", "expiresAtUtc", "actor"],
    meaning: "a super-user loaded an offline lease (offline mode)",
  },
  "audit.licence.renew": {
    severity: "notice",
    fields: ["licenceId", "expiresAtUtc", "actor"],
    meaning: "a super-user renewed the online licence",
  },
  "audit.licence.refused": {
    severity: "warning",
    fields: ["operation", "reason", "actor"],
    meaning: "an activation, lease or renewal was refused (the token, signature, binding or expiry did not hold)",
  },
  "config.frozen": {
    severity: "warning",
    fields: ["operation", "actor"],
    meaning: "a configuration commit was refused because the licence has lapsed (409)",
  },
  "config.rejected": {
    severity: "warning",
    fields: ["operation", "actor", "errors"],
    meaning: "a configuration change was refused by validation (422); errors counts the rejected fields",
  },
  "acme.order.started": {
    severity: "info",
    fields: ["directoryUrl", "names"],
    meaning:
      "an ACME attempt began (acme.enabled, no current ACME certificate for the names, " +
      "or renewal time reached); names comma-separated",
  },
  "acme.account.registered": {
    severity: "info",
    fields: ["directoryUrl", "accountUrl"],
    meaning: "a new ACME account was registered with a fresh key (first use of this directory)",
  },
  "acme.account.dropped": {
    severity: "info",
    fields: ["directoryUrl"],
    meaning:
      "acme.directoryUrl changed: the account (and its key) registered with this previous directory was forgotten",
  },
  "acme.challenge.ready": {
    severity: "info",
    fields: ["name", "token"],
    meaning: "the HTTP-01 answer for a name is published, and the CA is asked to validate it",
  },
  "acme.challenge.served": {
    severity: "info",
    fields: ["token"],
    meaning: "the listener answered GET /.well-known/acme-challenge/{token} for a pending challenge",
  },
  "acme.certificate.issued": {
    severity: "notice",
    fields: ["names", "serialNumber", "issuer", "notAfter", "renewal", "version"],
    meaning:
      "the CA issued a certificate, installed as webUi.certificate (configuration " +
      "version `version`, operation acme) and served without a restart; renewal is " +
      "when it will be renewed",
  },
  "acme.order.failed": {
    severity: "error",
    fields: ["directoryUrl", "error", "failures", "nextAttempt"],
    meaning:
      "an ACME attempt failed; retried at nextAttempt (1 min, doubling up to a day) or at the next acme.* commit",
  },
} as const satisfies Record<string, LogCatalogueEntry>;

/** Alarm severities, most severe first. */
export const ALARM_SEVERITIES = ["critical", "major", "minor", "warning"] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** `raised` and `cleared` follow the alarm book; `test` is POST /alarms/test. */
export const NOTIFICATION_KINDS = ["raised", "cleared", "test"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The alarm catalogue: id → severity and what raises and clears it. */
export const ALARM_CATALOGUE = {
  "pool.utilisation.high": {
    severity: "major",
    instance: "pool name",
    raise: "pool used ≥ alarms.poolHighPercent of size",
    clear: "pool used < alarms.poolClearPercent of size",
  },
  "cgn.pool.high": {
    severity: "major",
    instance: "CGN group name",
    raise: "used chunks ≥ alarms.cgnHighPercent of total chunks",
    clear: "used chunks < alarms.cgnClearPercent of total chunks",
  },
  "radius.server.dead": {
    severity: "major",
    instance: "host:port",
    raise: "the server is marked dead",
    clear: "the server answers again (a revival by dead time alone is not one: the outage goes on until it answers)",
  },
  "radius.all-dead": {
    severity: "critical",
    instance: null,
    raise: "every configured RADIUS server is dead",
    clear: "at least one server answers again",
  },
  "radius.accounting.failed": {
    severity: "major",
    instance: null,
    raise: "an accounting record went unanswered by every server it was sent to: it waits in the queue (billing lags)",
    clear: "the queue is empty again (every record answered, or dropped from a full queue)",
  },
  "sessions.capacity.high": {
    severity: "minor",
    instance: null,
    raise: "live sessions ≥ alarms.capacityHighPercent of population.licensedSessions",
    clear: "live sessions < alarms.capacityClearPercent of population.licensedSessions",
  },
  "sessions.loss.high": {
    severity: "major",
    instance: null,
    raise: "sessions down in 5 min ≥ alarms.sessionLossPercent of those up before, and ≥ alarms.sessionLossMin",
    clear: "fewer than half as many in the last 5 min",
  },
  "bgp.neighbor.down": {
    severity: "major",
    instance: "neighbor address (`<address> vrf <name>` for a GRE circuit's eBGP session outside the global table)",
    raise: "an Established BGP session goes down (a flap, the hold timer, a reset, a GRE circuit's eBGP session)",
    clear: "the session is Established again, or the neighbor is shut down or deleted",
  },
  "gre.circuit.down": {
    severity: "major",
    instance: "circuit id",
    raise: "a GRE circuit's tunnel that was up goes down",
    clear: "the tunnel is up again, is being re-provisioned, or the circuit is deleted",
  },
  "igp.adjacency.down": {
    severity: "major",
    instance: "<interface> <neighbor router id>",
    raise: "a Full (OSPF) or Up (IS-IS) adjacency goes down",
    clear: "it is back, or the interface is removed from the IGP",
  },
  "l2tp.peer.unreachable": {
    severity: "major",
    instance: "peer host name",
    raise:
      "a tunnel with an L2TP peer (an LNS this appliance forwards to, or a LAC it terminates) failed: its " +
      "Hello or " +
      "SCCRQ went unanswered; the peer is locked out for l2tp.lockoutSeconds",
    clear: "a tunnel with the peer is established again",
  },
  "ipsec.peer.down": {
    severity: "minor",
    instance: "connection name",
    raise: "an ESTABLISHED IKE SA is lost",
    clear: "the SA is ESTABLISHED again, IPsec is disabled, or the connection is deleted",
  },
  "daemon.down": {
    severity: "critical",
    instance: "daemon (routing, ipsec)",
    raise: "a control-plane daemon does not answer (its endpoints read reachable false)",
    clear: "it answers again",
  },
  "licence.band.exceeded": {
    severity: "major",
    instance: null,
    raise: "live sessions > the licence's bandMax (sessions are still admitted)",
    clear: "live sessions ≤ bandMax",
  },
  "licence.grace": {
    severity: "major",
    instance: null,
    raise: "the licence passed expiresAtUtc and is in its grace period",
    clear: "the licence is renewed or replaced, or lapses",
  },
  "licence.lapsed": {
    severity: "critical",
    instance: null,
    raise: "the grace period ended: configuration commits are frozen",
    clear: "a licence is activated or an offline lease loaded",
  },
} as const satisfies Record<string, { severity: AlarmSeverity; instance: string | null; raise: string; clear: string }>;

/** The IGP the appliance runs, if any. */
export const IGP_PROTOCOLS = ["none", "ospf", "isis"] as const;
export type IgpProtocol = (typeof IGP_PROTOCOLS)[number];

/** BGP address families, as the spec names them. */
export const AFI_SAFIS = ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn", "ipv6Vpn"] as const;
export type AfiSafi = (typeof AFI_SAFIS)[number];

/** Licence states, as GET /licensing and the scrape's `bng_licence_state` name them. */
export const LICENCE_STATES = ["Dev", "Licensed", "Grace", "Lapsed"] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];
/** Licence modes: unlicensed development, online activation, offline lease. */
export const LICENCE_MODES = ["dev", "online", "offline"] as const;
export type LicenceMode = (typeof LICENCE_MODES)[number];

/** An upgrade's phases: writing the image to the standby slot. */
export const INSTALL_SECONDS = 30;
/** A graceful drain ends the live sessions evenly over this window. */
export const DRAIN_SECONDS = 120;
/** From the reboot until the data plane forwards again. */
export const REBOOT_SECONDS = 90;
