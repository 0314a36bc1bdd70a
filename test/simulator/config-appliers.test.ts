/**
 * Hot-apply: each configuration key names the handlers a commit changing it runs; the appliance runs each once, in a
 * fixed order.
 */
import { describe, expect, it } from "vitest";
import { APPLIERS, CONFIG_KEYS, appliersOf } from "../../src/config/registry.ts";

describe("appliersOf", () => {
  it("runs both the routing and the IPsec handler for the router id (IPsec's default local address)", () => {
    expect(appliersOf(["routing.routerId"])).toEqual(["routing", "ipsec"]);
  });

  it("runs a handler once however many of its keys changed", () => {
    expect(appliersOf(["gre.listeners", "gre.circuits", "acme.enabled", "acme.names"])).toEqual(["gre", "acme"]);
  });

  it("installs the pools before the local subscribers whose static addresses they hold", () => {
    expect(appliersOf(["subscribers.local.pppoe", "addressPools"])).toEqual(["pools", "local-subscribers"]);
  });

  it("restarts the ACME attempt when the listeners change, although they apply at restart", () => {
    expect(appliersOf(["webUi.listeners"])).toEqual(["acme"]);
  });

  it("runs nothing for keys read on demand or at the next start, nor for an unknown path", () => {
    expect(appliersOf(["vrfs", "cgn.groups", "cgn.maxBindings", "webUi.peers", "no.such.key"])).toEqual([]);
  });

  it("has every handler named by some key", () => {
    const named = new Set(CONFIG_KEYS.flatMap((key) => key.appliedBy ?? []));
    expect(APPLIERS.filter((applier) => !named.has(applier))).toEqual([]);
  });
});
