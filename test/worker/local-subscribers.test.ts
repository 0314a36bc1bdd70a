import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type {
  AddressPool,
  AddressPoolAllocation,
  AddressPoolAllocationsPage,
} from "../../src/schemas/address-pools.ts";
import type {
  LocalIpoeSubscriber,
  LocalPppoeSubscriber,
  LocalSubscriberRow,
} from "../../src/schemas/local-subscribers.ts";
import type { VrfRow } from "../../src/schemas/vrfs.ts";
import type { CommitResult } from "../../src/schemas/commit.ts";
import type { page, ProblemDetails } from "../../src/schemas/common.ts";
import type { SessionDetail as Detail, SessionList, SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import { call, json } from "./client.ts";
import {
  admin,
  getConfig,
  history,
  itemOf,
  logEntries,
  pointersOf,
  rejection,
  storedDocument,
} from "./config-client.ts";
import { advance, get } from "./helpers.ts";

const BASE = "/api/v1/subscribers/local";
const IPOE_LIST = "subscribers.local.ipoe";
const PPPOE_LIST = "subscribers.local.pppoe";

type Page = z.output<ReturnType<typeof page<typeof LocalSubscriberRow>>>;
type Subscriber = z.output<typeof LocalIpoeSubscriber> | z.output<typeof LocalPppoeSubscriber>;
type Allocation = z.output<typeof AddressPoolAllocation>;

const post = (kind: "ipoe" | "pppoe", body: unknown) => call(`${BASE}/${kind}`, json("POST", body, admin));
const put = (kind: "ipoe" | "pppoe", key: string, body: unknown) =>
  call(`${BASE}/${kind}/${encodeURIComponent(key)}`, json("PUT", body, admin));
const read = (kind: "ipoe" | "pppoe", key: string) =>
  call(`${BASE}/${kind}/${encodeURIComponent(key)}`, { headers: admin });
const remove = (kind: "ipoe" | "pppoe", key: string, query = "") =>
  call(`${BASE}/${kind}/${encodeURIComponent(key)}${query}`, { method: "DELETE", headers: admin });
const session = (kind: "ipoe" | "pppoe", key: string) =>
  call(`${BASE}/${kind}/${encodeURIComponent(key)}/session`, { headers: admin });
const list = (query = "") => get<Page>(`${BASE}${query}`);

async function ok<T = Subscriber>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<T>();
}

/** Every allocation of a pool, paging through it. */
async function allocations(pool: string): Promise<Allocation[]> {
  const out: Allocation[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await get<z.output<typeof AddressPoolAllocationsPage>>(
      `/api/v1/address-pools/${pool}/allocations?offset=${offset}&limit=1000`,
    );
    out.push(...page.items);
    if (page.items.length < 1000) return out;
  }
}

// An IPoE line with every field: its addresses lie in the residential pools, beyond what dynamic sessions reach.
const LINE = {
  port: 1,
  sVlan: 3000,
  vlan: 7,
  vrfName: "default",
  framedIp: "198.18.5.20",
  framedIpv6: "2001:db8:100:ff00::1",
  ipv6PdPrefix: "2001:db8:400f:ff00::",
  ipv6PdLength: 56,
  dns1: "192.0.2.53",
  dns2: "192.0.2.54",
  dnsV6_1: "2001:db8::53",
  dnsV6_2: null,
  planName: "fibre-100",
  option82CircuitId: "olt-1/3000/7",
  subscriberServiceId: "svc-1001",
  downloadRateKbps: 0,
  uploadRateKbps: 0,
  downloadRatePps: 20_000,
  uploadRatePps: 5_000,
  downloadBurstKb: 512,
  uploadBurstKb: null,
  additionalRoutes: ["203.0.113.64/29"],
  comment: "business line 7",
};
const LINE_KEY = "1:3000:7";
const ALICE = {
  username: "alice@corp.example",
  password: "correct horse battery",
  framedIp: "203.0.113.10",
  planName: "fibre-300",
};

describe("creating a local IPoE subscriber", () => {
  it("answers the subscriber, keyed by its line, and records the commit", async () => {
    const created = await ok(await post("ipoe", LINE));
    const { comment: _comment, ...fields } = LINE;
    expect(created).toEqual({ kind: "ipoe", key: LINE_KEY, username: "olt-1/3000/7", ...fields, sessionId: null });
    expect(await ok(await read("ipoe", LINE_KEY))).toEqual(created);
    expect((await history()).items[0]).toMatchObject({
      operation: "local-subscriber",
      comment: "business line 7",
      changedPaths: expect.arrayContaining([`#/lists/${IPOE_LIST}/${LINE_KEY}`]),
    });
    expect(itemOf(await getConfig(), IPOE_LIST, LINE_KEY)?.values).toMatchObject({
      framedIp: "198.18.5.20",
      port: "1",
      additionalRoutes: "203.0.113.64/29",
    });
    const audit = await logEntries("config.commit");
    expect(audit.at(-1)?.fields).toMatchObject({ operation: "local-subscriber", actor: "token:bootstrap" });
  });

  it(
    "names the session after the line when there is no option 82 circuit id, and " +
      "takes defaults for what is left out",
    async () => {
      const created = await ok(
        await post("ipoe", { port: 2, sVlan: 0, vlan: 42, downloadRateKbps: 10_000, uploadRateKbps: 2_000 }),
      );
      expect(created).toMatchObject({
        key: "2:0:42",
        username: "local-ipoe-2-0-42",
        vrfName: null,
        framedIp: null,
        planName: null,
        downloadRatePps: 0,
        downloadBurstKb: null,
        additionalRoutes: [],
      });
    },
  );

  it("answers 409 when the line exists", async () => {
    await ok(await post("ipoe", LINE));
    expect((await post("ipoe", { ...LINE, framedIp: null, option82CircuitId: null })).status).toBe(409);
  });

  it("answers 422 listing every rejected field, and commits nothing", async () => {
    const errors = await rejection(
      await post("ipoe", {
        port: 9,
        sVlan: 3000,
        vlan: 5000,
        vrfName: "nowhere",
        framedIpv6: "not-an-address",
        dns1: "2001:db8::1",
        planName: "gold",
        ipv6PdLength: 200,
        downloadRateKbps: -5,
        additionalRoutes: ["10.0.0.1/8"],
      }),
    );
    const at = (child: string) => `#/lists/${IPOE_LIST}/9:3000:5000/${child}`;
    expect(pointersOf(errors)).toEqual(
      [
        "port",
        "vlan",
        "vrfName",
        "framedIpv6",
        "dns1",
        "planName",
        "ipv6PdLength",
        "downloadRateKbps",
        "additionalRoutes",
      ]
        .map(at)
        .sort(),
    );
    expect(errors.find((e) => e.pointer === at("port"))!.detail).toContain("no port 9");
    expect(errors.find((e) => e.pointer === at("planName"))!.detail).toContain("no plan 'gold'");
    expect((await list()).total).toBe(0);
    expect((await history()).total).toBe(1);
  });

  it("checks ranges by the spec's types", async () => {
    const at = (key: string, child: string) => `#/lists/${IPOE_LIST}/${key}/${child}`;
    expect(
      pointersOf(await rejection(await post("ipoe", { port: 256, sVlan: 1, vlan: 1, planName: "dsl-24" }))),
    ).toContain(at("256:1:1", "port"));
    expect(
      pointersOf(await rejection(await post("ipoe", { port: 1, sVlan: 70_000, vlan: 1, planName: "dsl-24" }))),
    ).toContain(at("1:70000:1", "sVlan"));
    expect(
      pointersOf(
        await rejection(
          await post("ipoe", {
            port: 1,
            sVlan: 1,
            vlan: 1,
            planName: "dsl-24",
            ipv6PdPrefix: "2001:db8:9::",
            ipv6PdLength: 300,
          }),
        ),
      ),
    ).toContain(at("1:1:1", "ipv6PdLength"));
    expect(
      (
        await post("ipoe", {
          port: 1,
          sVlan: 1,
          vlan: 1,
          planName: "dsl-24",
          downloadRateKbps: 2 ** 31 - 1,
          ipv6PdPrefix: "2001:db8:9::",
          ipv6PdLength: 48,
        })
      ).status,
    ).toBe(200);
  });

  it("refuses an address its pool holds back, and a prefix that is not one of a pool's delegations", async () => {
    const errors = await rejection(
      await post("ipoe", {
        ...LINE,
        framedIp: "198.18.0.10",
        framedIpv6: "2001:db8:100::5",
        ipv6PdPrefix: "2001:db8:4000::/48",
        ipv6PdLength: null,
      }),
    );
    const detail = (child: string) =>
      errors.find((e) => e.pointer === `#/lists/${IPOE_LIST}/${LINE_KEY}/${child}`)?.detail;
    expect(detail("framedIp")).toContain("held statically for noc-probe@isp.example");
    expect(detail("framedIpv6")).toContain("excluded from pool 'residential-v6-wan'");
    expect(detail("ipv6PdPrefix")).toContain("not one of its /56 delegations");
  });

  it("requires rates from a subscriber without a plan", async () => {
    const errors = await rejection(await post("ipoe", { port: 1, sVlan: 1, vlan: 2 }));
    expect(pointersOf(errors)).toEqual([
      `#/lists/${IPOE_LIST}/1:1:2/downloadRateKbps`,
      `#/lists/${IPOE_LIST}/1:1:2/uploadRateKbps`,
    ]);
  });

  it("refuses a framedIp another local subscriber has in the same VRF, whatever its kind", async () => {
    await ok(await post("ipoe", LINE));
    const errors = await rejection(await post("pppoe", { ...ALICE, framedIp: LINE.framedIp }));
    expect(errors).toEqual([
      {
        in: "config",
        pointer: `#/lists/${PPPOE_LIST}/alice@corp.example/framedIp`,
        detail: expect.stringContaining(`${IPOE_LIST} '${LINE_KEY}'`),
      },
    ]);
    // Another VRF is another address space.
    expect((await post("pppoe", { ...ALICE, vrfName: "wholesale", framedIp: LINE.framedIp })).status).toBe(200);
  });

  it("answers 400 for a malformed body", async () => {
    expect((await post("ipoe", { ...LINE, port: "one" })).status).toBe(400);
    expect((await post("ipoe", { port: 1, sVlan: 2 })).status).toBe(400);
    expect((await post("ipoe", { ...LINE, additionalRoutes: "203.0.113.64/29" })).status).toBe(400);
    expect((await post("ipoe", { ...LINE, downloadRateKbps: 2 ** 31 })).status).toBe(400);
  });
});

describe("local PPPoE subscribers", () => {
  it("never answer the password, only that one is set", async () => {
    const created = await ok(await post("pppoe", ALICE));
    expect(created).toMatchObject({
      kind: "pppoe",
      key: "alice@corp.example",
      username: "alice@corp.example",
      passwordSet: true,
      framedIp: "203.0.113.10",
      planName: "fibre-300",
    });
    expect(created).not.toHaveProperty("password");
    const text = JSON.stringify([created, await ok(await read("pppoe", ALICE.username)), await list()]);
    expect(text).not.toContain(ALICE.password);
    expect(itemOf(await getConfig(), PPPOE_LIST, ALICE.username)?.values.password).toBe("********");
    expect(JSON.stringify(await history())).not.toContain(ALICE.password);
  });

  it("keep the password through an update without one, and take a new one when given", async () => {
    await ok(await post("pppoe", ALICE));
    const stored = async () =>
      (await storedDocument()).lists[PPPOE_LIST]!.find((i) => i.key === ALICE.username)!.values;
    await ok(await put("pppoe", ALICE.username, { framedIp: "203.0.113.11", planName: "dsl-24" }));
    expect(await stored()).toMatchObject({ password: ALICE.password, framedIp: "203.0.113.11" });
    await ok(await put("pppoe", ALICE.username, { password: "********", planName: "dsl-24" }));
    expect((await stored()).password).toBe(ALICE.password);
    await ok(await put("pppoe", ALICE.username, { password: "new secret", planName: "dsl-24" }));
    expect((await stored()).password).toBe("new secret");
  });

  it("need a password to be created", async () => {
    expect((await post("pppoe", { username: "bob@corp.example", planName: "dsl-24" })).status).toBe(400);
    expect(
      pointersOf(
        await rejection(await post("pppoe", { username: "bob@corp.example", password: "", planName: "dsl-24" })),
      ),
    ).toEqual([`#/lists/${PPPOE_LIST}/bob@corp.example/password`]);
  });

  it("refuse a username with a space or a slash", async () => {
    expect(pointersOf(await rejection(await post("pppoe", { ...ALICE, username: "bob smith" })))).toEqual([
      `#/lists/${PPPOE_LIST}/bob smith`,
    ]);
    expect((await post("pppoe", { ...ALICE, username: "a/b" })).status).toBe(422);
  });

  it("answer 409 for a username that exists", async () => {
    await ok(await post("pppoe", ALICE));
    expect((await post("pppoe", { ...ALICE, framedIp: null })).status).toBe(409);
  });
});

describe("listing, reading, replacing and deleting", () => {
  it("lists both kinds, IPoE by line then PPPoE by username, filtered by kind and paged", async () => {
    await ok(await post("pppoe", { ...ALICE, username: "zed@corp.example", framedIp: null }));
    await ok(await post("pppoe", ALICE));
    await ok(
      await post("ipoe", {
        ...LINE,
        port: 2,
        option82CircuitId: null,
        framedIp: null,
        framedIpv6: null,
        ipv6PdPrefix: null,
        ipv6PdLength: null,
      }),
    );
    await ok(await post("ipoe", LINE));
    const all = await list();
    expect(all.items.map((r) => [r.kind, r.key])).toEqual([
      ["ipoe", "1:3000:7"],
      ["ipoe", "2:3000:7"],
      ["pppoe", "alice@corp.example"],
      ["pppoe", "zed@corp.example"],
    ]);
    expect(all.items[0]).toEqual({
      kind: "ipoe",
      key: LINE_KEY,
      username: "olt-1/3000/7",
      vrfName: "default",
      framedIp: "198.18.5.20",
      framedIpv6: "2001:db8:100:ff00::1",
      ipv6PdPrefix: "2001:db8:400f:ff00::",
      planName: "fibre-100",
      downloadRateKbps: 0,
      uploadRateKbps: 0,
      port: 1,
      sVlan: 3000,
      vlan: 7,
      sessionId: null,
    });
    expect(all.items[2]).toMatchObject({ kind: "pppoe", port: null, sVlan: null, vlan: null });
    expect((await list("?kind=pppoe")).items.map((r) => r.key)).toEqual(["alice@corp.example", "zed@corp.example"]);
    expect(await list("?offset=1&limit=2")).toMatchObject({
      total: 4,
      offset: 1,
      limit: 2,
      items: [{ key: "2:3000:7" }, { key: "alice@corp.example" }],
    });
  });

  it("answers 404 for unknown subscribers on every keyed operation", async () => {
    for (const kind of ["ipoe", "pppoe"] as const) {
      expect((await read(kind, "1:2:3")).status).toBe(404);
      expect((await put(kind, "1:2:3", { planName: "dsl-24" })).status).toBe(404);
      expect((await remove(kind, "1:2:3")).status).toBe(404);
      expect((await session(kind, "1:2:3")).status).toBe(404);
    }
    expect((await put("ipoe", "not-a-line", { planName: "dsl-24" })).status).toBe(404);
  });

  it("replaces every field on update, the line being the key's", async () => {
    await ok(await post("ipoe", LINE));
    const updated = await ok(
      await put("ipoe", LINE_KEY, { planName: "dsl-24", framedIp: "198.18.5.21", comment: "downgrade" }),
    );
    expect(updated).toMatchObject({
      key: LINE_KEY,
      port: 1,
      sVlan: 3000,
      vlan: 7,
      planName: "dsl-24",
      framedIp: "198.18.5.21",
      framedIpv6: null,
      option82CircuitId: null,
      username: "local-ipoe-1-3000-7",
      additionalRoutes: [],
      downloadBurstKb: null,
    });
    expect((await history()).items[0]).toMatchObject({ operation: "local-subscriber", comment: "downgrade" });
    const moved = await put("ipoe", LINE_KEY, { planName: "dsl-24", port: 2 });
    expect(moved.status).toBe(400);
    expect((await moved.json<z.output<typeof ProblemDetails>>()).errors![0]!.pointer).toBe("#/port");
    expect((await put("ipoe", LINE_KEY, { planName: "dsl-24", port: 1, sVlan: 3000, vlan: 7 })).status).toBe(200);
    expect(pointersOf(await rejection(await put("ipoe", LINE_KEY, { planName: "platinum" })))).toEqual([
      `#/lists/${IPOE_LIST}/${LINE_KEY}/planName`,
    ]);
  });

  it("refuses a PPPoE update whose body names another username", async () => {
    await ok(await post("pppoe", ALICE));
    expect((await put("pppoe", ALICE.username, { username: "mallory@corp.example", planName: "dsl-24" })).status).toBe(
      400,
    );
  });

  it("deletes a subscriber with a commit result, recording the comment", async () => {
    await ok(await post("pppoe", ALICE));
    const result = await ok<CommitResult>(await remove("pppoe", ALICE.username, "?comment=left%20the%20company"));
    expect(result).toMatchObject({ status: "committed", name: ALICE.username, version: 3, restartRequired: false });
    expect((await read("pppoe", ALICE.username)).status).toBe(404);
    expect((await history()).items[0]).toMatchObject({ operation: "local-subscriber", comment: "left the company" });
  });

  it("takes a change through PUT /config too, checked the same way", async () => {
    const response = await call(
      "/api/v1/config",
      json(
        "PUT",
        {
          listOps: [
            { listPath: IPOE_LIST, key: "1:5:6", fields: { port: "1", sVlan: "5", vlan: "7", planName: "dsl-24" } },
          ],
        },
        admin,
      ),
    );
    expect(pointersOf(await rejection(response))).toEqual([`#/lists/${IPOE_LIST}/1:5:6`]);
  });
});

describe("the subscriber's session", () => {
  it("comes up through local AAA once the clock moves, with its configured address held statically", async () => {
    await ok(await post("ipoe", LINE));
    expect((await session("ipoe", LINE_KEY)).status).toBe(404);
    const offline = (await allocations("residential-v4")).find((a) => a.prefix === "198.18.5.20");
    expect(offline).toEqual({
      prefix: "198.18.5.20",
      kind: "static",
      sessionId: 0,
      username: "olt-1/3000/7",
      vrf: "default",
      static: true,
    });

    await advance(10);
    const detail = await ok<Detail>(await session("ipoe", LINE_KEY));
    expect(detail).toMatchObject({
      username: "olt-1/3000/7",
      encap: "ipoe",
      vrf: "default",
      ipv4: "198.18.5.20",
      ipv6: "2001:db8:100:ff00::/64",
      plan: "fibre-100",
      portId: 1,
      svlan: 3000,
      vlan: 7,
    });
    expect(detail.aaa).toEqual({ method: "local", server: null });
    expect(detail.addresses.ipv6Pd).toMatchObject({ prefix: "2001:db8:400f:ff00::/56", pool: "residential-v6-pd" });
    expect(await get<Detail>(`/api/v1/sessions/${detail.id}`)).toEqual(detail);
    expect((await ok(await read("ipoe", LINE_KEY))).sessionId).toBe(detail.id);
    expect((await list()).items[0]!.sessionId).toBe(detail.id);
    expect((await get<SessionList>("/api/v1/sessions?username=olt-1%2F3000%2F7")).items.map((s) => s.id)).toEqual([
      detail.id,
    ]);
    expect((await allocations("residential-v4")).find((a) => a.prefix === "198.18.5.20")).toMatchObject({
      kind: "static",
      static: true,
      sessionId: detail.id,
    });
  });

  it("is disconnected when the subscriber is deleted, and its addresses return to the pools", async () => {
    await ok(await post("ipoe", LINE));
    await advance(10);
    const { id } = await ok<Detail>(await session("ipoe", LINE_KEY));
    const used = async () =>
      (await get<z.output<typeof AddressPool>[]>("/api/v1/address-pools")).find((p) => p.name === "residential-v4")!
        .used;
    const before = await used();
    expect((await remove("ipoe", LINE_KEY)).status).toBe(200);
    expect((await call(`/api/v1/sessions/${id}`, { headers: admin })).status).toBe(404);
    expect(await used()).toBe(before - 1);
    expect((await allocations("residential-v4")).some((a) => a.prefix === "198.18.5.20")).toBe(false);
    const down = (await logEntries("session.down")).find((e) => e.fields.sessionId === id);
    expect(down?.fields.cause).toBe("local-subscriber-removed");
  });

  it("reconnects with the new attributes after an update", async () => {
    await ok(await post("pppoe", ALICE));
    await advance(10);
    const first = await ok<Detail>(await session("pppoe", ALICE.username));
    expect(first).toMatchObject({ encap: "pppoe-local", ipv4: "203.0.113.10", plan: "fibre-300" });
    expect(first.addresses.ipv4).toMatchObject({ pool: null, subnet: null });
    await ok(
      await put("pppoe", ALICE.username, {
        framedIp: "203.0.113.99",
        planName: null,
        downloadRateKbps: 5_000,
        uploadRateKbps: 1_000,
      }),
    );
    expect((await call(`/api/v1/sessions/${first.id}`, { headers: admin })).status).toBe(404);
    await advance(10);
    const second = await ok<Detail>(await session("pppoe", ALICE.username));
    expect(second).toMatchObject({
      ipv4: "203.0.113.99",
      plan: "local",
      planRates: { downloadKbps: 5_000, uploadKbps: 1_000 },
    });
  });

  it("comes up in a VRF created through the API, which then cannot be deleted under it", async () => {
    expect((await call("/api/v1/vrfs", json("POST", { name: "corp", tableId: 500 }, admin))).status).toBe(200);
    await ok(await post("pppoe", { ...ALICE, vrfName: "corp", framedIp: "10.99.0.1" }));
    await advance(10);
    expect(await ok<Detail>(await session("pppoe", ALICE.username))).toMatchObject({ vrf: "corp", ipv4: "10.99.0.1" });
    expect((await get<SessionSummaryCounts>("/api/v1/sessions/summary")).byVrf.corp).toBe(1);
    expect((await get<z.output<typeof VrfRow>[]>("/api/v1/vrfs")).find((v) => v.name === "corp")?.sessions).toBe(1);
    const refused = await call("/api/v1/vrfs/corp", { method: "DELETE", headers: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain(
      `${PPPOE_LIST} 'alice@corp.example' (vrfName)`,
    );
  });

  it("keeps the subscribers, and brings them up again, across a restart", async () => {
    await ok(await post("ipoe", LINE));
    await ok(await post("pppoe", ALICE));
    await advance(120);
    await abortAllDurableObjects();
    expect((await list()).total).toBe(2);
    await advance(10);
    expect((await ok<Detail>(await session("ipoe", LINE_KEY))).ipv4).toBe("198.18.5.20");
    expect((await ok<Detail>(await session("pppoe", ALICE.username))).aaa.method).toBe("local");
    expect((await allocations("residential-v4")).filter((a) => a.prefix === "198.18.5.20")).toHaveLength(1);
  });
});
