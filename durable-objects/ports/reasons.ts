/**
 * The simulator's failure reasons as the API's refusals, in one table: each
 * reason the model gives (`{ ok: false, reason: "unknown-session" }`) has one
 * refusal kind and one sentence, made from what the port knows of the request
 * (the session id, the pool's name). `Reason` is read from the model's own
 * result types, so a reason the simulator gains is a compile error here until
 * it has its row, and a port cannot pass one the table lacks.
 */
import type { Gateway, LocalKind, ModelViews } from "../../simulator/index.ts";
import { refuse, type Refusal } from "../../src/schemas/outcome.ts";

/** Why a call into the model failed, as its result names it. */
type FailureOf<F> = F extends (...args: never[]) => infer R
  ? Awaited<R> extends infer A
    ? A extends { ok: false; reason: infer Why }
      ? Why
      : never
    : never
  : never;

/** Every reason the model gives for a failure an API answer reports (the calls of the ports and the scenario). */
export type Reason =
  | FailureOf<ModelViews["sessions"]["detail"]>
  | FailureOf<ModelViews["sessions"]["rates"]>
  | FailureOf<Gateway["disconnect"]>
  | FailureOf<ModelViews["localSubscribers"]["session"]>
  | FailureOf<ModelViews["pools"]["allocations"]>
  | FailureOf<ModelViews["l2tp"]["tunnel"]>
  | FailureOf<Gateway["identifyBinding"]>
  | FailureOf<Gateway["startCapture"]>
  | FailureOf<Gateway["stopCapture"]>
  | FailureOf<Gateway["inject"]>
  | FailureOf<Gateway["ping"]>
  | FailureOf<Gateway["scenario"]>
  | FailureOf<Gateway["advanceClock"]>;

/** A row: the refusal's kind and its sentence from the port's context; a bad field is named by its JSON pointer. */
type Row =
  | { kind: "not-found" | "conflict" | "invalid"; detail: (context: never) => string }
  | { kind: "invalid"; detail: (context: never) => string; pointer: string };

/** A scenario action's target, which names what the running profile holds (not a configured item). */
type InProfile = { inProfile: true };
const inProfile = (what: string) => `no such ${what} in this appliance's profile`;

/** A local subscriber's identity in the URL (`/local-subscribers/{kind}/{key}/session`). */
type LocalKey = { kind: LocalKind; key: string };

const REFUSALS = {
  "unknown-session": { kind: "not-found", detail: (c: { sessionId: number }) => `no session ${c.sessionId}` },
  "unknown-subscriber": {
    kind: "not-found",
    detail: (c: LocalKey) => `no local ${c.kind} subscriber '${c.key}'`,
  },
  offline: {
    kind: "not-found",
    detail: (c: LocalKey) =>
      `local ${c.kind} subscriber '${c.key}' has no live session (offline; it connects ` +
      `within a sub-step of being configured, and retries every minute when it cannot)`,
  },
  "unknown-pool": {
    kind: "not-found",
    detail: (c: { pool: string } | InProfile) => ("pool" in c ? `no address pool '${c.pool}'` : inProfile("pool")),
  },
  "unknown-group": { kind: "not-found", detail: () => inProfile("group") },
  "unknown-server": { kind: "not-found", detail: () => inProfile("server") },
  "unknown-peer": { kind: "not-found", detail: () => inProfile("peer") },
  "fill-too-large": {
    kind: "invalid",
    detail: () => "the fill would reserve more blocks than one action may (2,097,152)",
  },
  "unknown-tunnel": {
    kind: "not-found",
    detail: (c: { localTunnelId: number }) => `no L2TP tunnel with local tunnel id ${c.localTunnelId}`,
  },
  "unknown-binding": { kind: "not-found", detail: (c: { bindingIndex: number }) => `no CGN binding ${c.bindingIndex}` },
  "not-auto-learned": {
    kind: "conflict",
    detail: (c: { bindingIndex: number }) =>
      `binding ${c.bindingIndex} is not auto-learned; only anonymous auto-learned bindings can be identified`,
  },
  "already-capturing": {
    kind: "conflict",
    detail: (c: { sessionId: number }) => `session ${c.sessionId} already has an active capture`,
  },
  // The port checks the destination and the limits' schema first: these two answer only a request that slipped past.
  "invalid-destination": { kind: "invalid", detail: () => "the capture request is invalid (invalid-destination)" },
  "invalid-limit": { kind: "invalid", detail: () => "the capture request is invalid (invalid-limit)" },
  "not-capturing": {
    kind: "not-found",
    detail: (c: { sessionId: number }) => `session ${c.sessionId} has no active capture`,
  },
  "unknown-port": {
    kind: "invalid",
    detail: (c: { port: number; ports: readonly number[] }) =>
      `port ${c.port} is not a data-plane port of this appliance (ports: ${c.ports.join(", ")})`,
    pointer: "#/port",
  },
  "bad-source": {
    kind: "invalid",
    detail: (c: { source: string }) => `source '${c.source}' is not an IP address`,
    pointer: "#/source",
  },
  "bad-destination": {
    kind: "invalid",
    detail: (c: { destination: string }) => `destination '${c.destination}' is not an IP address`,
    pointer: "#/destination",
  },
  "family-mismatch": {
    kind: "invalid",
    detail: () => "destination must be of the same address family as source",
    pointer: "#/destination",
  },
} satisfies Record<Reason, Row>;

/** What a row's sentence is made from; a fixed sentence needs nothing. */
type ContextOf<F> = F extends () => string ? object : F extends (context: infer C) => string ? C : never;
/** What a call that can fail for any of the reasons `R` passes: what each of their sentences needs, at once. */
type ContextFor<R extends Reason> = (
  R extends unknown
    ? (context: ContextOf<(typeof REFUSALS)[R]["detail"]>) => void
    : never
) extends (context: infer All) => void
  ? All
  : never;

/** The refusal that answers the model's failure, its sentence made from `context`. */
export function refusalFor<R extends Reason>(failure: { reason: R }, context: ContextFor<R>): Refusal {
  const row: Row = REFUSALS[failure.reason];
  const detail = (row.detail as (context: unknown) => string)(context);
  return "pointer" in row ? refuse("invalid", detail, { pointer: row.pointer }) : refuse(row.kind, detail);
}
