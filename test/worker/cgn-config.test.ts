import { DECOY_HASH } from "../../src/trust/password.ts";
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { profileNamed } from "../../durable-objects/profiles.ts";
import { PROFILE_NAMES } from "../../fleet-config/schema.ts";
import { applianceNamed } from "../../src/fleet/definition.ts";
import { profileWithCgn } from "../../src/config/cgn.ts";
import { seedDocument } from "../../src/config/seed.ts";
import { validateDocument } from "../../src/config/validate.ts";
import type { AddressPool, AddressPoolAllocationsPage } from "../../src/schemas/address-pools.ts";
import type { CgnCommitResult, CgnGroupConfig, CgnSettings } from "../../src/schemas/cgn-config.ts";
import type { CgnStatus } from "../../src/schemas/cgn.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, getConfig, history, itemOf, pointersOf, rejection } from "./config-client.ts";

type Group = z.output<typeof CgnGroupConfig>;
type Status = z.output<typeof CgnStatus>;
type Pool = z.output<typeof AddressPool>;

const groups = async () => (await call("/api/v1/cgn/groups", { headers: admin })).json<Group[]>();
const group = (name: string) => call(`/api/v1/cgn/groups/${name}`, { headers: admin });
const putGroup = (name: string, body: unknown, headers = admin) =>
  call(`/api/v1/cgn/groups/${name}`, json("PUT", body, headers));
const deleteGroup = (name: string, query = "") =>
  call(`/api/v1/cgn/groups/${name}${query}`, { method: "DELETE", headers: admin });
const settings = async () =>
  (await call("/api/v1/cgn/settings", { headers: admin })).json<z.output<typeof CgnSettings>>();
const putSettings = (body: unknown, headers = admin) => call("/api/v1/cgn/settings", json("PUT", body, headers));
const cgnStatus = async () => (await call("/api/v1/cgn/status", { headers: admin })).json<Status>();
const pools = async () => (await call("/api/v1/address-pools", { headers: admin })).json<Pool[]>();
/**
 * Blocks of the wholesale pool a scenario fill reserved: only a data plane restored from its snapshot still holds them.
 */
const reserved = async () =>
  (
    await (
      await call("/api/v1/address-pools/wholesale-v4/allocations?limit=1000", { headers: admin })
    ).json<z.output<typeof AddressPoolAllocationsPage>>()
  ).items.filter((a) => a.kind === "reserved").length;
const scenario = async (body: unknown) =>
  expect((await call("/twin/v1/scenario", json("POST", body, admin))).status).toBe(200);
// An abrupt restart: evictDurableObject waits for in-flight work to drain and, after a scenario call, outlasts a test's
// timeout.
const restart = () => abortAllDurableObjects();
const ok = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<z.output<typeof CgnCommitResult>>();
};

// The small profile's group, as edge-1 is seeded with it.
const CGN_1: Group = {
  name: "cgn-1",
  description: "residential CGN (RFC 6888 paired pooling)",
  insideVrfs: ["cgn-inside"],
  outsideVrf: "default",
  publicSubnets: ["192.0.2.0/26"],
  chunkSize: 1024,
  portCap: 8192,
  setupsPerSec: 200,
  bindingTimeoutSeconds: 300,
  quarantineSeconds: 120,
  bypassPrefixes: ["100.64.1.0/24"],
  autoLearn: [{ insideVrf: "cgn-inside", prefixes: ["100.127.0.0/16"] }],
  timeouts: { tcpEstablished: 7440, tcpTransitory: 240, udp: 300, icmp: 60 },
  pendingRestart: false,
};

const WHOLESALE = {
  description: "wholesale partners",
  insideVrfs: ["wholesale"],
  publicSubnets: ["198.51.100.0/27"],
  chunkSize: 512,
  portCap: 2048,
  autoLearn: [{ insideVrf: "wholesale", prefixes: ["10.129.0.0/24", "10.129.1.0/24"] }],
  timeouts: { udp: 120 },
};
const configuredHalf = ({ pendingRestart: _p, insideVrfs: _i, ...rest }: Group) => rest;
// What moves while the group runs (bindings, utilisation, port blocks handed out) is not configuration.
const runningHalf = ({
  activeBindings: _a,
  utilisation: _u,
  portBlockAllocations: _p,
  ...rest
}: Status["groups"][number]) => rest;

describe("seeding", () => {
  it("takes the groups from the simulation profile: what is configured is what runs", async () => {
    expect(await groups()).toEqual([CGN_1]);
    expect((await cgnStatus()).groups.map(runningHalf)).toEqual([configuredHalf(CGN_1)]);
    expect(itemOf(await getConfig(), "cgn.groups", "cgn-1")!.values).toMatchObject({
      autoLearn: "cgn-inside:100.127.0.0/16",
      publicSubnets: "192.0.2.0/26",
      "timeouts.udp": "300",
    });
    expect(await settings()).toEqual({ maxBindings: 3000, maxFlows: 400000, pendingRestart: false });
  });

  it.each(PROFILE_NAMES)(
    "gives a valid document that rebuilds the %s profile exactly (so a restart keeps the data plane)",
    (name) => {
      const profile = profileNamed(name);
      const definition = { ...applianceNamed(env, "edge-1")!, profile: name };
      const accounts = [{ username: "admin", role: "super-user", passwordHash: DECOY_HASH }];
      const doc = seedDocument({
        definition,
        listener: "https://127.0.0.1:8443",
        peers: [],
        profile,
        accounts,
        localFleet: false,
      });
      expect(validateDocument(doc, doc, { appliance: "edge-1", profile })).toEqual([]);
      const built = profileWithCgn(profile, doc);
      // Exactly: the same JSON text, key order included (what the restart's fingerprint is taken over), not
      // production's hash of it.
      expect(built.ok && JSON.stringify(built.profile)).toBe(JSON.stringify(profile));
    },
  );
});

describe("reading groups", () => {
  it("answers one group by name, 404 for an unknown one", async () => {
    expect(await (await group("cgn-1")).json()).toEqual(CGN_1);
    expect((await group("ghost")).status).toBe(404);
  });
});

describe("writing a group", () => {
  it("creates it with restartRequired, leaving the running CGN as it is until a restart", async () => {
    const result = await ok(await putGroup("wholesale-cgn", { ...WHOLESALE, comment: "partners get CGN" }));
    expect(result).toMatchObject({ status: "committed", name: "wholesale-cgn", version: 2, restartRequired: true });
    expect(await groups()).toEqual([
      CGN_1,
      {
        name: "wholesale-cgn",
        description: "wholesale partners",
        insideVrfs: ["wholesale"],
        outsideVrf: "default",
        publicSubnets: ["198.51.100.0/27"],
        chunkSize: 512,
        portCap: 2048,
        setupsPerSec: 1000,
        bindingTimeoutSeconds: 300,
        quarantineSeconds: 120,
        bypassPrefixes: [],
        autoLearn: [{ insideVrf: "wholesale", prefixes: ["10.129.0.0/24", "10.129.1.0/24"] }],
        timeouts: { tcpEstablished: 7440, tcpTransitory: 240, udp: 120, icmp: 60 },
        pendingRestart: true,
      },
    ]);
    expect(itemOf(await getConfig(), "cgn.groups", "wholesale-cgn")!.values.autoLearn).toBe(
      "wholesale:10.129.0.0/24\nwholesale:10.129.1.0/24",
    );
    expect((await cgnStatus()).groups.map((g) => g.name)).toEqual(["cgn-1"]);
    expect((await history()).items[0]).toMatchObject({
      operation: "cgn-group",
      comment: "partners get CGN",
      restartRequired: true,
    });
  });

  it(
    "replaces a group, keeping its inside VRFs when the body leaves them out (they " +
      "are not in the spec's CgnGroup)",
    async () => {
      const { name: _name, pendingRestart: _pending, insideVrfs: _inside, ...body } = CGN_1;
      await ok(await putGroup("cgn-1", { ...body, portCap: 4096 }));
      expect(await (await group("cgn-1")).json<Group>()).toEqual({ ...CGN_1, portCap: 4096, pendingRestart: true });
      // Putting back what runs clears the mark.
      await ok(await putGroup("cgn-1", body));
      expect((await (await group("cgn-1")).json<Group>()).pendingRestart).toBe(false);
    },
  );

  it("answers restartRequired true even when nothing changed", async () => {
    const { name: _name, pendingRestart: _pending, ...body } = CGN_1;
    expect(await ok(await putGroup("cgn-1", body))).toMatchObject({ version: 1, restartRequired: true });
  });

  it("answers 422 listing every rejected field, and commits nothing", async () => {
    const errors = await rejection(
      await putGroup("bad", {
        insideVrfs: ["nowhere"],
        outsideVrf: "elsewhere",
        publicSubnets: ["192.0.2.1/24", "2001:db8::/64"],
        chunkSize: 32,
        setupsPerSec: 0,
        bypassPrefixes: ["10.0.0.0/33"],
        autoLearn: [{ insideVrf: "ghost", prefixes: ["100.127.0.0/16"] }],
        timeouts: { udp: 0, icmp: -5 },
      }),
    );
    expect(pointersOf(errors)).toEqual(
      [
        "autoLearn",
        "bypassPrefixes",
        "chunkSize",
        "insideVrfs",
        "outsideVrf",
        "publicSubnets",
        "setupsPerSec",
        "timeouts.icmp",
        "timeouts.udp",
      ].map((c) => `#/lists/cgn.groups/bad/${c}`),
    );
    expect(errors.find((e) => e.pointer.endsWith("/publicSubnets"))!.detail).toMatch(
      /'192\.0\.2\.1\/24'.*'2001:db8::\/64'/,
    );
    expect(errors.find((e) => e.pointer.endsWith("/autoLearn"))!.detail).toContain("no vrfs item 'ghost'");
    expect(await groups()).toEqual([CGN_1]);
  });

  it("checks port blocks: portCap at least chunkSize, a whole number of blocks, at most 64", async () => {
    const portCap = async (chunkSize: number, cap: number) =>
      pointersOf(await rejection(await putGroup("w", { ...WHOLESALE, chunkSize, portCap: cap })));
    expect(await portCap(1024, 512)).toEqual(["#/lists/cgn.groups/w/portCap"]);
    expect(await portCap(1000, 1500)).toEqual(["#/lists/cgn.groups/w/portCap"]);
    expect(await portCap(64, 64 * 65)).toEqual(["#/lists/cgn.groups/w/portCap"]);
    await ok(await putGroup("w", { ...WHOLESALE, chunkSize: 64, portCap: 64 * 64 }));
  });

  it("refuses public subnets overlapping another group's, and a VRF another group translates", async () => {
    const errors = await rejection(
      await putGroup("w", { ...WHOLESALE, insideVrfs: ["cgn-inside"], publicSubnets: ["192.0.2.32/27"] }),
    );
    expect(errors).toEqual([
      {
        in: "config",
        pointer: "#/lists/cgn.groups/w/insideVrfs",
        detail: expect.stringContaining("already translated by group 'cgn-1'"),
      },
      {
        in: "config",
        pointer: "#/lists/cgn.groups/w/publicSubnets",
        detail: expect.stringContaining("overlaps 192.0.2.0/26 of group 'cgn-1'"),
      },
    ]);
  });

  it("refuses a new group without inside VRFs or public subnets", async () => {
    expect(pointersOf(await rejection(await putGroup("w", { publicSubnets: [] })))).toEqual([
      "#/lists/cgn.groups/w/insideVrfs",
      "#/lists/cgn.groups/w/publicSubnets",
    ]);
  });

  it(
    "refuses to translate a VRF whose pools hold public, announced space (the " + "allocator could not be built)",
    async () => {
      const errors = await rejection(await putGroup("w", { ...WHOLESALE, insideVrfs: ["default"] }));
      expect(errors).toEqual([
        { in: "config", pointer: "#/lists/cgn.groups/w/insideVrfs", detail: expect.stringContaining("residential-v4") },
      ]);
    },
  );

  it("refuses a malformed body with 400", async () => {
    expect((await putGroup("w", { insideVrfs: ["wholesale"] })).status).toBe(400);
    expect((await putGroup("w", { ...WHOLESALE, chunkSize: "512" })).status).toBe(400);
    expect((await putGroup("w", { ...WHOLESALE, autoLearn: [{ insideVrf: "wholesale", prefixes: [] }] })).status).toBe(
      400,
    );
  });

  it("is for super-users only", async () => {
    expect((await putGroup("w", WHOLESALE, bearer(await tokenWithRole("operator")))).status).toBe(403);
    expect((await putSettings({ maxBindings: 1, maxFlows: 1 }, bearer(await tokenWithRole("operator")))).status).toBe(
      403,
    );
  });
});

describe("deleting a group", () => {
  it("deletes it with restartRequired; the running group stays until a restart", async () => {
    expect(await ok(await deleteGroup("cgn-1", "?comment=no%20more%20CGN"))).toMatchObject({
      status: "committed",
      name: "cgn-1",
      restartRequired: true,
    });
    expect(await groups()).toEqual([]);
    expect((await cgnStatus()).groups.map((g) => g.name)).toEqual(["cgn-1"]);
    expect((await history()).items[0]).toMatchObject({ operation: "cgn-group", comment: "no more CGN" });
  });

  it("answers 404 for an unknown group", async () => {
    expect((await deleteGroup("ghost")).status).toBe(404);
  });

  it("is required before a VRF the group names can be deleted, autoLearn included", async () => {
    await ok(
      await putGroup("w", {
        ...WHOLESALE,
        insideVrfs: ["wholesale"],
        autoLearn: [{ insideVrf: "wholesale", prefixes: ["10.129.0.0/24"] }],
      }),
    );
    const refused = await call("/api/v1/vrfs/wholesale", { method: "DELETE", headers: admin });
    expect(refused.status).toBe(409);
    const { detail } = await refused.json<z.output<typeof ProblemDetails>>();
    expect(detail).toContain("cgn.groups 'w' (insideVrfs)");
    expect(detail).toContain("cgn.groups 'w' (autoLearn)");
  });
});

describe("CGN settings", () => {
  it("are written with restartRequired, and run only after a restart", async () => {
    const result = await ok(await putSettings({ maxBindings: 5000, maxFlows: 600000, comment: "bigger box" }));
    expect(result).toMatchObject({ status: "committed", name: "settings", restartRequired: true });
    expect(await settings()).toEqual({ maxBindings: 5000, maxFlows: 600000, pendingRestart: true });
    expect(await cgnStatus()).toMatchObject({ maxBindings: 3000, maxFlows: 400000 });
    expect((await history()).items[0]).toMatchObject({
      operation: "cgn-settings",
      comment: "bigger box",
      changedPaths: ["#/fields/cgn.maxBindings", "#/fields/cgn.maxFlows"],
    });
  });

  it("answer 422 listing both rejected caps", async () => {
    expect(pointersOf(await rejection(await putSettings({ maxBindings: 0, maxFlows: 2 ** 31 })))).toEqual([
      "#/fields/cgn.maxBindings",
      "#/fields/cgn.maxFlows",
    ]);
    expect(pointersOf(await rejection(await putSettings({ maxBindings: 524_289, maxFlows: 1 })))).toEqual([
      "#/fields/cgn.maxBindings",
    ]);
    // 64 blocks per binding (portCap 4096 / chunkSize 64) × 100,000 bindings is more than the allocator holds.
    await ok(await putGroup("w", { ...WHOLESALE, chunkSize: 64, portCap: 4096 }));
    expect(pointersOf(await rejection(await putSettings({ maxBindings: 100_000, maxFlows: 1 })))).toEqual([
      "#/fields/cgn.maxBindings",
    ]);
  });

  it("answer 400 for a malformed body", async () => {
    expect((await putSettings({ maxBindings: 5000 })).status).toBe(400);
    expect((await putSettings({ maxBindings: "5000", maxFlows: 1 })).status).toBe(400);
  });
});

describe("a restart", () => {
  it("builds the CGN allocators from the configuration, starting the data plane afresh", async () => {
    // A mark in the running data plane: a filled pool, written to the snapshot by the next simulated minute.
    await scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 50 });
    await scenario({ action: "advance-clock", seconds: 70 });
    expect((await pools()).find((p) => p.name === "wholesale-v4")).toMatchObject({ cgnTranslated: false });
    expect(await reserved()).toBeGreaterThan(0);

    await ok(await putGroup("wholesale-cgn", WHOLESALE));
    await ok(await putSettings({ maxBindings: 5000, maxFlows: 600000 }));
    await restart();

    const status = await cgnStatus();
    expect(status).toMatchObject({ running: true, maxBindings: 5000, maxFlows: 600000 });
    expect(status.groups.map((g) => g.name)).toEqual(["cgn-1", "wholesale-cgn"]);
    expect(status.groups[1]).toMatchObject({
      publicSubnets: ["198.51.100.0/27"],
      chunkSize: 512,
      portCap: 2048,
      timeouts: { udp: 120 },
    });
    expect((await groups()).map((g) => g.pendingRestart)).toEqual([false, false]);
    expect((await settings()).pendingRestart).toBe(false);
    expect((await pools()).find((p) => p.name === "wholesale-v4")).toMatchObject({ cgnTranslated: true });
    expect(await reserved()).toBe(0);
  });

  it("keeps the running data plane when the CGN configuration is unchanged", async () => {
    await scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 50 });
    await scenario({ action: "advance-clock", seconds: 70 });
    const before = await reserved();
    expect(before).toBeGreaterThan(0);
    // A hot-applied change is no reason to rebuild anything.
    expect((await call("/api/v1/vrfs", json("POST", { name: "cust-x", tableId: 900 }, admin))).status).toBe(200);
    await restart();
    expect(await reserved()).toBe(before);
    expect((await cgnStatus()).groups.map((g) => g.name)).toEqual(["cgn-1"]);
  });

  it("drops a deleted group, CGN no longer running when none is left", async () => {
    await ok(await deleteGroup("cgn-1"));
    await restart();
    expect(await cgnStatus()).toMatchObject({ running: false, groups: [] });
    expect((await pools()).find((p) => p.name === "cgn-inside-v4")!.cgnTranslated).toBe(false);
  });

  it("lists no bindings while CGN is not running, saying so (spec: running false and empty rows)", async () => {
    await ok(await deleteGroup("cgn-1"));
    await restart();
    // Subscribers keep arriving in the former inside VRF; none of them is translated.
    await scenario({ action: "advance-clock", seconds: 900 });
    expect(
      (await call("/api/v1/sessions/summary", { headers: admin }).then((r) => r.json<SessionSummaryCounts>())).total,
    ).toBeGreaterThan(0);
    const page = await call("/api/v1/cgn/bindings", { headers: admin });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ running: false, total: 0, items: [] });
    expect(await cgnStatus()).toMatchObject({ running: false });
  });
});

describe("a software update", () => {
  it("seeds the CGN groups of a stored configuration that predates them, like a fresh appliance's", async () => {
    // The document as an appliance seeded before `cgn.groups` existed stored it.
    await runInDurableObject(env.Appliance.getByName("edge-1"), (_instance, state) => {
      const { document } = state.storage.sql.exec<{ document: string }>("SELECT document FROM config_active").one();
      const old = JSON.parse(document) as { lists: Record<string, unknown> };
      delete old.lists["cgn.groups"];
      state.storage.sql.exec("UPDATE config_active SET document = ?", JSON.stringify(old));
    });
    await restart();
    expect(await groups()).toEqual([CGN_1]);
    expect((await cgnStatus()).groups.map((g) => g.name)).toEqual(["cgn-1"]);
    expect((await history()).items[0]).toMatchObject({
      version: 2,
      actor: "system",
      operation: "seed",
      comment: expect.stringContaining("cgn.groups"),
      changedPaths: expect.arrayContaining(["#/lists/cgn.groups/cgn-1"]),
    });
  });
});
