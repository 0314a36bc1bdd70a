/**
 * L2TP: the tunnels with their state in colour; a tunnel (its row, or the
 * deep link `/l2tp/<local tunnel id>` a session's page gives) opens its
 * detail and the sessions riding it, each linked to its session.
 */
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { navigate } from "../router.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { Card, Facts } from "../components/card.tsx";
import { RowButton } from "../components/row-action.tsx";
import { Scalar } from "../components/json-view.tsx";
import { utc, duration } from "../format.ts";
import type { PageContext } from "./context.ts";

export function L2tp({ ctx }: { ctx: PageContext }) {
  const tunnels = useCall(contract.l2tp.tunnels, {}, { base: ctx.base, refreshMs: 10_000 });
  const here = `${ctx.base}/l2tp`;
  const open = ctx.rest[0] ?? null;
  return (
    <>
      <h1>L2TP tunnels</h1>
      <Loaded resource={tunnels}>
        {(t) => (
          <Card
            id="tunnels"
            title="Tunnels"
            aside={`${t.tunnels.filter((x) => x.state === "established").length} of ${t.tunnels.length} established`}
          >
            <RecordTable
              caption="L2TP tunnels"
              csvName="l2tp-tunnels"
              rows={t.tunnels.map((x) => ({
                localTunnelId: x.localTunnelId,
                direction: x.direction,
                peerTunnelId: x.peerTunnelId || null,
                peerIp: x.peerIp,
                peerHostname: x.peerHostname,
                peerVendor: x.peerVendor,
                state: x.state,
                sessions: x.sessions,
              }))}
              labels={{
                localTunnelId: "Tunnel ID",
                peerTunnelId: "Peer tunnel ID",
                peerIp: "Peer address",
                peerHostname: "Peer host name",
              }}
              rowAction={(row) => (
                <RowButton
                  verb="Sessions"
                  target={`of tunnel ${row.localTunnelId}`}
                  pressed={open === String(row.localTunnelId)}
                  onClick={() => navigate(open === String(row.localTunnelId) ? here : `${here}/${row.localTunnelId}`)}
                />
              )}
              empty="No L2TP tunnels."
            />
          </Card>
        )}
      </Loaded>
      {open !== null && <Tunnel ctx={ctx} id={open} />}
    </>
  );
}

function Tunnel({ ctx, id }: { ctx: PageContext; id: string }) {
  const detail = useCall(contract.l2tp.tunnel, { params: { id: Number(id) } }, { base: ctx.base, refreshMs: 10_000 });
  const prefix = ctx.base;
  return (
    <Loaded resource={detail}>
      {(d) => (
        <Card
          id="tunnel"
          title={`Tunnel ${d.localTunnelId}`}
          aside={`${d.direction}, ${d.peerHostname ?? d.peerIp ?? "peer unknown"}`}
        >
          <Facts
            label={`Tunnel ${d.localTunnelId}`}
            items={[
              ["State", <Scalar value={d.state} name="state" />],
              ["Local end", d.localEndpoint ?? "—"],
              ["Peer", `${d.peerIp ?? "—"}${d.peerPort ? `:${d.peerPort}` : ""}`],
              ["VRF", d.vrfName ?? "default"],
              ["Up for", d.uptimeSeconds === null ? "—" : duration(d.uptimeSeconds)],
              ["Created", d.createdUtc ? utc(d.createdUtc) : "—"],
              ["Last session change", d.lastActivityUtc ? utc(d.lastActivityUtc) : "—"],
            ]}
          />
          <RecordTable
            caption={`Sessions in tunnel ${d.localTunnelId}`}
            dense
            rows={d.sessionList.map((s) => ({
              session: s.id,
              username: s.username,
              encap: s.encap,
              ipv4: s.ipv4,
              ipv6: s.ipv6 || null,
              localSessionId: s.localSessionId,
              peerSessionId: s.peerSessionId,
              uptimeSeconds: s.uptimeSeconds,
            }))}
            labels={{ localSessionId: "L2TP session ID", peerSessionId: "Peer's ID", uptimeSeconds: "Up for" }}
            cells={{ session: (row) => <a href={`${prefix}/sessions/${row.session}`}>{String(row.session)}</a> }}
            empty="No sessions ride this tunnel."
          />
        </Card>
      )}
    </Loaded>
  );
}
