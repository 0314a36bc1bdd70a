/**
 * The appliance's ports: the domain half of each operation whose handler
 * runs in the Worker, named as the operation is in the contract
 * (`ports.sessions.disconnect` serves `contract.sessions.disconnect`). A
 * request makes exactly one port call (`Appliance.call`), which authorizes
 * the caller for that operation and then runs it against the core. Ports
 * answer domain values or outcomes (a refusal is data, mapped to a status by
 * the Worker), never HTTP.
 *
 * Every method takes the `Caller` first; the Worker's typed client
 * (src/http/port.ts) leaves it out, as the object supplies it.
 */
import { authorizeOperation } from "../src/auth/authorize.ts";
import { contract } from "../src/schemas/index.ts";
import type { Operation } from "../src/schemas/contract.ts";
import type { Caller, PortCall } from "../src/schemas/operation.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { PingRequest as PingBody } from "../src/schemas/diagnostics.ts";
import type { z } from "zod";
import { actorName } from "../src/schemas/principal.ts";
import { commitMeta } from "../src/schemas/commit.ts";
import type { ConfigOperation } from "../src/schemas/commit.ts";
import { vrfList } from "../src/schemas/vrfs.ts";
import { sourceVrfRuleList } from "../src/schemas/source-vrf-rules.ts";
import { greCircuitList, greListenerList } from "../src/schemas/gre-circuits.ts";
import type { EditValue } from "../src/config/edit.ts";
import { inspectCertificate } from "../src/trust/x509.ts";
import { IGP_INTERFACES_LIST, NEIGHBORS_LIST, STATIC_ROUTES_LIST } from "../src/config/routing.ts";
import { isExternalIdentity } from "../src/auth/accounts.ts";
import type { Role } from "../src/auth/roles.ts";
import { destinationVerdict } from "../src/config/destinations.ts";
import { LOCAL_LISTS, ipoeLineOf } from "../src/config/local-subscribers.ts";
import type { Kind as LocalKind } from "../src/schemas/local-subscribers.ts";
import type { ConfigStore } from "./config-store.ts";
import type { CommitSummary } from "../src/schemas/commit.ts";
import type { ApplianceCore } from "./appliance.ts";
import { oidcSignInPorts, passkeyPorts } from "./sign-in-ports.ts";
import type { PortTable } from "./port-table.ts";
import type { JsonText } from "../simulator/row-texts.ts";

/** A ping as the API takes it. */
type PingRequest = z.output<typeof PingBody>;

/** The configuration list of accounts (`login.users`), the identity model shared with the appliance CLI. */
const USERS_LIST = "login.users";

/**
 * A large answer as the JSON text the Worker sends (the handler wraps it in `Encoded`): one string across RPC instead
 * of a clone of every object in it.
 */
const encoded = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

/** The actor a caller's change is logged under (ports that change something are never anonymous). */
const actor = (caller: Caller): string => actorName(caller.principal!);

/**
 * Pings from the forwarding plane in a VRF the configuration names (or the global table), sourced from the VRF's own
 * addresses.
 */
async function ping(core: ApplianceCore, request: PingRequest) {
  const wanted = request.vrf ?? "default";
  const item = core
    .config()
    .items("vrfs")
    .find((i) => i.key.toLowerCase() === wanted.toLowerCase());
  if (!item && wanted.toLowerCase() !== "default")
    return refuse("not-found", `no VRF '${wanted}' (configured VRFs and \`default\` only)`);
  const local = item
    ? ["gatewayIp", "gatewayIpv6", "l2tpEndpointIp"]
        .map((k): unknown => item.values[k])
        .filter((v): v is string => typeof v === "string" && v !== "")
    : [];
  const { destination, count, size, dontFragment, timeoutMs } = request;
  return core
    .dataPlane()
    .ping({ destination, vrf: item?.key ?? "default", count, size, dontFragment, timeoutMs, local });
}

/**
 * A keyed list of the configuration as ports: its items with the version they were read at (the Worker's
 * ETag), one item, and commits as the caller (the If-Match it sent is judged in the commit).
 */
function keyedList(core: ApplianceCore, path: string, operation: ConfigOperation) {
  const config = () => core.config();
  const version = () => config().activeVersion().version;
  const read = (key: string) => {
    const found = config().item(path, key);
    return found.ok ? { ...found, version: version() } : found;
  };
  return {
    items: () => ({ items: config().items(path), version: version() }),
    /** One item with the version it was read at (a port of its own as `item`). */
    read,
    item: (_: Caller, key: string) => read(key),
    put:
      (mode: "create" | "replace" | "update" | "upsert") =>
      (caller: Caller, key: string, fields: Record<string, EditValue>, comment: string | null) =>
        config().putItem(path, key, fields, mode, commitMeta(caller, operation, comment)),
    remove: (caller: Caller, key: string, comment: string | null) =>
      config().deleteItem(path, key, commitMeta(caller, operation, comment)),
  };
}

/** The configuration's CGN groups (their rows are built by src/config/cgn.ts, not a KeyedList). */
const CGN_GROUPS = "cgn.groups";

/** The ports over one appliance's core. */
export function portsOf(core: ApplianceCore) {
  const dataPlane = () => core.dataPlane();
  const vrfItems = keyedList(core, vrfList.path, "vrf");
  const ruleItems = keyedList(core, sourceVrfRuleList.path, "source-vrf-rule");
  const circuits = keyedList(core, greCircuitList.path, "gre-circuit");
  const listeners = keyedList(core, greListenerList.path, "gre-listener");
  const cgnGroups = keyedList(core, CGN_GROUPS, "cgn-group");
  const neighbors = keyedList(core, NEIGHBORS_LIST, "bgp-neighbor");
  const accounts = keyedList(core, USERS_LIST, "user");
  const local = {
    ipoe: keyedList(core, LOCAL_LISTS.ipoe, "local-subscriber"),
    pppoe: keyedList(core, LOCAL_LISTS.pppoe, "local-subscriber"),
  };
  // A local subscriber as it is now: its committed item and the data plane's sessions, at the version read.
  const localRecord = (kind: LocalKind, key: string) => {
    const found = local[kind].read(key);
    return found.ok ? { ...found, sessions: dataPlane().localSubscriberSessions() } : found;
  };
  // A commit, then the record it left, in one call.
  const committedRecord = async (kind: LocalKind, key: string, commit: Promise<Outcome<CommitSummary>>) => {
    const summary = await commit;
    if (!summary.ok) return summary;
    const record = localRecord(kind, key);
    return record.ok ? { ...record, ...summary } : record;
  };
  // PUT never creates (and a key that cannot exist is unknown, not invalid); a body field naming the identity must
  // agree with the URL's.
  const replaceLocal =
    (kind: LocalKind, identity: (key: string) => Record<string, string | number> | null) =>
    (
      caller: Caller,
      key: string,
      fields: Record<string, EditValue>,
      given: Record<string, string | number | undefined>,
      comment: string | null,
    ) => {
      const expected = local[kind].read(key).ok ? identity(key) : null;
      if (expected === null) return Promise.resolve(refuse("not-found", `no local ${kind} subscriber '${key}'`));
      for (const [field, value] of Object.entries(expected)) {
        if (given[field] !== undefined && given[field] !== value) {
          return Promise.resolve(
            refuse(
              "invalid",
              `${field} is part of the key (${JSON.stringify(value)} here); to move a ` +
                `subscriber, delete it and create it anew`,
              { pointer: `#/${field}` },
            ),
          );
        }
      }
      return committedRecord(kind, key, local[kind].put("replace")(caller, key, fields, comment));
    };
  const identity = () => core.identity();
  // The caller's own browser session, by its hash; null for a token.
  const ownSession = (caller: Caller) =>
    caller.principal?.via === "session" && caller.credential ? caller.credential.sha256 : null;
  const config = () => core.config();
  const version = () => config().activeVersion().version;
  return {
    config: {
      values: () => ({ document: config().values(), version: version() }),
      apply: (caller: Caller, change: Parameters<ConfigStore["apply"]>[0]) =>
        config().apply(change, { actor: actor(caller), ifMatch: caller.ifMatch }),
      validate: (_: Caller, change: Parameters<ConfigStore["validate"]>[0]) => config().validate(change),
      history: (_: Caller, offset: number, limit: number) => config().history(offset, limit),
      rollback: (caller: Caller, to: number, comment: string | null | undefined) =>
        config().rollback(to, { actor: actor(caller), comment, ifMatch: caller.ifMatch }),
      // The commit, then what the answer reports beside it (the hostname the certificate should name, ACME's view of
      // it), in one call.
      installCertificate: (
        caller: Caller,
        pair: { certificatePem: string; privateKeyPem: string; sha256Fingerprint: string },
        comment: string | null | undefined,
      ) => {
        const installed = config().installCertificate(pair.certificatePem, pair.privateKeyPem, {
          actor: actor(caller),
          comment,
          ifMatch: caller.ifMatch,
        });
        if (!installed.ok) return installed;
        return {
          ...installed,
          hostname: config().values().fields["webUi.hostname"] ?? null,
          acme: core.acme().status(pair.sha256Fingerprint),
        };
      },
      certificate: async () => {
        const pem = config().certificatePem();
        const details = pem === null ? null : await inspectCertificate(pem);
        return { details, acme: core.acme().status(details?.sha256Fingerprint ?? null) };
      },
    },
    cgnConfig: {
      // The configured groups beside the running ones (allocators are built at start-up), read at one instant.
      groups: () => ({ ...cgnGroups.items(), running: dataPlane().runningCgn() }),
      group: (caller: Caller, name: string) => {
        const found = cgnGroups.item(caller, name);
        return found.ok ? { ...found, running: dataPlane().runningCgn() } : found;
      },
      putGroup: cgnGroups.put("upsert"),
      deleteGroup: cgnGroups.remove,
      settings: () => ({
        maxBindings: Number(config().field("cgn.maxBindings")),
        maxFlows: Number(config().field("cgn.maxFlows")),
        running: dataPlane().runningCgn(),
        version: version(),
      }),
      putSettings: (
        caller: Caller,
        fields: { maxBindings: number; maxFlows: number },
        comment: string | null | undefined,
      ) =>
        config().setFields(
          { "cgn.maxBindings": String(fields.maxBindings), "cgn.maxFlows": String(fields.maxFlows) },
          commitMeta(caller, "cgn-settings", comment),
        ),
    },
    system: {
      health: () => core.health(),
      status: () => core.systemStatus(),
      inventory: () => dataPlane().inventory(),
      interfaces: () => core.interfaceTable(),
    },
    sessions: {
      list: (_: Caller, query: Parameters<ReturnType<typeof dataPlane>["model"]["sessions"]["listText"]>[0]) =>
        dataPlane().model.sessions.listText(query),
      summary: () => dataPlane().model.sessions.summary(),
      get: (_: Caller, id: number) => dataPlane().sessionDetail(id),
      rates: (_: Caller, id: number) => dataPlane().sessionRates(id),
      disconnect: (caller: Caller, id: number) => dataPlane().disconnect(id, actor(caller)),
    },
    captures: {
      list: () => dataPlane().model.captures.list(),
      start: (
        caller: Caller,
        id: number,
        to: { destinationIp: string; maxPackets: number | null; maxDurationSeconds: number | null },
      ) => dataPlane().startCapture(id, to.destinationIp, to.maxPackets, to.maxDurationSeconds, actor(caller)),
      stop: (caller: Caller, id: number) => dataPlane().stopCapture(id, actor(caller)),
    },
    alarms: {
      list: () => dataPlane().model.alarms.list(),
      clear: (caller: Caller, id: string, instance: string | null) =>
        dataPlane().clearAlarm(id, instance, actor(caller)),
      test: (caller: Caller, severity: Parameters<ReturnType<typeof dataPlane>["alertTest"]>[0], text: string | null) =>
        dataPlane().alertTest(severity, text, actor(caller)),
      sinks: () => ({ sinks: dataPlane().alertSinkStates() }),
    },
    addressPools: {
      list: () => dataPlane().model.pools.list(),
      allocations: (_: Caller, name: string, offset: number, limit: number) =>
        dataPlane().poolAllocations(name, offset, limit),
    },
    l2tp: {
      tunnels: () => dataPlane().model.l2tp.tunnels(),
      tunnel: (_: Caller, id: number) => dataPlane().l2tpTunnel(id),
    },
    cgn: {
      // A page of bindings crosses as the JSON text it is sent as: a string crosses RPC far cheaper than the objects.
      bindings: (_: Caller, query: Parameters<ReturnType<typeof dataPlane>["model"]["cgn"]["bindings"]>[0]) =>
        encoded(dataPlane().model.cgn.bindings(query)),
      status: () => dataPlane().cgnStatus(),
      identify: (caller: Caller, bindingIndex: number, subscriberId: string) =>
        dataPlane().identifyBinding(bindingIndex, subscriberId, actor(caller)),
    },
    radius: {
      servers: () => dataPlane().model.radius.status(),
    },
    ipsec: {
      status: () => core.ipsec().status(),
      peer: (_: Caller, name: string) => core.ipsec().peer(name),
    },
    routing: {
      bgpSummary: () => core.routing().bgpSummary(),
      bgpNeighbor: (_: Caller, address: string, vrf: string | null) => core.routing().bgpNeighbor(address, vrf),
      neighborRoutes: (
        _: Caller,
        address: string,
        query: Parameters<ReturnType<ApplianceCore["routing"]>["neighborRoutes"]>[1],
      ) => core.routing().neighborRoutes(address, query),
      igp: () => core.routing().igp(),
      vrfRoutes: (_: Caller, vrf: string, query: Parameters<ReturnType<ApplianceCore["routing"]>["vrfRoutes"]>[1]) => {
        const routes = core.routing().vrfRoutes(vrf, query);
        return routes.ok ? { ok: true as const, page: encoded(routes.page) } : routes;
      },
    },
    metrics: {
      history: (_: Caller, range: Parameters<ReturnType<typeof dataPlane>["model"]["metrics"]["history"]>[0]) =>
        dataPlane().model.metrics.history(range),
      scrape: () => core.scrape(),
    },
    diagnostics: {
      inject: (caller: Caller, frame: Parameters<ReturnType<typeof dataPlane>["inject"]>[0]) =>
        dataPlane().inject(frame, actor(caller)),
      ping: (_: Caller, request: PingRequest) => ping(core, request),
    },
    licensing: {
      status: () => core.licensing().status(),
      activate: (caller: Caller, token: string, licenceId: string | null) =>
        core.licensing().activate(token, licenceId, actor(caller)),
      loadOffline: (caller: Caller, lease: Parameters<ReturnType<ApplianceCore["licensing"]>["loadOffline"]>[0]) =>
        core.licensing().loadOffline(lease, actor(caller)),
      renew: (caller: Caller) => core.licensing().renew(actor(caller)),
      telemetry: () => core.licensing().telemetry(),
    },
    upgrade: {
      status: () => core.upgrade().status(),
      stage: (caller: Caller, bytes: Uint8Array) => core.upgrade().stage(bytes, actor(caller)),
      apply: (caller: Caller, id: string, drain: boolean) => core.upgrade().apply(id, drain, actor(caller)),
    },
    acme: {
      challenge: (_: Caller, token: string) => core.acme().challengeAnswer(token),
    },
    authSession: {
      login: (
        caller: Caller,
        username: string,
        password: string,
        totpCode: string | null,
        passkey: Parameters<ReturnType<ApplianceCore["identity"]>["login"]>[4],
      ) => identity().login(username, password, totpCode, caller.clientIp, passkey),
      enrol: (caller: Caller, enrolmentToken: string, totpCode: string) =>
        identity().enrol(enrolmentToken, totpCode, caller.clientIp),
      logout: (caller: Caller) => {
        const session = ownSession(caller);
        if (session !== null) identity().logout(session);
        return { endedSession: session !== null, username: caller.principal?.username ?? null };
      },
      whoami: (caller: Caller) => caller.principal!,
      password: async (caller: Caller, currentPassword: string, newPassword: string) => {
        const username = caller.principal!.username!;
        if (isExternalIdentity(username))
          return refuse(
            "forbidden",
            "an identity signed in through OIDC has no password here; its provider manages it",
          );
        // Counted like a login: a stolen session cannot guess the current password here faster than at the login.
        const reauthenticated = await identity().reauthenticate(username, { currentPassword }, caller.clientIp);
        if (!reauthenticated.ok) return reauthenticated;
        const changed = await accounts.put("update")(caller, username, { password: newPassword }, null);
        return changed.ok ? { ...changed, username } : changed;
      },
    },
    tokens: {
      create: (caller: Caller, name: string, role: Role, expiresUtc: string | null) =>
        identity().createToken(name, role, expiresUtc, actor(caller)),
      list: () => identity().listTokens(),
      get: (_: Caller, id: string) => identity().getToken(id),
      revoke: (caller: Caller, id: string) => identity().revokeToken(id, actor(caller)),
    },
    browserSessions: {
      list: (caller: Caller) => identity().listSessions(ownSession(caller)),
      end: (caller: Caller, id: string) => identity().endSession(id, actor(caller)),
    },
    users: {
      list: () => ({ users: identity().listUsers(), version: version() }),
      get: (_: Caller, username: string) => {
        const found = identity().getUser(username);
        return found.ok ? { ...found, version: version() } : found;
      },
      create: (caller: Caller, username: string, fields: { role: string; password: string }) =>
        accounts.put("create")(caller, username, fields, null),
      update: async (caller: Caller, username: string, role: Role, revokeTokens: boolean) => {
        const committed = await accounts.put("update")(caller, username, { role }, null);
        if (committed.ok && revokeTokens) identity().revokeTokensOf(username, role, actor(caller));
        return committed;
      },
      // The identity store revokes the account's tokens as the commit removes it (syncAccounts), flag or not.
      remove: (caller: Caller, username: string) => accounts.remove(caller, username, null),
      setPassword: (caller: Caller, username: string, password: string) =>
        accounts.put("update")(caller, username, { password }, null),
      resetTotp: (caller: Caller, username: string) => identity().resetTotp(username, actor(caller)),
      unlock: (caller: Caller, username: string) => identity().unlock(username, actor(caller)),
    },
    localSubscribers: {
      list: () => ({
        ipoe: config().items(LOCAL_LISTS.ipoe),
        pppoe: config().items(LOCAL_LISTS.pppoe),
        sessions: dataPlane().localSubscriberSessions(),
        version: version(),
      }),
      createIpoe: (caller: Caller, key: string, fields: Record<string, EditValue>, comment: string | null) =>
        committedRecord("ipoe", key, local.ipoe.put("create")(caller, key, fields, comment)),
      getIpoe: (_: Caller, key: string) => localRecord("ipoe", key),
      replaceIpoe: replaceLocal("ipoe", (key) => {
        const line = ipoeLineOf(key);
        return line && { port: line[0], sVlan: line[1], vlan: line[2] };
      }),
      removeIpoe: local.ipoe.remove,
      createPppoe: (caller: Caller, key: string, fields: Record<string, EditValue>, comment: string | null) =>
        committedRecord("pppoe", key, local.pppoe.put("create")(caller, key, fields, comment)),
      getPppoe: (_: Caller, key: string) => localRecord("pppoe", key),
      replacePppoe: replaceLocal("pppoe", (key) => ({ username: key })),
      removePppoe: local.pppoe.remove,
      session: (_: Caller, kind: LocalKind, key: string) => dataPlane().localSession(kind, key),
    },
    providers: {
      listOidc: () => core.providers().list(),
      getOidc: (_: Caller, name: string) => core.providers().get(name),
      putOidc: (_: Caller, name: string, provider: Parameters<ReturnType<ApplianceCore["providers"]>["put"]>[1]) => {
        // The outbound policy at the door too (SSRF): a clear 422 now rather than a 502 at the first sign-in.
        const verdict = destinationVerdict(provider.issuer, "oidc", config().outboundAllowlist());
        if (!verdict.ok)
          return refuse("rejected", `issuer: ${verdict.detail}`, {
            errors: [{ in: "body", pointer: "#/issuer", detail: verdict.detail }],
          });
        return core.providers().put(name, provider);
      },
      deleteOidc: (_: Caller, name: string) => core.providers().delete(name),
      getPasskeyPolicy: () => core.providers().passkeyPolicy(),
      putPasskeyPolicy: (
        _: Caller,
        policy: Parameters<ReturnType<ApplianceCore["providers"]>["setPasskeyPolicy"]>[0],
      ) => core.providers().setPasskeyPolicy(policy),
    },
    routingConfig: {
      // The routing section as configured, read at one instant (the effective router id is derived from it in the
      // Worker).
      get: () => ({
        neighbors: config().items(NEIGHBORS_LIST),
        staticRoutes: config().items(STATIC_ROUTES_LIST),
        interfaces: config().items(IGP_INTERFACES_LIST),
        localAs: config().field("bgp.localAs"),
        routerId: config().field("routing.routerId"),
        protocol: config().field("igp.protocol"),
        version: version(),
      }),
      update: (
        caller: Caller,
        fields: Record<string, EditValue>,
        lists: Record<string, { key: string; fields: Record<string, EditValue> }[]>,
        comment: string | null | undefined,
      ) => config().replaceSection(fields, lists, commitMeta(caller, "routing", comment)),
      createNeighbor: neighbors.put("create"),
      replaceNeighbor: neighbors.put("replace"),
      removeNeighbor: neighbors.remove,
      replaceStaticRoutes: (
        caller: Caller,
        routes: { key: string; fields: Record<string, EditValue> }[],
        comment: string | null | undefined,
      ) => config().replaceSection({}, { [STATIC_ROUTES_LIST]: routes }, commitMeta(caller, "static-routes", comment)),
    },
    vrfs: {
      // The sessions each VRF holds, read at the same instant as the list.
      list: () => ({ ...vrfItems.items(), byVrf: dataPlane().model.sessions.summary().byVrf }),
      create: vrfItems.put("create"),
      replace: vrfItems.put("replace"),
      remove: vrfItems.remove,
    },
    sourceVrfRules: {
      list: ruleItems.items,
      get: ruleItems.item,
      create: ruleItems.put("create"),
      replace: ruleItems.put("replace"),
      remove: ruleItems.remove,
    },
    greCircuits: {
      list: circuits.items,
      listeners: () => ({ listeners: listeners.items().items, ...circuits.items() }),
      status: (_: Caller, vrf: string | undefined) => core.gre().status(vrf),
      putListener: listeners.put("upsert"),
      removeListener: listeners.remove,
      create: circuits.put("create"),
      replace: circuits.put("replace"),
      remove: circuits.remove,
    },
    passkeys: passkeyPorts(core),
    oidcSignIn: oidcSignInPorts(core),
    logs: {
      tail: (_: Caller, source: "ring" | "audit", count: number, sinceSeq: number | null) =>
        source === "audit"
          ? core.auditTail(count, sinceSeq)
          : dataPlane().model.logs.tail({ count: count, sinceSeq: sinceSeq }),
      // The one port that answers a stream (docs/architecture.md): the object produces it for as long as the client
      // reads,
      // and ends it when the credential that opened it stops authenticating.
      stream: (caller: Caller, resumeAfter: number | null) =>
        caller.credential
          ? core.logStream(resumeAfter, caller.credential, actor(caller))
          : refuse("unauthenticated", "a bearer token or session cookie is required"),
    },
    fleet: {
      appliances: () => core.fleetPeers(),
      // The peer as this appliance's running `webUi.peers` names it (null when it names none), and the destination
      // policy's
      // allowlist a relay outside the deployment is judged by: the Worker plans and makes the relay.
      read: (_: Caller, peer: string) => ({
        configured: core.fleetPeers().find((p) => p.name === peer) ?? null,
        allowlist: config().outboundAllowlist(),
      }),
      // The same for each name of a fan-out read, in order.
      fanOut: (_: Caller, names: string[]) => {
        const peers = new Map(core.fleetPeers().map((p) => [p.name, p]));
        return { configured: names.map((name) => peers.get(name) ?? null), allowlist: config().outboundAllowlist() };
      },
    },
    scenario: {
      state: () => dataPlane().scenarioState(),
      faults: () => dataPlane().model.faults.inForce(),
      apply: (caller: Caller, raw: unknown) => core.scenario(raw, actor(caller)),
      run: (caller: Caller, raw: unknown) => core.runScenario(raw, actor(caller)),
    },
  } satisfies PortTable;
}

export type AppliancePorts = ReturnType<typeof portsOf>;

/** What a port call answers: the port's value, or why the caller was refused before it ran. */
export type PortAnswer = Outcome<{ value: unknown }>;

/** An own member of a table that came over the wire by name (never `constructor`, `__proto__` and the like). */
const member = <T>(table: unknown, name: string): T | undefined =>
  table !== null && typeof table === "object" && Object.hasOwn(table, name)
    ? (table as Record<string, T>)[name]
    : undefined;

/**
 * Authorizes the caller for the operation the call names, then runs that operation's port as the caller (nothing when
 * `args` is null).
 */
export async function answerPortCall(core: ApplianceCore, ports: AppliancePorts, call: PortCall): Promise<PortAnswer> {
  const operation = member<Operation>(member(contract, call.section), call.operation);
  if (!operation)
    return { ok: false, reason: "not-found", detail: `no operation ${call.section}.${call.operation}`.slice(0, 200) };
  const authorized = authorizeOperation(operation, call, (credential) =>
    core.identity().authenticate(credential.via, credential.sha256),
  );
  if (!authorized.ok) return authorized;
  if (call.args === null) return { ok: true, value: undefined };
  const port = member<(caller: Caller, ...args: unknown[]) => unknown>(member(ports, call.section), call.operation);
  if (!port)
    return {
      ok: false,
      reason: "not-found",
      detail: `operation ${call.section}.${call.operation} has no port: its handler runs in the object`,
    };
  const caller: Caller = {
    principal: authorized.principal,
    credential: call.credential,
    clientIp: call.clientIp,
    secure: call.secure,
    ifMatch: call.ifMatch,
  };
  return { ok: true, value: await port(caller, ...call.args) };
}
