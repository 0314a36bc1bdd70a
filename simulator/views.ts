/**
 * The model's read views, one per API section, each typed from the contract
 * (src/schemas/<section>.ts): a port reads `gateway.sessions.summary()`
 * straight through, with no forward in the Gateway or the data plane between
 * it and the query. A view reads the model as it is now: `model()` is asked
 * at every read, as a reboot or a reseed makes a new one. Writes (setups,
 * hot-applies, scenario actions) stay on the Gateway, which owns time.
 */
import type { AlarmsResponse } from "../src/schemas/alarms.ts";
import type { AddressPool, AddressPoolAllocationsPage } from "../src/schemas/address-pools.ts";
import type { CaptureRow } from "../src/schemas/captures.ts";
import type { CgnBindingsPage, CgnStatus } from "../src/schemas/cgn.ts";
import type { L2tpTunnel, L2tpTunnelDetail } from "../src/schemas/l2tp.ts";
import type { LicenceStatus } from "../src/schemas/licensing.ts";
import type { LogTail } from "../src/schemas/logs.ts";
import type { MetricsHistory } from "../src/schemas/metrics.ts";
import type { RadiusPoolStatus } from "../src/schemas/radius.ts";
import type { ScenarioFaults } from "../src/schemas/scenario.ts";
import type { SessionList, SessionRates, SessionSummaryCounts } from "../src/schemas/sessions.ts";
import type { BindingQuery } from "./cgn.ts";
import { bandMaxOf, licenceStatus, type LicenceTerms } from "./licence.ts";
import type { LocalKind, LocalSubscriberStatus } from "./local-subscribers.ts";
import type { Model } from "./model.ts";
import { pageWindow } from "./paging.ts";
import { SortedSubscriberRoutes, type SubscriberRouteList } from "./rib.ts";
import type { JsonText } from "./row-texts.ts";
import type { SubscriberRoute } from "./routing.ts";
import {
  detailOf,
  listSessions,
  ratesOf,
  sessionListText,
  summarise,
  type SessionDetail,
  type SessionQuery,
} from "./session-queries.ts";
import { subscriberRouteIndex } from "./subscriber-route-index.ts";
import { subscriberRoutes } from "./subscriber-routes.ts";

/** The model a view reads: asked at every read. */
type Now = () => Model;

/** Licence meter read by the licensing endpoint: the meter's part of the licence status. */
export type LicenceMeter = Pick<LicenceStatus, "meter" | "bandMax" | "currentCount" | "peakCount">;

/** Sessions: the list, the summary, one session's detail and rates, and the setups and teardowns since boot. */
export const sessionsView = (model: Now) => ({
  /** The spec's SessionList. */
  list: (query: SessionQuery = {}): SessionList => listSessions(model(), query),
  /** The spec's SessionList as JSON text, from the rows kept encoded. */
  listText: (query: SessionQuery = {}): JsonText<SessionList> => sessionListText(model(), query),
  /** The spec's SessionSummaryCounts. */
  summary: (): SessionSummaryCounts => summarise(model()),
  /** Everything known about one session. */
  detail(id: number): { ok: true; session: SessionDetail } | { ok: false; reason: "unknown-session" } {
    const m = model();
    const slot = m.store.slotOf(id);
    return slot < 0 ? { ok: false, reason: "unknown-session" } : { ok: true, session: detailOf(m, slot) };
  },
  /** Current rx/tx bps and pps of one session. */
  rates(id: number): { ok: true; rates: SessionRates } | { ok: false; reason: "unknown-session" } {
    const m = model();
    const slot = m.store.slotOf(id);
    return slot < 0 ? { ok: false, reason: "unknown-session" } : { ok: true, rates: ratesOf(m, slot) };
  },
  /** Session setups, teardowns and failed setups since the data plane booted (a reboot or reseed starts them again). */
  events: (): { setups: number; teardowns: number; failures: number } => ({ ...model().sessionEvents }),
});

/** Local subscribers as the model runs them: each with its live session, and one's session. */
export const localSubscribersView = (model: Now) => ({
  /** Every installed local subscriber with its live session id (null while offline), IPoE first, then by key. */
  list: (): LocalSubscriberStatus[] => model().locals.statuses(model()),
  /** The live session of a local subscriber. */
  session(
    kind: LocalKind,
    key: string,
  ): { ok: true; session: SessionDetail } | { ok: false; reason: "unknown-subscriber" | "offline" } {
    const m = model();
    const entry = m.locals.find(kind, key);
    if (!entry) return { ok: false, reason: "unknown-subscriber" };
    return entry.slot < 0 ? { ok: false, reason: "offline" } : { ok: true, session: detailOf(m, entry.slot) };
  },
});

/** Address pools: one AddressPool per configured pool, and a pool's allocations a page at a time. */
export const poolsView = (model: Now) => ({
  /** The spec's AddressPool array, one per configured pool. */
  list: (): AddressPool[] => model().pools.map((p) => p.view()),
  /** One pool's allocations, a page at a time (limit default 100, clamped 1-1000). */
  allocations(
    name: string,
    page: { offset?: number | null; limit?: number | null } = {},
  ): { ok: true; page: AddressPoolAllocationsPage } | { ok: false; reason: "unknown-pool" } {
    const m = model();
    const pool = m.pools.find((p) => p.name === name);
    if (!pool) return { ok: false, reason: "unknown-pool" };
    const { offset, limit } = pageWindow(page.offset, page.limit, 100, 1000);
    const { total, items } = pool.allocations(
      offset,
      limit,
      (slot) => ({
        sessionId: m.store.id[slot] ?? 0,
        username: m.usernameOf(slot),
        vrf: m.vrfNames[m.store.vrf[slot] ?? 0] ?? "default",
      }),
      (subnet, ordinal) => m.locals.staticHolder(m, pool.index, subnet, ordinal),
    );
    return { ok: true, page: { total, offset, limit, items } };
  },
});

/** CGN: the groups' status and the bindings a page at a time. */
export const cgnView = (model: Now) => ({
  /** The spec's CgnStatus. */
  status: (): CgnStatus => model().cgn.status(),
  /** The spec's CgnBindingsPage (limit default 100, clamped 1-1000). */
  bindings(query: BindingQuery = {}): CgnBindingsPage {
    const m = model();
    const { offset, limit } = pageWindow(query.offset, query.limit, 100, 1000);
    return m.cgn.bindings(query, offset, limit, m.usernameOf);
  },
});

/** RADIUS: the server pool's status. */
export const radiusView = (model: Now) => ({
  /** The spec's RADIUS pool status. */
  status: (): RadiusPoolStatus => model().radius.status(),
});

/** Metrics: the history of a range. */
export const metricsView = (model: Now) => ({
  /** The spec's Metrics history for `1h`, `6h` or `24h` (anything else falls back to `1h`). */
  history: (range?: string | null): MetricsHistory => model().metrics.history(range, model().profile.ports),
});

/** Logs: the ring's tail. */
export const logsView = (model: Now) => ({
  /** The spec's LogTail. */
  tail: (query: { count?: number | null; sinceSeq?: number | null } = {}): LogTail => model().logs.tail(query),
});

/** Alarms: the active ones with their counts. */
export const alarmsView = (model: Now) => ({
  /** The spec's AlarmsResponse. */
  list: (): AlarmsResponse => model().alarms.view(model().nowMs),
});

/** Captures: one row per mirrored session. */
export const capturesView = (model: Now) => ({
  list: (): CaptureRow[] => model().captures.list(model().nowMs),
});

/** L2TP: the tunnels, and one tunnel's detail. */
export const l2tpView = (model: Now) => ({
  /** The spec's tunnel list: downstream first, then by local tunnel id. */
  tunnels: (): { tunnels: L2tpTunnel[] } => ({ tunnels: model().l2tp.list() }),
  /** The spec's L2tpTunnelDetail of one tunnel, by local tunnel id. */
  tunnel(localTunnelId: number): { ok: true; tunnel: L2tpTunnelDetail } | { ok: false; reason: "unknown-tunnel" } {
    const tunnel = model().l2tp.detail(model(), localTunnelId);
    return tunnel ? { ok: true, tunnel } : { ok: false, reason: "unknown-tunnel" };
  },
});

/** Licensing: the sessions meter, the status at the simulated now, and the terms in force. */
export const licenceView = (model: Now) => {
  const meter = (): LicenceMeter => {
    const m = model();
    return {
      meter: "sessions",
      bandMax: bandMaxOf(m.licence, m.profile.population.licensedSessions),
      currentCount: m.store.liveCount,
      peakCount: m.peakSessions,
    };
  };
  return {
    /** The sessions licence meter: the band is the licence's (the platform capacity in dev mode). */
    meter,
    /** The spec's licence status at the simulated now. */
    status: (): LicenceStatus => licenceStatus(model().licence, meter(), model().nowMs),
    /** The licence terms in force (what `setLicence` installed last). */
    terms: (): LicenceTerms => ({ ...model().licence }),
  };
};

/** Scenario control: the faults its actions left in force. */
export const faultsView = (model: Now) => ({
  /**
   * What `set-churn-multiplier` and `fail-daemon` set that nothing has undone (a reseed starts a model with neither).
   */
  inForce: (): ScenarioFaults => ({
    churnMultiplier: model().churnMultiplier,
    failedDaemons: [...model().daemonsDown].sort(),
  }),
});

/** The routes live sessions put in a VRF's table (`default` = the global table). */
export const subscriberRoutesView = (model: Now) => ({
  list: (vrf: string, family: 4 | 6 | null = null): SubscriberRoute[] => subscriberRoutes(model(), vrf, family),
  /**
   * The same routes in table order, for paging: numbers read from the holder tables, sorted objects only where that
   * order needs a sort.
   */
  table: (vrf: string, family: 4 | 6 | null = null): SubscriberRouteList =>
    subscriberRouteIndex(model(), vrf, family) ?? new SortedSubscriberRoutes(subscriberRoutes(model(), vrf, family)),
});

/**
 * Every section's read view by the name the Gateway shows it under (`gateway.sessions`, `gateway.pools`, …): a new
 * section's view is one line here.
 */
const VIEWS = {
  sessions: sessionsView,
  localSubscribers: localSubscribersView,
  pools: poolsView,
  cgn: cgnView,
  radius: radiusView,
  metrics: metricsView,
  logs: logsView,
  alarms: alarmsView,
  captures: capturesView,
  l2tp: l2tpView,
  licence: licenceView,
  subscriberRoutes: subscriberRoutesView,
  faults: faultsView,
} as const;

/** The model's read views, one per section. */
export type ModelViews = { readonly [S in keyof typeof VIEWS]: ReturnType<(typeof VIEWS)[S]> };

/** Every view over one model (asked at each read). */
export const viewsOf = (model: Now): ModelViews =>
  Object.fromEntries(Object.entries(VIEWS).map(([section, view]) => [section, view(model)])) as ModelViews;
