import { describe, expect, it } from "vitest";
import type { ConfigCommitResult } from "../../src/schemas/commit.ts";
import { call, json } from "./client.ts";
import { admin, getConfig, history, itemOf, putConfig } from "./config-client.ts";

describe("concurrent writers", () => {
  it("loses no update: two PUTs adding different items both land", async () => {
    const [a, b] = await Promise.all([
      putConfig({ listOps: [{ listPath: "bgp.neighbors", key: "192.0.2.1", fields: { remoteAs: "64512" } }] }),
      putConfig({ listOps: [{ listPath: "bgp.neighbors", key: "192.0.2.2", fields: { remoteAs: "64513" } }] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const versions = [
      (await a.json<ConfigCommitResult>()).version,
      (await b.json<ConfigCommitResult>()).version,
    ].sort();
    expect(versions).toEqual([2, 3]);
    const config = await getConfig();
    expect(itemOf(config, "bgp.neighbors", "192.0.2.1")?.values.remoteAs).toBe("64512");
    expect(itemOf(config, "bgp.neighbors", "192.0.2.2")?.values.remoteAs).toBe("64513");
  });

  it("serialises many writers into consecutive versions", async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        putConfig({
          listOps: [
            {
              listPath: "alarms.sinks",
              key: `sink-${i}`,
              fields: { kind: "bus", url: `mqtts://bus-${i}.example.net` },
            },
          ],
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await getConfig()).lists["alarms.sinks"]).toHaveLength(8);
    expect((await history("?limit=20")).items.map((e) => e.version)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("validates each against the one before it: of two VRFs claiming one table id, exactly one lands", async () => {
    const create = (name: string) => call("/api/v1/vrfs", json("POST", { name, tableId: 500 }, admin));
    const statuses = (await Promise.all([create("race-a"), create("race-b")])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 422]);
    expect((await getConfig()).lists.vrfs!.filter((v) => v.values.tableId === "500")).toHaveLength(1);
  });
});
