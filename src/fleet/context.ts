/** The appliance a request addresses, as the handlers see it. */
import type { ApplianceDefinition } from "../../fleet-config/schema.ts";
import type { Appliance } from "../../durable-objects/appliance.ts";
import type { Env } from "../env.ts";

export interface ApplianceContext {
  name: string;
  definition: ApplianceDefinition;
  stub: DurableObjectStub<Appliance>;
  env: Env;
  /** True when clients reach this listener over HTTPS (cookies then carry `Secure`). */
  secure: boolean;
  /** The caller's address, for lockout per account and source IP. */
  clientIp: string;
  /** Serves a request as another appliance of this deployment would (the fleet proxy's in-process path). */
  dispatch(appliance: string, request: Request): Promise<Response>;
}
