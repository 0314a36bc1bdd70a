/** RADIUS: the server pool's health, read from the data plane. */
import { radius } from "../../src/schemas/radius.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { serves } from "./serves.ts";

export function radiusPorts(core: Pick<ApplianceCore, "dataPlane">) {
  return {
    servers: serves(radius.servers, () => core.dataPlane().model.radius.status()),
  } satisfies PortsOf<"radius">;
}
