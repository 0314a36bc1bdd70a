/** The appliance a request addresses: as the Worker reaches it, and as handlers see it inside its object. */
import type { ApplianceDefinition } from "../../fleet-config/schema.ts";
import type { Appliance, ApplianceCore } from "../../durable-objects/appliance.ts";
import type { Env } from "../env.ts";
import type { PeerAnswer, PeerGet } from "./definition.ts";

/** What the Worker knows of the addressed appliance: its object, asked once per request (`serve`). */
export interface ApplianceTarget {
  name: string;
  definition: ApplianceDefinition;
  stub: DurableObjectStub<Appliance>;
  env: Env;
  /** True when clients reach this listener over HTTPS (cookies then carry `Secure`). */
  secure: boolean;
  /** The caller's address, for lockout per account and source IP. */
  clientIp: string;
  /** Another appliance of this deployment answers a fleet proxy's GET (in-process, or another process of a sharded local fleet, within `timeoutMs`). */
  dispatch(appliance: string, get: PeerGet, timeoutMs: number): Promise<PeerAnswer>;
}

/** The appliance as a handler sees it: handlers run inside the object, against its core. */
export interface ApplianceContext {
  name: string;
  definition: ApplianceDefinition;
  /** The object's core (its stores), called in-process; the name is the one handlers used when it was an RPC stub. */
  stub: ApplianceCore;
  env: Env;
  secure: boolean;
  clientIp: string;
}
