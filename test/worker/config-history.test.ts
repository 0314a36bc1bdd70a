import { describe, expect, it } from "vitest";
import { createUser } from "./client.ts";
import { commit, history } from "./config-client.ts";

describe("configuration history", () => {
  it("starts with the seeded version 1 by the system", async () => {
    const { total, items } = await history();
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      version: 1,
      actor: "system",
      operation: "seed",
      rollbackTo: null,
      comment: expect.stringContaining("seeded"),
    });
    expect(items[0]!.changedPaths).toEqual(
      expect.arrayContaining(["#/fields/webUi.hostname", "#/lists/vrfs/cgn-inside"]),
    );
  });

  it("records actor, comment, operation and each change before and after", async () => {
    await commit({ fields: { "cgn.maxBindings": "4000" }, comment: "raise the cap" });
    const [entry] = (await history()).items;
    expect(entry).toMatchObject({
      version: 2,
      actor: "token:bootstrap",
      comment: "raise the cap",
      operation: "config",
      restartRequired: true,
      changedPaths: ["#/fields/cgn.maxBindings"],
      changes: [{ pointer: "#/fields/cgn.maxBindings", before: "3000", after: "4000" }],
    });
  });

  it("records an account change as operation user, which the document lists", async () => {
    await createUser("history-reader", "read-only", "a-long-enough-password-1");
    const [entry] = (await history()).items;
    // The client parses the page against ConfigHistoryEntry, whose enum lacked "user" before.
    expect(entry).toMatchObject({ version: 2, actor: "token:bootstrap", operation: "user" });
    expect(entry!.changedPaths).toContain("#/lists/login.users/history-reader");
  });

  it("pages newest first", async () => {
    for (const n of [4001, 4002, 4003]) await commit({ fields: { "cgn.maxBindings": String(n) } });
    const first = await history("?limit=2");
    expect(first).toMatchObject({ total: 4, offset: 0, limit: 2 });
    expect(first.items.map((e) => e.version)).toEqual([4, 3]);
    const second = await history("?offset=2&limit=2");
    expect(second.items.map((e) => e.version)).toEqual([2, 1]);
    expect((await history("?offset=4")).items).toEqual([]);
  });
});
