import { abortAllDurableObjects, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "./client.ts";
import { admin, commit, getConfig, history, itemOf } from "./config-client.ts";

describe("seeding a fresh appliance", () => {
  it("takes listener, hostname and peers from the fleet definition", async () => {
    const config = await getConfig();
    expect(config.fields["webUi.listeners"]).toBe("https://127.0.0.1:8443");
    expect(config.fields["webUi.hostname"]).toBe("edge-1.bng.localhost");
    expect(config.fields["captures.mirrorAllowlist"]).toBe("");
    expect(config.lists["webUi.peers"]).toEqual([
      {
        key: "edge-2",
        values: { url: "https://edge-2.bng.localhost:8444", credential: "********", timeoutMs: "10000" },
      },
      {
        key: "edge-3",
        values: { url: "https://edge-3.bng.localhost:8445", credential: "********", timeoutMs: "10000" },
      },
    ]);
  });

  it("takes VRFs, RADIUS servers and CGN caps from the simulation profile", async () => {
    const config = await getConfig();
    expect(config.lists.vrfs!.map((v) => [v.key, v.values.tableId])).toEqual([
      ["cgn-inside", "100"],
      ["wholesale", "101"],
    ]);
    expect(config.lists["radius.servers"]).toEqual([
      {
        key: "radius-1.isp.example:1812",
        values: { weight: "100", secret: null, transport: "simulated", accountingPort: null },
      },
      {
        key: "radius-2.isp.example:1812",
        values: { weight: "100", secret: null, transport: "simulated", accountingPort: null },
      },
    ]);
    expect([config.fields["cgn.maxBindings"], config.fields["cgn.maxFlows"]]).toEqual(["3000", "400000"]);
    expect(config.fields["ipsec.enabled"]).toBe("false");
    expect(config.lists.sourceVrfRules).toEqual([]);
  });

  it("gives each appliance its own document", async () => {
    expect((await getConfig("edge-2")).fields["webUi.hostname"]).toBe("edge-2.bng.localhost");
  });
});

// A property set on the running instance: gone once the object has really restarted.
const mark = () =>
  runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => void Object.assign(instance, { marked: true }));
const marked = () => runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => "marked" in instance);

describe("persistence", () => {
  it("keeps the document, its version and its history across an abrupt restart", async () => {
    await commit({
      listOps: [{ listPath: "vrfs", key: "cust-a", fields: { tableId: "300", rd: "65000:300" } }],
      comment: "before the crash",
    });
    const before = await getConfig();
    await mark();
    await abortAllDurableObjects();
    expect(await marked()).toBe(false);
    expect(await getConfig()).toEqual(before);
    const { total, items } = await history();
    expect(total).toBe(2);
    expect(items[0]).toMatchObject({ version: 2, comment: "before the crash" });
    expect((await commit({ fields: { "cgn.maxFlows": "1" } })).version).toBe(3);
  });

  it("keeps it across an eviction, without seeding again", async () => {
    await commit({ fields: { "webUi.hostname": null } });
    await mark();
    await evictDurableObject(env.Appliance.getByName("edge-1"));
    expect(await marked()).toBe(false);
    const config = await getConfig();
    expect(config.fields["webUi.hostname"]).toBeNull();
    expect(itemOf(config, "vrfs", "cgn-inside")).toBeDefined();
    expect((await call("/api/v1/config/history", { headers: admin })).status).toBe(200);
    expect((await history()).total).toBe(2);
  });
});
