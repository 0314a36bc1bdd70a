import { describe, expect, it } from "vitest";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario, send, sum } from "./helpers.ts";
import type { CgnBindingRow as Binding, CgnBindingsPage as Page, CgnStatus as Status } from "../../src/schemas/cgn.ts";
import type { LogTail as Tail } from "../../src/schemas/logs.ts";
import type { SessionDetail } from "../../src/schemas/sessions.ts";

const AUTO_LEARNED = "/api/v1/cgn/bindings?ip=100.127.0.0/16&limit=1000";

describe("CGN status and bindings", () => {
  it("reports the group's configuration and port-block utilisation, consistent with the bindings list", async () => {
    await advance(1800);
    const status = await get<Status>("/api/v1/cgn/status");
    expect(status).toMatchObject({
      enabled: true,
      running: true,
      maxBindings: 3000,
      eventsLostByDriver: { syslog: 0 },
    });
    const [group] = status.groups;
    expect(group).toMatchObject({
      name: "cgn-1",
      outsideVrf: "default",
      publicSubnets: ["192.0.2.0/26"],
      chunkSize: 1024,
      portCap: 8192,
    });
    // 64 public addresses × 63 blocks of 1024 ports above 1023.
    expect(group!.utilisation.totalChunks).toBe(64 * 63);
    const u = group!.utilisation;
    expect(u.usedChunks + u.freeChunks + u.quarantinedChunks).toBe(u.totalChunks);
    const all = await get<Page>("/api/v1/cgn/bindings?limit=1000");
    expect(status.activeBindings).toBeGreaterThan(100);
    expect(all.total).toBe(status.activeBindings);
    expect(sum(status.groups.map((g) => g.activeBindings))).toBe(status.activeBindings);
    const auto = await get<Page>(AUTO_LEARNED);
    expect(auto.total).toBe(status.autoLearnedBindings);
    expect(auto.items.every((b) => b.autoLearned && b.sessionId === 0 && b.subscriberId === null)).toBe(true);
  });

  it("names each session's binding after its subscriber", async () => {
    await advance(900);
    const page = await get<Page>("/api/v1/cgn/bindings?vrf=CGN-INSIDE&group=CGN-1&limit=20");
    expect(page.running).toBe(true);
    const bound = page.items.find((b) => b.sessionId > 0)!;
    const session = await get<SessionDetail>(`/api/v1/sessions/${bound.sessionId}`);
    expect(bound.subscriberId).toBe(session.username);
    expect(bound.insideIp).toBe(session.ipv4);
    expect(session.cgn?.bindingIndex).toBe(bound.bindingIndex);
    const byIp = await get<Page>(`/api/v1/cgn/bindings?ip=${bound.insideIp}`);
    expect(byIp.items.map((b) => b.bindingIndex)).toContain(bound.bindingIndex);
    const indices = page.items.map((b) => b.bindingIndex);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
  });

  it("filters with AND and pages with a clamped limit", async () => {
    await advance(900);
    expect((await get<Page>("/api/v1/cgn/bindings?group=no-such-group")).total).toBe(0);
    expect((await get<Page>("/api/v1/cgn/bindings?vrf=default")).total).toBe(0);
    expect(await get<Page>("/api/v1/cgn/bindings?limit=0")).toMatchObject({ limit: 1, items: [expect.anything()] });
    expect((await get<Page>("/api/v1/cgn/bindings?limit=99999")).limit).toBe(1000);
    const first = await get<Page>("/api/v1/cgn/bindings?limit=10");
    const second = await get<Page>("/api/v1/cgn/bindings?limit=5&offset=5");
    expect(second.items.map((b) => b.bindingIndex)).toEqual(first.items.slice(5).map((b) => b.bindingIndex));
  });

  it("shows a filled group's reserved blocks as used", async () => {
    await advance(600);
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 50 });
    const u = (await get<Status>("/api/v1/cgn/status")).groups[0]!.utilisation;
    expect(u.usedChunks).toBeGreaterThanOrEqual(u.totalChunks / 2);
    expect(u.usedChunks + u.freeChunks + u.quarantinedChunks).toBe(u.totalChunks);
  });
});

describe("identifying a binding", () => {
  it(
    "sets the subscriber of an auto-learned binding, emits one Identify event per " + "port block and audits the actor",
    async () => {
      await advance(1800);
      const auto = (await get<Page>(AUTO_LEARNED)).items[0]!;
      expect(auto).toBeDefined();
      const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
      const token = await tokenWithRole("super-user", "compliance-2");
      const response = await send(
        "POST",
        `/api/v1/cgn/bindings/${auto.bindingIndex}/identify`,
        { subscriberId: "case-4711" },
        bearer(token),
      );
      expect(response.status).toBe(200);
      const row = await response.json<Binding>();
      expect(row).toMatchObject({
        bindingIndex: auto.bindingIndex,
        autoLearned: true,
        subscriberId: "case-4711",
        publicIp: auto.publicIp,
      });
      expect(
        (await get<Page>(AUTO_LEARNED)).items.find((b) => b.bindingIndex === auto.bindingIndex)!.subscriberId,
      ).toBe("case-4711");
      const entries = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries;
      const identify = entries.filter((e) => e.msgId === "cgn.identify");
      expect(identify.map((e) => e.fields.portBlock)).toEqual(row.portBlocks);
      expect(
        identify.every((e) => e.fields.subscriberId === "case-4711" && e.fields.bindingIndex === auto.bindingIndex),
      ).toBe(true);
      expect(entries.find((e) => e.msgId === "audit.cgn.identify")!.fields).toMatchObject({
        bindingIndex: auto.bindingIndex,
        subscriberId: "case-4711",
        actor: "token:compliance-2",
      });
    },
  );

  it("refuses a session's binding with 409 and an unknown one with 404", async () => {
    await advance(900);
    const bound = (await get<Page>("/api/v1/cgn/bindings?vrf=cgn-inside&limit=50")).items.find((b) => !b.autoLearned)!;
    expect(
      (await send("POST", `/api/v1/cgn/bindings/${bound.bindingIndex}/identify`, { subscriberId: "x" })).status,
    ).toBe(409);
    expect((await send("POST", "/api/v1/cgn/bindings/2999/identify", { subscriberId: "x" })).status).toBe(404);
    expect((await send("POST", "/api/v1/cgn/bindings/4294967296/identify", { subscriberId: "x" })).status).toBe(400);
  });

  it("requires a body naming the subscriber, and the super-user role", async () => {
    await advance(1800);
    const auto = (await get<Page>(AUTO_LEARNED)).items[0]!;
    const path = `/api/v1/cgn/bindings/${auto.bindingIndex}/identify`;
    expect((await send("POST", path)).status).toBe(400);
    expect((await send("POST", path, {})).status).toBe(400);
    expect((await send("POST", path, { subscriberId: "  " })).status).toBe(400);
    const operator = await tokenWithRole("operator");
    expect((await call(path, json("POST", { subscriberId: "x" }, bearer(operator)))).status).toBe(403);
    expect((await call(path, json("POST", { subscriberId: "x" }, admin))).status).toBe(200);
  });
});
