/**
 * One session, designed for the question a NOC hears on the phone: "what is
 * this subscriber doing?". Who it is (username, realm, MAC, how it was
 * authenticated, its plan and rates), its addresses (with their pools, the
 * CGN binding), where it lives (port by name, VLANs, VRF, steering, L2TP
 * tunnel), its traffic now in both directions against the plan with a chart
 * since the page opened, and what can be done to it (capture, disconnect).
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { contract } from "bngfleet:contract";
import { call, type Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { TimeChart, colour } from "../components/chart.tsx";
import { duration, utc } from "../format.ts";
import { planRatesText, trafficOf } from "./session-figures.ts";
import type { PageContext } from "./context.ts";
import type { AssignedPrefix } from "../../src/schemas/sessions.ts";

type Detail = Answer<typeof contract.sessions.get>;
type Rates = Answer<typeof contract.sessions.rates>;

/** Rate samples kept for the chart: 30 s apart, an hour of them. */
const KEEP_SAMPLES = 120;

const ENCAP_WORDS: Record<string, string> = {
  ipoe: "IPoE",
  "pppoe-local": "PPPoE, terminated here",
  "pppoe-lac": "PPPoE, tunnelled to an LNS (LAC)",
  l2tp: "L2TP, terminated here (LNS)",
};

/** A term and its value; the value wraps anywhere (a /56 or `radius-2.isp.example:1812` stays in its box). */
function Item({ term, children, testid }: { term: string; children: ComponentChildren; testid?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testid}>{children}</dd>
    </div>
  );
}

/** The L2TP tunnel a session rides (the session's detail does not name it): the tunnel whose session list holds it. */
function useTunnelOf(ctx: PageContext, session: Detail | undefined): number | null {
  const rides = session?.encap === "l2tp" || session?.encap === "pppoe-lac";
  const tunnels = useCall(rides && can(contract.l2tp.tunnels) ? contract.l2tp.tunnels : null, {}, { base: ctx.base });
  const [found, setFound] = useState<number | null>(null);
  const ids = tunnels.data?.tunnels.map((t) => t.localTunnelId).join(",") ?? "";
  const id = session?.id;
  useEffect(() => {
    if (!ids || id === undefined) return;
    let live = true;
    void Promise.all(
      ids.split(",").map((t) => call(contract.l2tp.tunnel, { params: { id: Number(t) } }, ctx.base).catch(() => null)),
    ).then((all) => {
      const tunnel = all.find((t) => t?.sessionList.some((s) => s.id === id));
      if (live) setFound(tunnel ? tunnel.localTunnelId : null);
    });
    return () => {
      live = false;
    };
  }, [ids, id, ctx.base]);
  return found;
}

/** The rates read since the page opened, one sample per load interval (the API renews them every 30 s). */
function useRateSamples(rates: Rates | undefined): Rates[] {
  const [samples, setSamples] = useState<Rates[]>([]);
  useEffect(() => {
    if (!rates) return;
    setSamples((old) =>
      old.some((s) => s.timestamp === rates.timestamp) ? old : [...old, rates].slice(-KEEP_SAMPLES),
    );
  }, [rates?.timestamp]);
  return samples;
}

export function Session({ ctx, id }: { ctx: PageContext; id: string }) {
  const detail = useCall(contract.sessions.get, { params: { id } }, { base: ctx.base, refreshMs: 15_000 });
  const rates = useCall(contract.sessions.rates, { params: { id } }, { base: ctx.base, refreshMs: 10_000 });
  const [gone, setGone] = useState(false);
  const tunnel = useTunnelOf(ctx, detail.data);
  const samples = useRateSamples(rates.data);
  const prefix = ctx.base;
  // A session that ended (churn, a lease, another operator) answers 404: nothing is offered to act on it.
  const ended = !gone && detail.error?.status === 404;
  const s = detail.data;
  return (
    <>
      <h1>
        Session {id}
        {s && !gone && !ended && <span class="subtitle"> · {s.username}</span>}
      </h1>
      <p class="crumbs">
        <a href={`${prefix}/sessions`}>All sessions</a>
        {s && !gone && !ended && (
          <>
            {" · "}
            <a href={`/search?q=${encodeURIComponent(s.username)}`}>Find this subscriber across the fleet</a>
          </>
        )}
      </p>
      {gone || ended ? (
        <p role="status" class="notice">
          {gone ? `Session ${id} was disconnected.` : `Session ${id} has ended: it is no longer live.`}
        </p>
      ) : (
        <Loaded resource={detail}>
          {(d) => (
            <>
              <p class="headline" data-testid="session-headline">
                <span class="tone-good">up</span> for {duration(d.uptimeSeconds)}, since {utc(d.startedUtc)} ·{" "}
                {ENCAP_WORDS[d.encap] ?? d.encap}
                {d.walledGarden && <span class="tone-warn"> · in the walled garden</span>}
              </p>
              <div class="grid session-grid">
                <section class="card" aria-labelledby="who-h">
                  <h2 id="who-h">Subscriber</h2>
                  <dl class="facts-list">
                    <Item term="Username">{d.username}</Item>
                    <Item term="Realm">{d.realm || "—"}</Item>
                    <Item term="MAC">{d.mac}</Item>
                    <Item term="Authenticated by">
                      {d.aaa.method === "local" ? (
                        <a href={`${prefix}/local-subscribers`}>this appliance (local subscriber)</a>
                      ) : (
                        <>
                          RADIUS
                          {d.aaa.server && (
                            <>
                              {" "}
                              at <a href={`${prefix}/radius`}>{d.aaa.server}</a>
                            </>
                          )}
                        </>
                      )}
                    </Item>
                    <Item term="Plan" testid="session-plan">
                      {d.plan ? (
                        <a
                          href={`${prefix}/sessions?plan=${encodeURIComponent(d.plan)}`}
                          title="every session on this plan"
                        >
                          {d.plan}
                        </a>
                      ) : (
                        "none"
                      )}
                      <span class="block" data-testid="plan-rates">
                        {planRatesText(d.planRates)}
                      </span>
                    </Item>
                    <Item term="Lease expires">{d.leaseExpiresUtc ? utc(d.leaseExpiresUtc) : "no lease (PPP)"}</Item>
                  </dl>
                </section>
                <section class="card" aria-labelledby="addresses-h">
                  <h2 id="addresses-h">Addresses</h2>
                  <dl class="facts-list">
                    <Item term="IPv4">
                      {d.addresses.ipv4.address}
                      <Pool base={prefix} from={d.addresses.ipv4} />
                    </Item>
                    {d.cgn && (
                      <Item term="Translated to" testid="session-cgn">
                        <a href={`${prefix}/cgn?ip=${encodeURIComponent(d.cgn.insideIp)}`}>{d.cgn.publicIp}</a>
                        <span class="block muted">
                          ports {d.cgn.portBlocks.join(", ")} (CGN group {d.cgn.group})
                        </span>
                      </Item>
                    )}
                    <Item term="IPv6 WAN">
                      {d.addresses.ipv6Wan ? (
                        <>
                          {d.addresses.ipv6Wan.prefix}
                          <Pool base={prefix} from={d.addresses.ipv6Wan} />
                        </>
                      ) : (
                        "none"
                      )}
                    </Item>
                    <Item term="Delegated prefix">
                      {d.addresses.ipv6Pd ? (
                        <>
                          {d.addresses.ipv6Pd.prefix}
                          <Pool base={prefix} from={d.addresses.ipv6Pd} />
                        </>
                      ) : (
                        "none"
                      )}
                    </Item>
                  </dl>
                </section>
                <section class="card" aria-labelledby="where-h">
                  <h2 id="where-h">Where it lives</h2>
                  <dl class="facts-list">
                    <Item term="Port" testid="session-port">
                      {d.portId === null ? (
                        "none (terminated from an L2TP tunnel)"
                      ) : (
                        <a href={`${prefix}/system`}>{d.portLabel ?? `port ${d.portId}`}</a>
                      )}
                    </Item>
                    <Item term="S-VLAN / C-VLAN">
                      {d.svlan} / {d.vlan}
                    </Item>
                    <Item term="VRF">
                      <a href={`${prefix}/vrfs`}>{d.vrf}</a>
                    </Item>
                    {d.steering && (
                      <Item term="Steered">
                        into VRF {d.steering.targetVrf} by rule {d.steering.rule}
                      </Item>
                    )}
                    {tunnel !== null && (
                      <Item term="L2TP tunnel">
                        <a href={`${prefix}/l2tp/${tunnel}`}>{String(tunnel)}</a>
                      </Item>
                    )}
                  </dl>
                </section>
              </div>
              <Traffic detail={d} rates={rates.data ?? d.rates} samples={samples} />
              {!ctx.peer && <SessionActions id={id} detail={d} reload={detail.reload} onGone={() => setGone(true)} />}
            </>
          )}
        </Loaded>
      )}
    </>
  );
}

/** The pool (and subnet) an address or prefix came from, linked to the pool's page. */
function Pool({ base, from }: { base: string; from: Pick<AssignedPrefix, "pool" | "subnet"> }) {
  if (!from.pool) return <span class="block muted">outside every pool</span>;
  return (
    <span class="block muted">
      from pool <a href={`${base}/pools/${encodeURIComponent(from.pool)}`}>{from.pool}</a>
      {from.subnet ? `, subnet ${from.subnet}` : ""}
    </span>
  );
}

/** Both directions now and against the plan, the counters, and the rates since the page opened. */
function Traffic({ detail, rates, samples }: { detail: Detail; rates: Rates; samples: Rates[] }) {
  const figures = trafficOf(detail.counters, rates, detail.planRates);
  const times = useMemo(() => samples.map((s) => s.timestamp), [samples]);
  const series = useMemo(
    () => [
      { label: "Download", values: samples.map((s) => s.txBps), color: colour(0) },
      { label: "Upload", values: samples.map((s) => s.rxBps), color: colour(1) },
    ],
    [samples],
  );
  return (
    <section class="card" aria-labelledby="traffic-h">
      <h2 id="traffic-h">
        Traffic <span class="aside">30 s average at {utc(rates.timestamp)}; counters since the session came up</span>
      </h2>
      <div class="table-wrap">
        <table data-testid="session-traffic">
          <caption>Traffic by direction</caption>
          <thead>
            <tr>
              <th scope="col">Direction</th>
              <th scope="col" class="num">
                Rate
              </th>
              <th scope="col" class="num">
                Packets/s
              </th>
              <th scope="col">Of the plan's rate</th>
              <th scope="col" class="num">
                Bytes
              </th>
              <th scope="col" class="num">
                Packets
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.map((f) => (
              <tr key={f.direction} data-direction={f.direction}>
                <th scope="row">
                  {f.direction} <span class="muted">({f.towards})</span>
                </th>
                <td class="num" data-field="rate">
                  {f.rate}
                </td>
                <td class="num" data-field="packetRate">
                  {f.packetRate}
                </td>
                <td>
                  {f.planShare === null ? (
                    <span class="muted">no plan rate</span>
                  ) : (
                    <span class="pct">
                      <meter min={0} max={100} low={80} high={95} optimum={0} value={f.planShare} aria-hidden="true" />
                      <span class="num">
                        {f.planShare.toFixed(f.planShare < 10 ? 1 : 0)} % of {f.planRate}
                      </span>
                    </span>
                  )}
                </td>
                <td class="num" data-field="bytes">
                  {f.bytes}
                </td>
                <td class="num" data-field="packets">
                  {f.packets}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {samples.length >= 2 ? (
        <TimeChart title="Rates since this page opened" times={times} series={series} unit="bps" />
      ) : (
        <p class="muted">The chart of its rates fills in while this page is open: a new average every 30 s.</p>
      )}
    </section>
  );
}

/** Capture and disconnect, for a role that may; a capture in progress shows its collector and limits. */
function SessionActions({
  id,
  detail,
  reload,
  onGone,
}: {
  id: string;
  detail: Detail;
  reload: () => void;
  onGone: () => void;
}) {
  const capture = detail.capture;
  if (!can(contract.sessions.disconnect) && !can(contract.captures.start)) return null;
  return (
    <section class="actions session-actions" aria-label="Actions">
      {capture ? (
        <ActionForm
          operation={contract.captures.stop}
          params={{ id }}
          title="Capture in progress"
          submitLabel="Stop the capture"
          onDone={reload}
          showResult={false}
        >
          <p>
            Mirroring to {capture.destinationIp} since {utc(capture.startedUtc)},{" "}
            {capture.maxPackets ? `up to ${capture.maxPackets} packets` : "no packet limit"},{" "}
            {capture.maxDurationSeconds ? `for at most ${duration(capture.maxDurationSeconds)}` : "no time limit"}.
          </p>
        </ActionForm>
      ) : (
        <ActionForm
          operation={contract.captures.start}
          params={{ id }}
          title="Capture its packets"
          submitLabel="Start the capture"
          hints={{
            destinationIp: "The GRE collector the packets are mirrored to.",
            maxPackets: "Stops after this many packets; empty or 0: no limit.",
            maxDurationSeconds: "Stops after this many seconds; empty or 0: no limit.",
          }}
          labels={{
            destinationIp: "Collector address",
            maxPackets: "Packet limit",
            maxDurationSeconds: "Time limit (seconds)",
          }}
          onDone={reload}
          showResult={false}
        />
      )}
      <ActionForm
        operation={contract.sessions.disconnect}
        params={{ id }}
        title="Disconnect"
        submitLabel="Disconnect this session"
        confirm={`Disconnect session ${id} (${detail.username})? Its addresses return to their pools.`}
        onDone={onGone}
        showResult={false}
      >
        <p class="muted">Ends the session now; the subscriber's equipment usually reconnects at once.</p>
      </ActionForm>
    </section>
  );
}
