/**
 * Local subscribers: the appliance's own subscriber table (IPoE by line,
 * PPPoE by username), each online one linked to its session; edit (from the
 * subscriber's full current record) and remove on its row; forms with VRFs
 * and ports as selects.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { count } from "../format.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { RecordTable, type Json } from "../components/json-view.tsx";
import { ActionForm, type Choice } from "../components/action-form.tsx";
import { Card, Fold, Pager } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { choicesOf, usePortChoices, useVrfChoices } from "./choices.ts";
import type { PageContext } from "./context.ts";

const PAGE = 100;
type Kind = "ipoe" | "pppoe";

export function LocalSubscribers({ ctx }: { ctx: PageContext }) {
  const [kind, setKind] = useState<"" | Kind>("");
  const [offset, setOffset] = useState(0);
  const list = useCall(
    contract.localSubscribers.list,
    { query: { ...(kind ? { kind } : {}), offset, limit: PAGE } },
    { base: ctx.base, refreshMs: 15_000 },
  );
  const vrfs = useVrfChoices();
  const ports = usePortChoices();
  const rows = useRowActions();
  const [editing, setEditing] = useState<{ kind: Kind; key: string } | null>(null);
  const local = !ctx.peer;
  const prefix = ctx.base;
  const choices = choicesOf({ vrfName: vrfs, port: ports });
  const remove = (k: Kind, key: string) =>
    k === "ipoe"
      ? call(contract.localSubscribers.removeIpoe, { params: { key } })
      : call(contract.localSubscribers.removePppoe, { params: { username: key } });
  return (
    <>
      <h1>Local subscribers</h1>
      <Card id="local" title="Subscribers" aside="answered by local AAA, without RADIUS">
        <form class="toolbar" aria-label="Subscriber kind" onSubmit={(e) => e.preventDefault()}>
          <label>
            Kind
            <select
              value={kind}
              onChange={(e) => {
                setOffset(0);
                setKind(e.currentTarget.value as "" | Kind);
              }}
            >
              <option value="">IPoE and PPPoE</option>
              <option value="ipoe">IPoE (by line)</option>
              <option value="pppoe">PPPoE (by username)</option>
            </select>
          </label>
        </form>
        {rows.note}
        <Loaded resource={list}>
          {(l) => (
            <>
              <p role="status">
                {l.total === 0
                  ? "No local subscribers."
                  : `${count(l.offset + 1)}–${count(l.offset + l.items.length)} of ${count(l.total)}`}
              </p>
              <RecordTable
                caption="Local subscribers"
                rows={l.items.map((s) => ({
                  kind: s.kind,
                  key: s.key,
                  username: s.username,
                  vrf: s.vrfName ?? "default",
                  framedIp: s.framedIp ?? "dynamic",
                  plan: s.planName,
                  downloadBps: s.downloadRateKbps ? s.downloadRateKbps * 1000 : null,
                  uploadBps: s.uploadRateKbps ? s.uploadRateKbps * 1000 : null,
                  session: s.sessionId,
                }))}
                labels={{
                  key: "Line or username",
                  vrf: "VRF",
                  framedIp: "IPv4",
                  framedIpv6: "IPv6",
                  ipv6PdPrefix: "Delegated prefix",
                  downloadBps: "Download",
                  uploadBps: "Upload",
                }}
                cells={{
                  session: (row) =>
                    row.session === null ? (
                      <span class="muted">offline</span>
                    ) : (
                      <a href={`${prefix}/sessions/${row.session}`}>{String(row.session)}</a>
                    ),
                }}
                {...(local && can(contract.localSubscribers.removeIpoe)
                  ? {
                      rowAction: (row) => {
                        const k = row.kind as Kind;
                        const key = String(row.key);
                        const on = editing?.kind === k && editing.key === key;
                        return (
                          <>
                            <RowButton
                              verb="Edit"
                              target={`${k} subscriber ${key}`}
                              pressed={on}
                              onClick={() => setEditing(on ? null : { kind: k, key })}
                            />
                            <RowButton
                              verb="Remove"
                              target={`${k} subscriber ${key}`}
                              onClick={() =>
                                void rows.act(
                                  `Remove local ${k === "ipoe" ? "IPoE" : "PPPoE"} subscriber ${key}?` +
                                    `${row.session !== null ? ` Its session ${row.session} is disconnected.` : ""}`,
                                  () => remove(k, key),
                                  `Local subscriber ${key} removed.`,
                                  list.reload,
                                )
                              }
                            />
                          </>
                        );
                      },
                    }
                  : {})}
              />
              <Pager offset={offset} total={l.total} size={PAGE} go={setOffset} />
            </>
          )}
        </Loaded>
        {editing && (
          <Edit
            key={`${editing.kind}/${editing.key}`}
            kind={editing.kind}
            id={editing.key}
            choices={choices}
            onDone={list.reload}
          />
        )}
        {local && can(contract.localSubscribers.createIpoe) && (
          <>
            <Fold title="Add an IPoE subscriber">
              <ActionForm
                operation={contract.localSubscribers.createIpoe}
                configList="subscribers.local.ipoe"
                choices={choices}
                title="Add an IPoE subscriber"
                onDone={list.reload}
              />
            </Fold>
            <Fold title="Add a PPPoE subscriber">
              <ActionForm
                operation={contract.localSubscribers.createPppoe}
                configList="subscribers.local.pppoe"
                choices={choices}
                title="Add a PPPoE subscriber"
                onDone={list.reload}
              />
            </Fold>
          </>
        )}
      </Card>
    </>
  );
}

/** The edit form of one subscriber, starting from its full record (the list row carries only the main fields). */
function Edit({
  kind,
  id,
  choices,
  onDone,
}: {
  kind: Kind;
  id: string;
  choices: Record<string, Choice[]>;
  onDone: () => void;
}) {
  const ipoe = useCall(kind === "ipoe" ? contract.localSubscribers.getIpoe : null, { params: { key: id } });
  const pppoe = useCall(kind === "pppoe" ? contract.localSubscribers.getPppoe : null, { params: { username: id } });
  const record = (kind === "ipoe" ? ipoe.data : pppoe.data) as Record<string, Json> | undefined;
  const error = kind === "ipoe" ? ipoe.error : pppoe.error;
  if (!record) return error ? <ProblemNote error={error} /> : <p class="muted">Loading…</p>;
  return kind === "ipoe" ? (
    <ActionForm
      operation={contract.localSubscribers.replaceIpoe}
      configList="subscribers.local.ipoe"
      params={{ key: id }}
      current={record}
      hide={["port", "vlan", "sVlan"]}
      choices={choices}
      title={`Edit IPoE subscriber ${id}`}
      submitLabel="Save"
      onDone={onDone}
    />
  ) : (
    <ActionForm
      operation={contract.localSubscribers.replacePppoe}
      configList="subscribers.local.pppoe"
      params={{ username: id }}
      current={{ ...record, password: "" }}
      hide={["username"]}
      choices={choices}
      title={`Edit PPPoE subscriber ${id}`}
      submitLabel="Save"
      onDone={onDone}
    />
  );
}
