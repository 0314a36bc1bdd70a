/**
 * Local subscribers: the IPoE and PPPoE tables of the configuration (`LOCAL_LISTS`), each record read beside the data
 * plane's sessions at the version read; a write answers the record it left.
 */
import { LOCAL_LISTS, ipoeLineOf } from "../../src/config/local-subscribers.ts";
import type { EditValue } from "../../src/config/edit.ts";
import type { CommitSummary } from "../../src/schemas/commit.ts";
import type { Kind as LocalKind } from "../../src/schemas/local-subscribers.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import { refuse, type Outcome } from "../../src/schemas/outcome.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { keyedList } from "./keyed-list.ts";
import { steered } from "./sessions.ts";
import { refusalFor } from "./reasons.ts";

export function localSubscriberPorts(core: Pick<ApplianceCore, "config" | "dataPlane">) {
  const config = () => core.config();
  const dataPlane = () => core.dataPlane();
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
  const create =
    (kind: LocalKind) => (caller: Caller, key: string, fields: Record<string, EditValue>, comment: string | null) =>
      committedRecord(kind, key, local[kind].put("create")(caller, key, fields, comment));
  // PUT never creates (and a key that cannot exist is unknown, not invalid); a body field naming the identity must
  // agree with the URL's.
  const replace =
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
  return {
    list: () => ({
      ipoe: config().items(LOCAL_LISTS.ipoe),
      pppoe: config().items(LOCAL_LISTS.pppoe),
      sessions: dataPlane().localSubscriberSessions(),
      version: config().activeVersion().version,
    }),
    createIpoe: create("ipoe"),
    getIpoe: (_: Caller, key: string) => localRecord("ipoe", key),
    replaceIpoe: replace("ipoe", (key) => {
      const line = ipoeLineOf(key);
      return line && { port: line[0], sVlan: line[1], vlan: line[2] };
    }),
    removeIpoe: local.ipoe.remove,
    createPppoe: create("pppoe"),
    getPppoe: (_: Caller, key: string) => localRecord("pppoe", key),
    replacePppoe: replace("pppoe", (key) => ({ username: key })),
    removePppoe: local.pppoe.remove,
    // The live session of a local subscriber, steered as a session's detail is; not found when unknown or offline.
    session: (_: Caller, kind: LocalKind, key: string) => {
      const found = dataPlane().model.localSubscribers.session(kind, key);
      if (!found.ok) return refusalFor(found, { kind, key });
      return { ok: true as const, session: steered(dataPlane().steering, found.session) };
    },
  } satisfies PortsOf<"localSubscribers">;
}
