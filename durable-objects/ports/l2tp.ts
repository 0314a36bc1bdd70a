/** L2TP: the tunnels, and one tunnel with its sessions. */
import { l2tp } from "../../src/schemas/l2tp.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { refusalFor } from "./reasons.ts";
import { serves } from "./serves.ts";

export function l2tpPorts(core: Pick<ApplianceCore, "dataPlane">) {
  const dataPlane = () => core.dataPlane();
  return {
    tunnels: serves(l2tp.tunnels, () => dataPlane().model.l2tp.tunnels()),
    tunnel: serves(l2tp.tunnel, (_, { params }) => {
      const found = dataPlane().model.l2tp.tunnel(params.id);
      return found.ok ? found.tunnel : refusalFor(found, { localTunnelId: params.id });
    }),
  } satisfies PortsOf<"l2tp">;
}
