/**
 * A GRE circuit's BGP session is the routing daemon's (spec: the circuit's
 * bgpState follows the routing daemon): with the daemon failed it is not
 * Established, the circuit is down and no prefix is received; revived, the
 * session is Established again. A circuit without BGP does not care.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { GreStatus } from "../../src/schemas/gre-circuits.ts";
import { advance, get, scenario, send } from "./helpers.ts";

type Status = z.output<typeof GreStatus>;
const byId = async () =>
  Object.fromEntries((await get<Status>("/api/v1/gre-circuits/status")).circuits.map((c) => [c.id, c]));

describe("GRE circuits and the routing daemon", () => {
  it(
    "drops the circuit's BGP session while the routing daemon is down, and brings it " + "back when it returns",
    async () => {
      expect((await send("PUT", "/api/v1/gre-circuits/listeners/gw1", { localAddress: "192.0.2.10" })).status).toBe(
        200,
      );
      const circuit = {
        listenerId: "gw1",
        vrf: "wholesale",
        remote: "203.0.113.7",
        localTunnelAddress: "10.255.0.1/30",
        remoteTunnelAddress: "10.255.0.2/30",
      };
      expect((await send("POST", "/api/v1/gre-circuits", { id: "with-bgp", ...circuit, peerAsn: 64512 })).status).toBe(
        200,
      );
      expect(
        (
          await send("POST", "/api/v1/gre-circuits", {
            id: "static",
            ...circuit,
            remote: "203.0.113.8",
            localTunnelAddress: "10.255.0.5/30",
            remoteTunnelAddress: "10.255.0.6/30",
          })
        ).status,
      ).toBe(200);
      // Provisioning (20-60 s) and BGP (5-30 s later) are done well within ten minutes.
      await advance(600);
      const before = await byId();
      expect(before["with-bgp"]).toMatchObject({ circuitState: "up", bgpState: "Established" });
      expect(before["with-bgp"]!.prefixesReceived).toBeGreaterThan(0);

      await scenario({ action: "fail-daemon", daemon: "routing" });
      const failed = await byId();
      expect(failed["with-bgp"]).toMatchObject({
        circuitState: "down",
        tunnelState: "up",
        bgpState: "Idle",
        prefixesReceived: 0,
      });
      expect(failed["static"]).toEqual(before["static"]);

      await scenario({ action: "revive-daemon", daemon: "routing" });
      expect((await byId())["with-bgp"]).toMatchObject({ circuitState: "up", bgpState: "Established" });
    },
  );
});
