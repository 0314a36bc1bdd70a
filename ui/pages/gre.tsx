/**
 * GRE circuits: each circuit's states in colour (circuit, tunnel, BFD, BGP)
 * beside its configuration, edit and delete on its row; the listeners (the
 * shared local endpoints) with the circuits using each; forms with the
 * listeners and VRFs as selects.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable, type Json } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Fold } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { choicesOf, useVrfChoices } from "./choices.ts";
import type { PageContext } from "./context.ts";

export function Gre({ ctx }: { ctx: PageContext }) {
  const status = useCall(contract.greCircuits.status, {}, { base: ctx.base, refreshMs: 10_000 });
  const circuits = useCall(contract.greCircuits.list, {}, { base: ctx.base });
  const listeners = useCall(contract.greCircuits.listeners, {}, { base: ctx.base });
  const vrfs = useVrfChoices();
  const local = !ctx.peer;
  const rows = useRowActions();
  const listenerRows = useRowActions();
  const [editing, setEditing] = useState<string | null>(null);
  const reload = () => {
    status.reload();
    circuits.reload();
    listeners.reload();
  };
  const choices = choicesOf({
    vrf: vrfs,
    listenerId: listeners.data?.map((l) => ({
      value: l.id,
      label: `${l.id} · ${String((l as Record<string, unknown>).localAddress ?? "")}`,
    })),
  });
  const config = (id: string) => circuits.data?.find((c) => c.id === id) as Record<string, Json> | undefined;
  const edited = editing ? config(editing) : undefined;
  return (
    <>
      <h1>GRE circuits</h1>
      <Loaded resource={status}>
        {(s) => (
          <Card id="circuits" title="Circuits" aside={`states as of ${s.asOfUtc.slice(11, 19)} UTC`}>
            {rows.note}
            <RecordTable
              caption="GRE circuits"
              csvName="gre-circuits"
              testid="gre-circuits"
              rows={s.circuits.map((c) => {
                const conf = config(c.id);
                return {
                  circuit: c.id,
                  vrf: c.vrf,
                  remote: conf?.remote ?? null,
                  circuitState: c.circuitState,
                  tunnelState: c.tunnelState,
                  bfdState: c.bfdState,
                  bgpState: c.bgpState,
                  peerAs: conf?.peerAsn ?? null,
                  prefixesReceived: c.prefixesReceived,
                  lastChange: c.lastChangeUtc,
                };
              })}
              labels={{
                circuitState: "Circuit",
                tunnelState: "Tunnel",
                bfdState: "BFD",
                bgpState: "BGP",
                peerAs: "Peer AS",
                prefixesReceived: "Routes received",
                lastChange: "Last change",
              }}
              {...(local && can(contract.greCircuits.replace)
                ? {
                    rowAction: (row) => {
                      const id = String(row.circuit);
                      return (
                        <>
                          <RowButton
                            verb="Edit"
                            target={`circuit ${id}`}
                            pressed={editing === id}
                            onClick={() => setEditing(editing === id ? null : id)}
                          />
                          <RowButton
                            verb="Delete"
                            target={`circuit ${id}`}
                            onClick={() =>
                              void rows.act(
                                `Delete GRE circuit ${id} (VRF ${row.vrf})? Its tunnel and BGP session go down now.`,
                                () => call(contract.greCircuits.remove, { params: { id } }),
                                `GRE circuit ${id} deleted.`,
                                reload,
                              )
                            }
                          />
                        </>
                      );
                    },
                  }
                : {})}
              empty="No GRE circuits."
            />
            {edited && (
              <ActionForm
                key={editing}
                operation={contract.greCircuits.replace}
                configList="gre.circuits"
                params={{ id: editing! }}
                current={edited}
                hide={["id"]}
                choices={choices}
                labels={{ listenerId: "Listener" }}
                title={`Edit circuit ${editing}`}
                submitLabel="Save"
                onDone={reload}
              />
            )}
            {local && can(contract.greCircuits.create) && (
              <Fold title="Add a circuit">
                <ActionForm
                  operation={contract.greCircuits.create}
                  configList="gre.circuits"
                  choices={choices}
                  labels={{ listenerId: "Listener" }}
                  title="Add a GRE circuit"
                  onDone={reload}
                />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
      <Loaded resource={listeners}>
        {(list) => (
          <Card id="listeners" title="Listeners" aside="shared local tunnel endpoints">
            {listenerRows.note}
            <RecordTable
              caption="GRE listeners"
              rows={list as never}
              labels={{ ttl: "TTL", circuits: "Circuits using it" }}
              {...(local && can(contract.greCircuits.removeListener)
                ? {
                    rowAction: (row) => {
                      const id = String(row.id);
                      return (
                        <>
                          <RowButton
                            verb="Edit"
                            target={`listener ${id}`}
                            pressed={editing === `listener:${id}`}
                            onClick={() => setEditing(editing === `listener:${id}` ? null : `listener:${id}`)}
                          />
                          <RowButton
                            verb="Delete"
                            target={`listener ${id}`}
                            onClick={() =>
                              void listenerRows.act(
                                `Delete GRE listener ${id} (${row.localAddress})?`,
                                () => call(contract.greCircuits.removeListener, { params: { id } }),
                                `GRE listener ${id} deleted.`,
                                reload,
                              )
                            }
                          />
                        </>
                      );
                    },
                  }
                : {})}
              empty="No listeners."
            />
            {editing?.startsWith("listener:") && (
              <ActionForm
                key={editing}
                operation={contract.greCircuits.putListener}
                configList="gre.listeners"
                params={{ id: editing.slice(9) }}
                current={list.find((l) => l.id === editing.slice(9)) as Record<string, unknown>}
                title={`Edit listener ${editing.slice(9)}`}
                submitLabel="Save"
                onDone={reload}
              />
            )}
            {local && can(contract.greCircuits.putListener) && (
              <Fold title="Add a listener">
                <ActionForm
                  operation={contract.greCircuits.putListener}
                  configList="gre.listeners"
                  title="Add a GRE listener"
                  onDone={reload}
                />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
    </>
  );
}
