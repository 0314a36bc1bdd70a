/**
 * Sessions: every filter of the spec, paging, newest first; a session's
 * detail with live rates, disconnect, and capture start and stop.
 */
import { useEffect, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { JsonView, Scalar } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { bitRate, count, duration } from "../format.ts";
import { navigate, searchParams } from "../router.ts";
import type { PageContext } from "./context.ts";
import { HeaderRow } from "../components/header-row.tsx";
import { Facts } from "../components/card.tsx";
import { call, type Answer } from "../api.ts";
import { can } from "../session.ts";

const PAGE_SIZE = 100;
const FILTERS = ["username", "ip", "encap", "type", "vrf", "port", "walledGarden", "plan"] as const;

export function Sessions({ ctx }: { ctx: PageContext }) {
  if (ctx.rest[0]) return <Session ctx={ctx} id={ctx.rest[0]} />;
  return <SessionTable ctx={ctx} />;
}

function SessionTable({ ctx }: { ctx: PageContext }) {
  const params = searchParams();
  const offset = Number(params.get("offset") ?? 0) || 0;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""]));
  const [draft, setDraft] = useState<Record<string, string>>(filters);
  const list = useCall(contract.sessions.list, { query: { ...filters, offset, limit: PAGE_SIZE } }, { base: ctx.base, refreshMs: 10_000 });
  const here = `${ctx.peer ? `/fleet/${encodeURIComponent(ctx.peer)}` : ""}/sessions`;
  const go = (next: Record<string, string>, nextOffset: number) => {
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v !== ""));
    if (nextOffset) q.set("offset", String(nextOffset));
    navigate(`${here}${q.size ? `?${q}` : ""}`);
  };
  return (
    <>
      <h1>Sessions</h1>
      <form
        class="filters"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          go(draft, 0);
        }}
      >
        <label>
          Username contains
          <input name="username" value={draft.username} onInput={(e) => setDraft({ ...draft, username: e.currentTarget.value })} />
        </label>
        <label>
          Address starts with
          <input name="ip" value={draft.ip} onInput={(e) => setDraft({ ...draft, ip: e.currentTarget.value })} />
        </label>
        <label>
          Encapsulation
          <select name="encap" value={draft.encap} onChange={(e) => setDraft({ ...draft, encap: e.currentTarget.value })}>
            <option value="">any</option>
            {["ipoe", "pppoe-local", "pppoe-lac", "l2tp"].map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select name="type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}>
            <option value="">any</option>
            <option>ipoe</option>
            <option>ppp</option>
          </select>
        </label>
        <label>
          VRF
          <input name="vrf" value={draft.vrf} onInput={(e) => setDraft({ ...draft, vrf: e.currentTarget.value })} />
        </label>
        <label>
          Port id
          <input name="port" inputMode="numeric" value={draft.port} onInput={(e) => setDraft({ ...draft, port: e.currentTarget.value })} />
        </label>
        <label>
          Plan
          <input name="plan" value={draft.plan} onInput={(e) => setDraft({ ...draft, plan: e.currentTarget.value })} />
        </label>
        <label>
          Walled garden
          <select name="walledGarden" value={draft.walledGarden} onChange={(e) => setDraft({ ...draft, walledGarden: e.currentTarget.value })}>
            <option value="">any</option>
            <option value="true">only walled garden</option>
            <option value="false">not walled garden</option>
          </select>
        </label>
        <button type="submit">Apply</button>
      </form>
      <Loaded resource={list}>
        {(l) => (
          <>
            <p role="status" data-testid="sessions-range">
              {l.total === 0 ? "No matching sessions" : `${count(l.offset + 1)}–${count(l.offset + l.items.length)} of ${count(l.total)}`}
            </p>
            <div class="table-wrap" tabIndex={0}>
              <table data-testid="sessions-table">
                <caption class="sr-only">Sessions, newest first</caption>
                <thead>
                  <HeaderRow columns={["Id", "Username", "Encap", "IPv4", "IPv6", "VRF", "Port", "S/C VLAN", "Plan", "Uptime"]} />
                </thead>
                <tbody>
                  {l.items.map((s) => (
                    <tr key={s.id}>
                      <td>
                        <a href={`${here}/${s.id}`}>{s.id}</a>
                      </td>
                      <td>{s.username}</td>
                      <td>{s.encap}</td>
                      <td>{s.ipv4}</td>
                      <td>{s.ipv6 || "—"}</td>
                      <td>{s.vrf}</td>
                      <td>{s.portId ?? "—"}</td>
                      <td>
                        {s.svlan}/{s.vlan}
                      </td>
                      <td>{s.plan}</td>
                      <td class="num">{duration(s.uptimeSeconds)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="pager">
              <button type="button" disabled={offset === 0} onClick={() => go(filters, Math.max(0, offset - PAGE_SIZE))}>
                Newer
              </button>
              <button type="button" disabled={offset + PAGE_SIZE >= l.total} onClick={() => go(filters, offset + PAGE_SIZE)}>
                Older
              </button>
            </div>
          </>
        )}
      </Loaded>
    </>
  );
}

function Session({ ctx, id }: { ctx: PageContext; id: string }) {
  const detail = useCall(contract.sessions.get, { params: { id } }, { base: ctx.base, refreshMs: 15_000 });
  const rates = useCall(contract.sessions.rates, { params: { id } }, { base: ctx.base, refreshMs: 10_000 });
  const [gone, setGone] = useState(false);
  // A session that ended (churn, a lease, another operator) answers 404: nothing is offered to act on it.
  const ended = !gone && detail.error?.status === 404;
  return (
    <>
      <h1>Session {id}</h1>
      <p>
        <a href={`${ctx.peer ? `/fleet/${encodeURIComponent(ctx.peer)}` : ""}/sessions`}>All sessions</a>
      </p>
      {gone || ended ? (
        <p role="status" class="notice">
          {gone ? `Session ${id} was disconnected.` : `Session ${id} has ended: it is no longer live.`}
        </p>
      ) : (
        <>
          <section class="card" aria-labelledby="rates-h">
            <h2 id="rates-h">Rates (30 s average)</h2>
            <Loaded resource={rates}>
              {(r) => (
                <p data-testid="session-rates">
                  from subscriber {bitRate(r.rxBps)} ({count(r.rxPps)} pps) · to subscriber {bitRate(r.txBps)} ({count(r.txPps)} pps) · at <Scalar value={r.timestamp} />
                </p>
              )}
            </Loaded>
          </section>
          {detail.data && <Related ctx={ctx} session={detail.data} />}
          <section class="card" aria-labelledby="detail-h">
            <h2 id="detail-h">Detail</h2>
            <Loaded resource={detail}>{(d) => <JsonView value={d} />}</Loaded>
          </section>
          {!ctx.peer && detail.data && (
            <section class="actions" aria-label="Changes">
              {detail.data?.capture ? (
                <ActionForm operation={contract.captures.stop} params={{ id }} title="Stop the capture" onDone={detail.reload} />
              ) : (
                <ActionForm operation={contract.captures.start} params={{ id }} title="Start a capture" onDone={detail.reload} />
              )}
              <ActionForm operation={contract.sessions.disconnect} params={{ id }} title="Disconnect this session" confirm={`Disconnect session ${id}?`} onDone={() => setGone(true)} showResult={false} />
            </section>
          )}
        </>
      )}
    </>
  );
}

type Detail = Answer<typeof contract.sessions.get>;

/** The L2TP tunnel a session rides (the session's detail does not name it): the tunnel whose session list holds it. */
function useTunnelOf(ctx: PageContext, session: Detail): number | null {
  const rides = session.encap === "l2tp" || session.encap === "pppoe-lac";
  const tunnels = useCall(rides && can(contract.l2tp.tunnels) ? contract.l2tp.tunnels : null, {}, { base: ctx.base });
  const [found, setFound] = useState<number | null>(null);
  const ids = tunnels.data?.tunnels.map((t) => t.localTunnelId).join(",") ?? "";
  useEffect(() => {
    if (!ids) return;
    let live = true;
    void Promise.all(ids.split(",").map((id) => call(contract.l2tp.tunnel, { params: { id: Number(id) } }, ctx.base).catch(() => null))).then((all) => {
      const tunnel = all.find((t) => t?.sessionList.some((s) => s.id === session.id));
      if (live) setFound(tunnel ? tunnel.localTunnelId : null);
    });
    return () => {
      live = false;
    };
  }, [ids, session.id, ctx.base]);
  return found;
}

/** Where the session's parts are shown: its pool, VRF, port, plan, CGN binding and L2TP tunnel. */
function Related({ ctx, session }: { ctx: PageContext; session: Detail }) {
  const prefix = ctx.peer ? `/fleet/${encodeURIComponent(ctx.peer)}` : "";
  const tunnel = useTunnelOf(ctx, session);
  const pool = session.addresses.ipv4.pool;
  const links: [string, preact.ComponentChildren][] = [
    ["VRF", <a href={`${prefix}/vrfs`}>{session.vrf}</a>],
    ...(pool ? [["Pool", <a href={`${prefix}/pools/${encodeURIComponent(pool)}`}>{pool}</a>] as [string, preact.ComponentChildren]] : []),
    ...(session.portId !== null ? [["Port", <a href={`${prefix}/system`}>{`${session.portId}${session.portLabel ? ` · ${session.portLabel}` : ""}`}</a>] as [string, preact.ComponentChildren]] : []),
    ["Plan", session.plan ? <a href={`${prefix}/sessions?plan=${encodeURIComponent(session.plan)}`} title="every session on this plan">{session.plan}</a> : "—"],
    ...(session.cgn ? [["CGN binding", <a href={`${prefix}/cgn?ip=${encodeURIComponent(session.cgn.insideIp)}`}>{`${session.cgn.publicIp} ports ${session.cgn.portBlocks.join(", ")}`}</a>] as [string, preact.ComponentChildren]] : []),
    ...(tunnel !== null ? [["L2TP tunnel", <a href={`${prefix}/l2tp/${tunnel}`}>{String(tunnel)}</a>] as [string, preact.ComponentChildren]] : []),
  ];
  return (
    <section class="card" aria-labelledby="related-h">
      <h2 id="related-h">Where it lives</h2>
      <Facts label="Related objects" items={links} />
    </section>
  );
}
