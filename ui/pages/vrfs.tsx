/**
 * VRFs and source-VRF rules: the VRFs with their live sessions and routing
 * attributes, the rules that route one VRF's traffic into another; edit and
 * delete on their rows, VRFs as selects in the forms.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call } from "../api.ts";
import { useCall } from "../resource.ts";
import { can, readableOnPeer } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable, type Json } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Fold } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { choicesOf, useVrfChoices } from "./choices.ts";
import type { PageContext } from "./context.ts";

export function Vrfs({ ctx }: { ctx: PageContext }) {
  const vrfs = useCall(contract.vrfs.list, {}, { base: ctx.base, refreshMs: 15_000 });
  const local = !ctx.peer;
  const rows = useRowActions();
  const [editing, setEditing] = useState<string | null>(null);
  const prefix = ctx.base;
  const edited = vrfs.data?.find((v) => v.name === editing && v.configured);
  return (
    <>
      <h1>VRFs and source-VRF rules</h1>
      <Loaded resource={vrfs}>
        {(list) => (
          <Card id="vrfs" title="VRFs">
            {rows.note}
            <RecordTable
              caption="VRFs"
              rows={list.map((v) => {
                // A session-only name carries counts only: its routing attributes read as dashes.
                const r = v as Record<string, Json | undefined>;
                // The IPv6 gateway and the L2TP endpoint are in the row's edit form: the table stays inside 1024 px.
                return {
                  vrf: v.name,
                  configured: v.configured,
                  sessions: v.sessions,
                  tableId: r.tableId ?? null,
                  rd: r.rd ?? null,
                  importRt: r.importRt ?? null,
                  exportRt: r.exportRt ?? null,
                  gatewayIp: r.gatewayIp ?? null,
                  originateDefaultRoute: r.originateDefaultRoute ?? null,
                };
              })}
              labels={{
                vrf: "VRF",
                tableId: "Table ID",
                rd: "RD",
                importRt: "Import RTs",
                exportRt: "Export RTs",
                gatewayIp: "Gateway",
                gatewayIpv6: "IPv6 gateway",
                l2tpEndpointIp: "L2TP endpoint",
                originateDefaultRoute: "Default route",
              }}
              cells={{
                sessions: (row) =>
                  row.sessions ? (
                    <a href={`${prefix}/sessions?vrf=${encodeURIComponent(String(row.vrf))}`}>{String(row.sessions)}</a>
                  ) : (
                    <span>0</span>
                  ),
              }}
              rowAction={(row) => {
                const name = String(row.vrf);
                if (!local || !row.configured) return null;
                return (
                  <>
                    {can(contract.vrfs.replace) && (
                      <RowButton
                        verb="Edit"
                        target={`VRF ${name}`}
                        pressed={editing === name}
                        onClick={() => setEditing(editing === name ? null : name)}
                      />
                    )}
                    {can(contract.vrfs.remove) && (
                      <RowButton
                        verb="Delete"
                        target={`VRF ${name}`}
                        onClick={() =>
                          void rows.act(
                            `Delete VRF ${name}? ` +
                              (row.sessions ? `Its ${row.sessions} sessions are disconnected.` : "It has no sessions."),
                            () => call(contract.vrfs.remove, { params: { name } }),
                            `VRF ${name} deleted.`,
                            vrfs.reload,
                          )
                        }
                      />
                    )}
                  </>
                );
              }}
            />
            {edited && (
              <ActionForm
                key={edited.name}
                operation={contract.vrfs.replace}
                configList="vrfs"
                params={{ name: edited.name }}
                current={edited}
                hide={["name"]}
                title={`Edit VRF ${edited.name}`}
                submitLabel="Save"
                onDone={vrfs.reload}
              />
            )}
            {local && can(contract.vrfs.create) && (
              <Fold title="Add a VRF">
                <ActionForm operation={contract.vrfs.create} configList="vrfs" title="Add a VRF" onDone={vrfs.reload} />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
      {(!ctx.peer || readableOnPeer(contract.sourceVrfRules.list)) && can(contract.sourceVrfRules.list) && (
        <SourceVrfRules ctx={ctx} />
      )}
    </>
  );
}

function SourceVrfRules({ ctx }: { ctx: PageContext }) {
  const rules = useCall(contract.sourceVrfRules.list, {}, { base: ctx.base });
  const vrfs = useVrfChoices();
  const rows = useRowActions();
  const [editing, setEditing] = useState<string | null>(null);
  const local = !ctx.peer;
  const choices = choicesOf({ ingestVrf: vrfs, targetVrf: vrfs });
  const edited = rules.data?.find((r) => r.name === editing);
  return (
    <Loaded resource={rules}>
      {(list) => (
        <Card
          id="rules"
          title="Source-VRF rules"
          aside="traffic from these sources in one VRF is routed in another, without NAT"
        >
          {rows.note}
          <RecordTable
            caption="Source-VRF rules"
            rows={list as never}
            labels={{ ingestVrf: "Arrives in", sourceSubnets: "From sources", targetVrf: "Routed in" }}
            {...(local && can(contract.sourceVrfRules.remove)
              ? {
                  rowAction: (row) => {
                    const name = String(row.name);
                    return (
                      <>
                        <RowButton
                          verb="Edit"
                          target={`rule ${name}`}
                          pressed={editing === name}
                          onClick={() => setEditing(editing === name ? null : name)}
                        />
                        <RowButton
                          verb="Delete"
                          target={`rule ${name}`}
                          onClick={() =>
                            void rows.act(
                              `Delete source-VRF rule ${name} (${row.ingestVrf} → ${row.targetVrf})?`,
                              () => call(contract.sourceVrfRules.remove, { params: { name } }),
                              `Source-VRF rule ${name} deleted.`,
                              rules.reload,
                            )
                          }
                        />
                      </>
                    );
                  },
                }
              : {})}
            empty="No source-VRF rules."
          />
          {edited && (
            <ActionForm
              key={edited.name}
              operation={contract.sourceVrfRules.replace}
              configList="sourceVrfRules"
              params={{ name: edited.name }}
              current={edited}
              hide={["name"]}
              choices={choices}
              title={`Edit rule ${edited.name}`}
              submitLabel="Save"
              onDone={rules.reload}
            />
          )}
          {local && can(contract.sourceVrfRules.create) && (
            <Fold title="Add a rule">
              <ActionForm
                operation={contract.sourceVrfRules.create}
                configList="sourceVrfRules"
                choices={choices}
                title="Add a source-VRF rule"
                onDone={rules.reload}
              />
            </Fold>
          )}
        </Card>
      )}
    </Loaded>
  );
}
