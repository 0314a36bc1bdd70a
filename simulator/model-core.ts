/**
 * The model's core, as a type: the clock, the session table, the subscribers, the pools, the logs and alarms,
 * and the offline set. The parts the model holds (L2TP tunnels, session lifetimes, local subscribers, the wire's
 * rates) act on this rather than on the Model: the Model holds them, so typed by the whole each would import
 * the file that imports it. Types only; the Model (model.ts) implements it.
 */
import type { AlarmBook } from "./alarms.ts";
import type { LeaseTimers } from "./lease-timers.ts";
import type { LogRing } from "./logs.ts";
import type { PoolDefinition } from "./pool-rules.ts";
import type { AddressPool } from "./pools.ts";
import type { Profile } from "./profile.ts";
import type { SessionStore } from "./sessions.ts";
import type { SubscriberAttrs, SubscriberBase } from "./subscribers.ts";

/** What the model's parts read and change of the model around them (model.ts documents each member). */
export interface ModelCore {
  readonly profile: Profile;
  readonly seed: number;
  readonly nowMs: number;
  readonly churnMultiplier: number;
  readonly store: SessionStore;
  readonly subscribers: SubscriberBase;
  readonly scratch: SubscriberAttrs;
  readonly logs: LogRing;
  readonly alarms: AlarmBook;
  readonly pools: readonly AddressPool[];
  readonly poolConfigs: readonly PoolDefinition[];
  readonly backAt: Uint32Array;
  readonly returns: LeaseTimers;
  readonly slotOfSub: Int32Array;
  addVrf(name: string): number;
  isAway(sub: number): boolean;
  makeReady(sub: number): void;
  awayUntil(sub: number, backMs: number): void;
}
