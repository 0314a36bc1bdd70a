/**
 * Semantic validation of a whole candidate document: every value against its
 * type, required children, uniqueness, references between lists, and the
 * rules that span several keys. It returns every problem it finds, each with
 * the pointer of the value at fault.
 */
import type { Profile } from "../../simulator/index.ts";
import { parsePrefix, prefixesOverlap, type Prefix } from "../../simulator/prefix.ts";
import { POOLS_LIST, addressPoolChecks, poolDefinitionsOf } from "./address-pools.ts";
import { cgnChecks, cgnProfileProblems, type CgnReport } from "./cgn.ts";
import { check, fieldPointer, listPointer, type ConfigError } from "./document.ts";
import type { ConfigDocument, Value } from "./types.ts";
import { greChecks } from "./gre.ts";
import { routingChecks } from "./routing.ts";
import { localSubscriberProblems } from "./local-subscribers.ts";
import { SINK_PURPOSE, destinationVerdict, hostVerdict, type Purpose } from "./destinations.ts";
import { CONFIG_KEYS, type ListKey } from "./registry.ts";
import { SYSLOG_LIST } from "./syslog.ts";
import { radiusListProblems } from "./radius.ts";
import { parseHostPort } from "./syntax.ts";
import { IMPORTED_ITERATIONS_FLOOR, iterationsOf } from "../trust/password.ts";

export interface ValidationContext {
  /** This appliance's name (it is not its own fleet peer). */
  appliance: string;
  /**
   * The fleet file's appliances: a peer among them is reached in-process, never over the network, whatever URL it
   * carries.
   */
  members?: readonly string[];
  /**
   * The shipped simulation profile: the CGN section must build a bootable profile with it; local subscribers name its
   * ports and plans; pools carry its statics.
   */
  profile?: Profile;
}

/** Where an item is referenced from: the referring list, item and child. */
export interface Reference {
  list: string;
  key: string;
  child: string;
}

const elementsOf = (value: Value): string[] => (value === null ? [] : Array.isArray(value) ? value : [String(value)]);
/** The names a reference child holds (each element, or what the ref's `pick` reads from it). */
const namesOf = (value: Value, pick?: (element: string) => string): string[] =>
  pick ? elementsOf(value).map(pick) : elementsOf(value);

/** The items that refer to `key` of `list`. */
export function referencesTo(doc: ConfigDocument, list: string, key: string): Reference[] {
  const found: Reference[] = [];
  for (const other of CONFIG_KEYS) {
    if (other.kind !== "list") continue;
    for (const [child, spec] of Object.entries(other.children)) {
      if (spec.ref?.list !== list) continue;
      for (const item of doc.lists[other.path] ?? []) {
        if (namesOf(item.values[child] ?? null, spec.ref.pick).includes(key))
          found.push({ list: other.path, key: item.key, child });
      }
    }
  }
  return found;
}

/** Human-readable list of references, e.g. `sourceVrfRules 'r1' (ingestVrf)`. */
export const describeReferences = (refs: Reference[]): string =>
  refs.map((r) => `${r.list} '${r.key}' (${r.child})`).join(", ");

/** Every problem of `doc`; `before` (the active document) tells a dangling reference from a deleted referent. */
export function validateDocument(
  doc: ConfigDocument,
  before: ConfigDocument,
  context: ValidationContext,
): ConfigError[] {
  const errors: ConfigError[] = [];
  for (const key of CONFIG_KEYS) {
    if (key.kind === "field") {
      const problem = check(key, doc.fields[key.path] ?? null);
      if (problem) errors.push({ pointer: fieldPointer(key.path), detail: problem });
    } else {
      checkList(doc, before, key, errors);
    }
  }
  crossChecks(doc, before, context, errors);
  return errors;
}

function checkList(doc: ConfigDocument, before: ConfigDocument, list: ListKey, errors: ConfigError[]): void {
  const items = doc.lists[list.path] ?? [];
  const seen = new Map<string, Map<string, string>>((list.unique ?? []).map((child) => [child, new Map()]));
  const keys = new Set<string>();
  for (const item of items) {
    if (keys.has(item.key)) errors.push({ pointer: listPointer(list.path, item.key), detail: "the key appears twice" });
    keys.add(item.key);
    for (const [child, spec] of Object.entries(list.children)) {
      const pointer = listPointer(list.path, item.key, child);
      const value = item.values[child] ?? null;
      if (value === null) {
        if (spec.required) errors.push({ pointer, detail: "required" });
        continue;
      }
      const problem = check(spec, value);
      if (problem) {
        errors.push({ pointer, detail: problem });
        continue;
      }
      const owners = seen.get(child);
      if (owners) {
        const owner = owners.get(String(value));
        if (owner !== undefined)
          errors.push({ pointer, detail: `${child} ${String(value)} is already used by ${list.path} '${owner}'` });
        else owners.set(String(value), item.key);
      }
      if (spec.ref) checkReference(doc, before, list, item.key, child, spec.ref, value, errors);
    }
    for (const { child, detail } of list.checkItem?.(item.values) ?? [])
      errors.push({ pointer: listPointer(list.path, item.key, child), detail });
  }
}

function checkReference(
  doc: ConfigDocument,
  before: ConfigDocument,
  list: ListKey,
  key: string,
  child: string,
  ref: { list: string; builtin: readonly string[]; pick?: (element: string) => string },
  value: Value,
  errors: ConfigError[],
): void {
  const targets = new Set((doc.lists[ref.list] ?? []).map((item) => item.key));
  const existedBefore = new Set((before.lists[ref.list] ?? []).map((item) => item.key));
  for (const name of new Set(namesOf(value, ref.pick))) {
    if (targets.has(name) || ref.builtin.includes(name)) continue;
    if (existedBefore.has(name)) {
      // The referent is being deleted: say so where the deletion is.
      errors.push({
        pointer: listPointer(ref.list, name),
        detail:
          `still referenced by ${list.path} '${key}' (${child}); change or delete that ` +
          `first, or in the same change`,
      });
    } else {
      errors.push({
        pointer: listPointer(list.path, key, child),
        detail:
          `no ${ref.list} item '${name}' is ` +
          `configured${ref.builtin.length ? ` (nor is it ${ref.builtin.map((b) => `'${b}'`).join(" or ")})` : ""}`,
      });
    }
  }
}

function crossChecks(
  doc: ConfigDocument,
  before: ConfigDocument,
  context: ValidationContext,
  errors: ConfigError[],
): void {
  const listeners = doc.fields["webUi.listeners"];
  if (Array.isArray(listeners) && listeners.length === 0) {
    errors.push({
      pointer: fieldPointer("webUi.listeners"),
      detail: "at least one listener is required (the API would become unreachable)",
    });
  }
  if ((doc.fields["webUi.certificate"] === null) !== (doc.fields["webUi.privateKey"] === null)) {
    errors.push({
      pointer: fieldPointer("webUi.certificate"),
      detail: "the certificate and its private key are set (or cleared) together",
    });
  }
  if (doc.fields["acme.enabled"] === true && doc.fields["acme.directoryUrl"] === null) {
    errors.push({
      pointer: fieldPointer("acme.directoryUrl"),
      detail: "ACME is enabled: the CA's directory URL is required",
    });
  }
  for (const peer of doc.lists["webUi.peers"] ?? []) {
    if (peer.key === context.appliance)
      errors.push({ pointer: listPointer("webUi.peers", peer.key), detail: "an appliance is not its own peer" });
  }
  superUserChecks(doc, before, errors);
  importedHashChecks(doc, before, errors);
  destinationChecks(doc, before, errors, new Set(context.members ?? []));
  // Two rules that match the same source in the same ingest VRF would race: refuse the overlap.
  const rules: { key: string; ingest: string; prefixes: Prefix[] | null }[] = [];
  for (const rule of doc.lists.sourceVrfRules ?? []) {
    const ingest = rule.values.ingestVrf;
    if (typeof ingest !== "string") continue;
    const subnets = elementsOf(rule.values.sourceSubnets ?? null);
    const prefixes =
      subnets.length === 0 ? null : subnets.map((s) => parsePrefix(s)).filter((p): p is Prefix => p !== null);
    const clash = rules.find((other) => other.ingest === ingest && overlaps(other.prefixes, prefixes));
    if (clash) {
      errors.push({
        pointer: listPointer("sourceVrfRules", rule.key, "sourceSubnets"),
        detail: `overlaps rule '${clash.key}' on ingest VRF '${ingest}' (an empty list matches every source)`,
      });
    }
    rules.push({ key: rule.key, ingest, prefixes });
  }
  radiusListProblems(doc.lists["radius.servers"] ?? [], doc.fields["radius.subscriberPassword"] ?? null, (at, detail) =>
    errors.push({
      pointer: at.field ? fieldPointer(at.field) : listPointer("radius.servers", at.key, at.child),
      detail,
    }),
  );
  greChecks(doc, (list, key, child, detail) => errors.push({ pointer: listPointer(list, key, child), detail }));
  routingChecks(doc, (list, key, child, detail, field) =>
    errors.push({ pointer: field ? fieldPointer(field) : listPointer(list ?? "", key, child), detail }),
  );
  const poolErrors: ConfigError[] = [];
  addressPoolChecks(doc, before, (key, child, detail) =>
    poolErrors.push({ pointer: listPointer(POOLS_LIST, key, key === undefined ? undefined : child), detail }),
  );
  errors.push(...poolErrors);
  const pools = poolDefinitionsOf(doc, context.profile);
  localSubscriberProblems(doc, before, pools, context.profile, (list, key, child, detail) =>
    errors.push({ pointer: listPointer(list, key, child), detail }),
  );
  const cgnErrors: ConfigError[] = [];
  const cgnReport: CgnReport = (at, detail) =>
    cgnErrors.push({
      pointer: at.field
        ? fieldPointer(at.field)
        : listPointer("cgn.groups", at.key, at.key === undefined ? undefined : at.child),
      detail,
    });
  cgnChecks(doc, cgnReport);
  // The last word: would the CGN allocators build from this at the next start? Asked only when nothing
  // more specific is wrong with the section, so a problem is not reported twice.
  // The start builds the allocators on the shipped profile's pools (the configured ones are installed after it,
  // restart or not), so that is what this asks; a configured pool that breaks the CGN rule is said above.
  const cgnClean =
    !errors.some((e) => /^#\/(lists\/cgn\.groups|fields\/cgn\.)/.test(e.pointer)) && cgnErrors.length === 0;
  if (context.profile && cgnClean) cgnProfileProblems(context.profile, doc, cgnReport);
  errors.push(...cgnErrors);
}

/**
 * Outbound destinations (SSRF, src/config/destinations.ts): alarm sinks,
 * fleet peers, the ACME directory and syslog hosts, judged when their URL
 * (or host) or the allowlist changes, so a value stored before a rule does
 * not block unrelated commits (the request itself refuses it all the same). A peer of this fleet is
 * reached in-process and not judged.
 */
function destinationChecks(
  doc: ConfigDocument,
  before: ConfigDocument,
  errors: ConfigError[],
  members: ReadonlySet<string>,
): void {
  const allowlist = elementsOf(doc.fields["alarms.webhookAllowlist"] ?? null);
  const allowlistChanged =
    JSON.stringify(allowlist) !== JSON.stringify(elementsOf(before.fields["alarms.webhookAllowlist"] ?? null));
  // `same`: the key held this destination before (a sink its kind and URL).
  // `target`: a URL, or a host when `verdictOf` is hostVerdict (a syslog destination's).
  const judge = (
    target: string,
    same: boolean,
    purpose: Purpose,
    pointer: string,
    verdictOf: typeof destinationVerdict = destinationVerdict,
  ) => {
    // Unchanged, or already refused for its form: one problem per value.
    if ((!allowlistChanged && same) || errors.some((e) => e.pointer === pointer)) return;
    const verdict = verdictOf(target, purpose, allowlist);
    if (!verdict.ok) errors.push({ pointer, detail: verdict.detail });
  };
  const sinksBefore = new Map(
    (before.lists["alarms.sinks"] ?? []).map((item) => [
      item.key,
      `${String(item.values.kind)} ${String(item.values.url)}`,
    ]),
  );
  for (const sink of doc.lists["alarms.sinks"] ?? []) {
    const url = sink.values.url;
    const kind = sink.values.kind;
    if (typeof kind !== "string" || !(kind in SINK_PURPOSE) || typeof url !== "string") continue;
    judge(
      url,
      sinksBefore.get(sink.key) === `${kind} ${url}`,
      SINK_PURPOSE[kind as keyof typeof SINK_PURPOSE],
      listPointer("alarms.sinks", sink.key, "url"),
    );
  }
  const peersBefore = new Map((before.lists["webUi.peers"] ?? []).map((item) => [item.key, String(item.values.url)]));
  for (const peer of doc.lists["webUi.peers"] ?? []) {
    const url = peer.values.url;
    if (typeof url !== "string" || members.has(peer.key)) continue;
    judge(url, peersBefore.get(peer.key) === url, "peer", listPointer("webUi.peers", peer.key, "url"));
  }
  const syslogOf = (values: Record<string, Value>) => `${String(values.transport)} ${String(values.host)}`;
  const syslogBefore = new Map((before.lists[SYSLOG_LIST] ?? []).map((item) => [item.key, syslogOf(item.values)]));
  for (const destination of doc.lists[SYSLOG_LIST] ?? []) {
    const { host, transport } = destination.values;
    if (typeof host !== "string") continue;
    const same = syslogBefore.get(destination.key) === syslogOf(destination.values);
    const hostPointer = listPointer(SYSLOG_LIST, destination.key, "host");
    judge(host, same, "syslog", hostPointer, hostVerdict);
    // Every log entry in clear (issue #47): `tcp` only to an allowlisted internal address; the transport is what to
    // change.
    const cleartext = (target: string, purpose: Purpose, list: readonly string[]) =>
      hostVerdict(target, purpose, list, true);
    if (transport === "tcp" && !errors.some((e) => e.pointer === hostPointer)) {
      judge(host, same, "syslog", listPointer(SYSLOG_LIST, destination.key, "transport"), cleartext);
    }
  }
  const radiusBefore = new Map(
    (before.lists["radius.servers"] ?? []).map((item) => [item.key, String(item.values.transport)]),
  );
  for (const server of doc.lists["radius.servers"] ?? []) {
    const transport = server.values.transport;
    const host = parseHostPort(server.key)?.host;
    if ((transport !== "tcp" && transport !== "tls") || host === undefined) continue;
    const pointer = listPointer("radius.servers", server.key, "transport");
    judge(host, radiusBefore.get(server.key) === transport, "radius", pointer, (h, p, a) =>
      hostVerdict(h, p, a, transport === "tcp"),
    );
  }
  const directory = doc.fields["acme.directoryUrl"];
  if (typeof directory === "string")
    judge(directory, before.fields["acme.directoryUrl"] === directory, "acme", fieldPointer("acme.directoryUrl"));
}

/** Null = every source. */
function overlaps(a: Prefix[] | null, b: Prefix[] | null): boolean {
  if (a === null || b === null) return true;
  return a.some((x) => b.some((y) => prefixesOverlap(x, y)));
}

/**
 * A password hash a change brings in (not one the active configuration holds) needs the appliance's own work factor.
 */
function importedHashChecks(doc: ConfigDocument, before: ConfigDocument, errors: ConfigError[]): void {
  const held = new Set((before.lists["login.users"] ?? []).map((user) => user.values.password));
  for (const user of doc.lists["login.users"] ?? []) {
    const hash = user.values.password;
    if (typeof hash !== "string" || held.has(hash)) continue;
    const iterations = iterationsOf(hash);
    if (iterations === null || iterations >= IMPORTED_ITERATIONS_FLOOR) continue;
    const floor = IMPORTED_ITERATIONS_FLOOR.toLocaleString("en");
    errors.push({
      pointer: listPointer("login.users", user.key, "password"),
      detail:
        `this hash has ${iterations.toLocaleString("en")} PBKDF2 iterations, below ` +
        `the ${floor} every hash here has: import one made with ${floor}, or write the ` +
        `password in clear to have it hashed here`,
    });
  }
}

/**
 * An appliance nobody can administer cannot be repaired through its API, so
 * the last super-user stays: the problem is reported where it was demoted or
 * deleted.
 */
function superUserChecks(doc: ConfigDocument, before: ConfigDocument, errors: ConfigError[]): void {
  const isSuper = (item: { values: Record<string, Value> }) => item.values.role === "super-user";
  const users = doc.lists["login.users"] ?? [];
  if (users.some(isSuper)) return;
  const lost = (before.lists["login.users"] ?? []).filter(isSuper);
  const detail = "at least one account must keep the super-user role (the appliance could not be administered)";
  if (lost.length === 0) errors.push({ pointer: listPointer("login.users"), detail });
  for (const item of lost) {
    const still = users.some((u) => u.key === item.key);
    errors.push({ pointer: listPointer("login.users", item.key, still ? "role" : undefined), detail });
  }
}
