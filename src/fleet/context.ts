/** The appliance a request addresses, as the Worker reaches it. */
import type { ApplianceRpc } from "../env.ts";
import type { ApplianceDefinition } from "../../fleet-config/schema.ts";
import type { Env } from "../env.ts";
import type { PeerAnswer, PeerGet } from "./definition.ts";

/** What the Worker knows of the addressed appliance: its object, asked once per request (`call`). */
export interface ApplianceTarget {
  name: string;
  definition: ApplianceDefinition;
  stub: DurableObjectStub<ApplianceRpc>;
  env: Env;
  /** True when clients reach this listener over HTTPS (cookies then carry `Secure`). */
  secure: boolean;
  /**
   * The caller's address, for lockout per account and source IP: read off the request on the first call (most requests
   * make none).
   */
  clientIp(): string;
  /**
   * Another appliance of this deployment answers a fleet proxy's GET (in-process, or another process of a sharded local
   * fleet, within `timeoutMs`).
   */
  dispatch(appliance: string, get: PeerGet, timeoutMs: number): Promise<PeerAnswer>;
}
