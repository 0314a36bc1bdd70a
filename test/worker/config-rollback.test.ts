import { describe, expect, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, commit, getConfig, history, itemOf, storedDocument } from "./config-client.ts";

const rollback = (body: unknown) => call("/api/v1/config/rollback", json("POST", body, admin));

describe("rollback", () => {
  it("restores the document as it was right after a version, as a commit of its own", async () => {
    const seeded = await getConfig();
    await commit({ listOps: [{ listPath: "vrfs", key: "cust-a", fields: { tableId: "300" } }] }); // v2
    await commit({
      fields: { "webUi.hostname": "renamed.example.net" },
      listOps: [{ listPath: "vrfs", key: "cust-b", fields: { tableId: "301" } }],
    }); // v3
    const response = await rollback({ version: 2, comment: "undo the rename" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "committed", version: 4, restartRequired: true });
    const config = await getConfig();
    expect(config.fields["webUi.hostname"]).toBe(seeded.fields["webUi.hostname"]);
    expect(itemOf(config, "vrfs", "cust-a")).toBeDefined();
    expect(itemOf(config, "vrfs", "cust-b")).toBeUndefined();
    const [entry] = (await history()).items;
    expect(entry).toMatchObject({
      version: 4,
      operation: "rollback",
      rollbackTo: 2,
      comment: "undo the rename",
      actor: "token:bootstrap",
    });
    expect(entry!.changedPaths).toEqual(expect.arrayContaining(["#/fields/webUi.hostname", "#/lists/vrfs/cust-b"]));
  });

  it("goes back to the seeded configuration, secrets included", async () => {
    const seeded = await storedDocument();
    await commit({
      listOps: [
        { listPath: "radius.servers", key: "radius-1.isp.example:1812", fields: { secret: "new-secret" } },
        { listPath: "vrfs", key: "wholesale", fields: { rd: "65000:7" } },
      ],
    });
    expect((await rollback({ version: 1 })).status).toBe(200);
    expect(await storedDocument()).toEqual(seeded);
  });

  it("can itself be rolled back", async () => {
    await commit({ fields: { "cgn.maxFlows": "1000" } }); // v2
    await rollback({ version: 1 }); // v3
    await rollback({ version: 2 }); // v4
    expect((await getConfig()).fields["cgn.maxFlows"]).toBe("1000");
    expect((await history()).total).toBe(4);
  });

  it("answers 404 for a version not in the history, and changes nothing for the active one", async () => {
    expect((await rollback({ version: 99 })).status).toBe(404);
    await commit({ fields: { "cgn.maxFlows": "1000" } });
    expect(await (await rollback({ version: 2 })).json()).toMatchObject({
      version: 2,
      changedPaths: [],
      restartRequired: false,
    });
    expect((await history()).total).toBe(2);
  });

  it("refuses a version that is not a positive integer with 400", async () => {
    expect((await rollback({ version: 0 })).status).toBe(400);
    expect((await rollback({ version: "2" })).status).toBe(400);
  });
});

describe("rollback across a software update", () => {
  it("keeps keys the old version did not have yet instead of emptying them", async () => {
    const { env, runInDurableObject } = await import("cloudflare:test");
    await commit({ fields: { "webUi.hostname": "before-update.example.net" } }); // v2
    await commit({ fields: { "webUi.hostname": "after-update.example.net" } }); // v3
    // Make version 2's stored document look as an older software version wrote it: no addressPools key.
    await runInDurableObject(env.Appliance.getByName("edge-1"), (_instance, state) => {
      const row = state.storage.sql
        .exec<{ previous: string }>("SELECT previous FROM config_history WHERE version = 3")
        .one();
      const old = JSON.parse(row.previous) as { lists: Record<string, unknown> };
      delete old.lists.addressPools;
      state.storage.sql.exec("UPDATE config_history SET previous = ? WHERE version = 3", JSON.stringify(old));
    });
    const pools = (await getConfig()).lists.addressPools;
    expect(pools?.length).toBeGreaterThan(0);
    expect((await rollback({ version: 2 })).status).toBe(200);
    const config = await getConfig();
    expect(config.fields["webUi.hostname"]).toBe("before-update.example.net");
    expect(config.lists.addressPools).toEqual(pools);
  });
});
