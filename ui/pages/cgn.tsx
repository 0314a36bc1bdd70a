/**
 * CGN: the running state (caps, bindings, each group's port blocks as a
 * share with a bar), the configured groups with edit and delete on their
 * rows, the bindings with filters and paging (each linked to its session, an
 * anonymous one with "identify"), and the caps. "Who had this public address
 * and port" is the troubleshooting page's.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call, type Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { count } from "../format.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable, Scalar } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Facts, Fold, Pager } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { searchParams } from "../router.ts";
import { choicesOf, useVrfChoices } from "./choices.ts";
import { placeCgnGroupError } from "./config-pointers.ts";
import type { PageContext } from "./context.ts";

const PAGE = 25;
const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

/** What the groups' table shows, and the data plane's own counters of the translation. */
function GroupsNote({ counters: n }: { counters: Answer<typeof contract.cgn.status>["nativeCounters"] }) {
  return (
    <>
      Blocks used is the share of a group's port blocks held by bindings; quarantined blocks rest before reuse. Native
      counters: {count(n.noMapping)} without mapping, {count(n.autolearnMisses)} auto-learn misses,{" "}
      {count(n.extensionWanted)} extensions wanted, {count(n.eventRingDrops)} event-ring drops.
    </>
  );
}

export function Cgn({ ctx }: { ctx: PageContext }) {
  const status = useCall(contract.cgn.status, {}, { base: ctx.base, refreshMs: 10_000 });
  const local = !ctx.peer;
  const prefix = ctx.base;
  return (
    <>
      <h1>CGN</h1>
      <Loaded resource={status}>
        {(s) => (
          <Card id="cgn-status" title="Status">
            <Facts
              label="CGN state"
              items={[
                ["Enabled", <Scalar value={s.enabled} name="enabled" />],
                ["Running", <Scalar value={s.running} name="running" />],
                ["Active bindings", <span data-testid="cgn-active-bindings">{count(s.activeBindings)}</span>],
                ["of at most", count(s.maxBindings)],
                ["Auto-learned", count(s.autoLearnedBindings)],
                ["Flow cap", count(s.maxFlows)],
              ]}
            />
            <RecordTable
              caption="CGN groups, running"
              csvName="cgn-groups"
              rows={s.groups.map((g) => ({
                group: g.name,
                outsideVrf: g.outsideVrf,
                publicSubnets: g.publicSubnets,
                activeBindings: g.activeBindings,
                usedPercent: share(g.utilisation.usedChunks, g.utilisation.totalChunks),
                usedBlocks: g.utilisation.usedChunks,
                quarantinedBlocks: g.utilisation.quarantinedChunks,
                freeBlocks: g.utilisation.freeChunks,
                totalBlocks: g.utilisation.totalChunks,
              }))}
              labels={{ usedPercent: "Blocks used" }}
            />
            <p class="muted">
              <GroupsNote counters={s.nativeCounters} />{" "}
              <a href={`${prefix}/troubleshooting`}>Who had a public address and port at a given time?</a>
            </p>
          </Card>
        )}
      </Loaded>
      <Bindings ctx={ctx} groups={status.data?.groups.map((g) => g.name)} />
      {local && can(contract.cgnConfig.groups) && <Groups onChange={status.reload} />}
      {local && can(contract.cgnConfig.putSettings) && (
        <Card id="cgn-caps" title="Caps">
          <ActionForm
            operation={contract.cgnConfig.putSettings}
            title="Change the CGN caps"
            prefill={contract.cgnConfig.settings}
          />
        </Card>
      )}
    </>
  );
}

function Bindings({ ctx, groups }: { ctx: PageContext; groups: string[] | undefined }) {
  // `/cgn?ip=<address>` (a session's page links there) opens on that binding.
  const [draft, setDraft] = useState({ group: "", vrf: "", ip: searchParams().get("ip") ?? "" });
  const [filter, setFilter] = useState(draft);
  const [offset, setOffset] = useState(0);
  const [identifying, setIdentifying] = useState<number | null>(null);
  const query = { ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== "")), offset, limit: PAGE };
  const bindings = useCall(contract.cgn.bindings, { query }, { base: ctx.base, refreshMs: 15_000 });
  const prefix = ctx.base;
  const mayIdentify = !ctx.peer && can(contract.cgn.identify);
  return (
    <Card id="cgn-bindings" title="Bindings">
      <form
        class="toolbar"
        aria-label="Binding filters"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilter(draft);
        }}
      >
        <label>
          Group{" "}
          <select value={draft.group} onChange={(e) => setDraft({ ...draft, group: e.currentTarget.value })}>
            <option value="">any</option>
            {groups?.map((g) => (
              <option key={g}>{g}</option>
            ))}
          </select>
        </label>
        <label>
          Inside VRF{" "}
          <input value={draft.vrf} size={10} onInput={(e) => setDraft({ ...draft, vrf: e.currentTarget.value })} />
        </label>
        <label>
          Inside or public address starts with{" "}
          <input
            value={draft.ip}
            size={16}
            spellcheck={false}
            onInput={(e) => setDraft({ ...draft, ip: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Show</button>
      </form>
      <Loaded resource={bindings}>
        {(b) => (
          <>
            <p role="status" data-testid="cgn-bindings-range">
              {!b.running
                ? "CGN is not running: no bindings."
                : b.total === 0
                  ? "No matching bindings."
                  : `${count(b.offset + 1)}–${count(b.offset + b.items.length)} of ${count(b.total)}, by binding index`}
            </p>
            <RecordTable
              caption="CGN bindings"
              dense
              csvName="cgn-bindings"
              rows={b.items.map((r) => ({
                bindingIndex: r.bindingIndex,
                // The group only where there is more than one: with one, the column says nothing.
                ...(new Set(b.items.map((i) => i.group)).size > 1 ? { group: r.group } : {}),
                insideVrf: r.insideVrf,
                insideIp: r.insideIp,
                publicIp: r.publicIp,
                portBlocks: r.portBlocks,
                sessionId: r.sessionId,
                subscriber: r.subscriberId ?? (r.autoLearned ? "anonymous (auto-learned)" : null),
                created: r.createdUtc,
              }))}
              labels={{
                bindingIndex: "Index",
                insideIp: "Inside",
                publicIp: "Public",
                portBlocks: "Ports",
                sessionId: "Session",
                created: "Since",
              }}
              cells={{
                subscriber: (row) =>
                  row.subscriber === null ? (
                    <span class="muted">—</span>
                  ) : (
                    <span class="clip" title={String(row.subscriber)}>
                      {String(row.subscriber)}
                    </span>
                  ),
                sessionId: (row) =>
                  row.sessionId ? (
                    <a href={`${prefix}/sessions/${row.sessionId}`}>{String(row.sessionId)}</a>
                  ) : (
                    <span class="muted">anonymous</span>
                  ),
              }}
              {...(mayIdentify
                ? {
                    rowAction: (row) =>
                      row.sessionId === 0 && !b.items.find((i) => i.bindingIndex === row.bindingIndex)?.subscriberId ? (
                        <RowButton
                          verb="Identify"
                          target={`binding ${row.bindingIndex}`}
                          pressed={identifying === row.bindingIndex}
                          onClick={() => setIdentifying(row.bindingIndex as number)}
                        />
                      ) : null,
                  }
                : {})}
            />
            <Pager offset={offset} total={b.total} size={PAGE} go={setOffset} />
          </>
        )}
      </Loaded>
      {identifying !== null && (
        <ActionForm
          key={identifying}
          operation={contract.cgn.identify}
          params={{ bindingIndex: identifying }}
          title={`Name the subscriber of anonymous binding ${identifying}`}
          submitLabel="Identify"
          onDone={() => {
            setIdentifying(null);
            bindings.reload();
          }}
        />
      )}
    </Card>
  );
}

function Groups({ onChange }: { onChange: () => void }) {
  const groups = useCall(contract.cgnConfig.groups);
  const vrfs = useVrfChoices();
  const [editing, setEditing] = useState<string | null>(null);
  const rows = useRowActions();
  const reload = () => {
    groups.reload();
    onChange();
  };
  const choices = choicesOf({ outsideVrf: vrfs, "autoLearn/insideVrf": vrfs });
  const records = {
    recordNames: { autoLearn: "auto-learn entry" },
    placeError: placeCgnGroupError,
    // The API's words speak to read-modify-write clients ("absent keeps …"); a person reads these.
    hints: {
      insideVrfs: "The subscriber VRFs whose IPv4 sessions the group translates; a VRF belongs to one group only.",
      timeouts:
        "Idle timeouts in seconds; empty takes the RFCs' defaults: TCP established 7440, " +
        "TCP transitory 240, UDP 300, ICMP 60.",
    },
  };
  const current = groups.data?.find((g) => g.name === editing);
  return (
    <Card id="cgn-groups" title="Configured groups" aside="changes take effect at the next start">
      {rows.note}
      <Loaded resource={groups}>
        {(list) => (
          <RecordTable
            caption="CGN groups, configured"
            rows={list.map((g) => ({
              name: g.name,
              description: g.description,
              insideVrfs: g.insideVrfs,
              outsideVrf: g.outsideVrf,
              publicSubnets: g.publicSubnets,
              portsPerBlock: g.chunkSize,
              portCap: g.portCap,
              bypassPrefixes: g.bypassPrefixes,
              waitsForRestart: g.pendingRestart,
            }))}
            labels={{
              portsPerBlock: "Ports per block",
              bindingTimeoutSeconds: "Binding timeout",
              quarantineSeconds: "Quarantine",
            }}
            {...(can(contract.cgnConfig.putGroup)
              ? {
                  rowAction: (row) => {
                    const name = String(row.name);
                    return (
                      <>
                        <RowButton
                          verb="Edit"
                          target={`group ${name}`}
                          pressed={editing === name}
                          onClick={() => setEditing(editing === name ? null : name)}
                        />
                        <RowButton
                          verb="Delete"
                          target={`group ${name}`}
                          onClick={() =>
                            void rows.act(
                              `Delete CGN group ${name}? It stops translating at the next start.`,
                              () => call(contract.cgnConfig.deleteGroup, { params: { name } }),
                              `CGN group ${name} deleted; the change takes effect at the next start.`,
                              reload,
                            )
                          }
                        />
                      </>
                    );
                  },
                }
              : {})}
          />
        )}
      </Loaded>
      {current && (
        <ActionForm
          key={current.name}
          operation={contract.cgnConfig.putGroup}
          configList="cgn.groups"
          params={{ name: current.name }}
          current={current}
          hide={["name"]}
          choices={choices}
          {...records}
          title={`Edit group ${current.name}`}
          submitLabel="Save"
          onDone={reload}
        />
      )}
      {can(contract.cgnConfig.putGroup) && (
        <Fold title="Add a group">
          <ActionForm
            operation={contract.cgnConfig.putGroup}
            configList="cgn.groups"
            choices={choices}
            {...records}
            title="Add a CGN group"
            onDone={reload}
          />
        </Fold>
      )}
    </Card>
  );
}
