import { startFleet } from "bngfleet";

/**
 * Starts two appliances over plain HTTP (from port 8443, or BNG_PORT_BASE) and hands their URLs and token to the tests.
 */
export default async function setup({ provide }) {
  // steady-state: five simulated minutes run at once, so every subscriber is online from the first test.
  const fleet = await startFleet({ appliances: 2, http: true, scenario: "steady-state" });
  provide("fleet", { appliances: fleet.appliances, token: fleet.token });
  return () => fleet.stop();
}
