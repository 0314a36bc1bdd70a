import { describe, expect, it } from "vitest";
import type { SessionDetail, SessionList } from "../../src/schemas/sessions.ts";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, history, pointersOf, rejection } from "./config-client.ts";

const base = "/api/v1/source-vrf-rules";
const list = async () => (await call(base, { headers: admin })).json<unknown[]>();
const one = (name: string) => call(`${base}/${name}`, { headers: admin });
const create = (body: unknown, headers = admin) => call(base, json("POST", body, headers));
const replace = (name: string, body: unknown) => call(`${base}/${name}`, json("PUT", body, admin));
const remove = (name: string) => call(`${base}/${name}`, { method: "DELETE", headers: admin });

const RULE = {
  name: "wholesale-to-cgn",
  ingestVrf: "wholesale",
  sourceSubnets: ["10.128.0.0/24", "10.128.2.0/24"],
  targetVrf: "cgn-inside",
  comment: "steer partner A",
};

describe("source VRF rules", () => {
  it("start empty", async () => {
    expect(await list()).toEqual([]);
  });

  it("are created, listed, read one by one, with the comment in the history", async () => {
    const response = await create(RULE);
    expect(await response.json()).toMatchObject({
      status: "committed",
      name: "wholesale-to-cgn",
      version: 2,
      restartRequired: false,
    });
    const { comment: _comment, ...rule } = RULE;
    expect(await list()).toEqual([rule]);
    expect(await (await one("wholesale-to-cgn")).json()).toEqual(rule);
    expect((await history()).items[0]).toMatchObject({ operation: "source-vrf-rule", comment: "steer partner A" });
  });

  it("take the global table as either VRF, and no subnets as every source", async () => {
    expect((await create({ name: "all-to-default", ingestVrf: "cgn-inside", targetVrf: "default" })).status).toBe(200);
    expect(await (await one("all-to-default")).json()).toEqual({
      name: "all-to-default",
      ingestVrf: "cgn-inside",
      sourceSubnets: [],
      targetVrf: "default",
    });
  });

  it("answer 409 for a name that exists and 404 for one that does not", async () => {
    await create(RULE);
    expect((await create({ ...RULE, sourceSubnets: ["10.128.9.0/24"] })).status).toBe(409);
    expect((await one("ghost")).status).toBe(404);
    expect((await replace("ghost", { ingestVrf: "default", targetVrf: "wholesale" })).status).toBe(404);
    expect((await remove("ghost")).status).toBe(404);
  });

  it("are refused with 422 naming every bad value: unknown VRFs, bad prefixes, a rule into its own VRF", async () => {
    const errors = await rejection(
      await create({
        name: "bad",
        ingestVrf: "nowhere",
        sourceSubnets: ["10.0.0.1/8", "banana"],
        targetVrf: "elsewhere",
      }),
    );
    expect(pointersOf(errors)).toEqual([
      "#/lists/sourceVrfRules/bad/ingestVrf",
      "#/lists/sourceVrfRules/bad/sourceSubnets",
      "#/lists/sourceVrfRules/bad/targetVrf",
    ]);
    expect(errors.find((e) => e.pointer.endsWith("/ingestVrf"))!.detail).toContain("no vrfs item 'nowhere'");
    expect(
      pointersOf(await rejection(await create({ name: "loop", ingestVrf: "wholesale", targetVrf: "wholesale" }))),
    ).toEqual(["#/lists/sourceVrfRules/loop/targetVrf"]);
    expect(await list()).toEqual([]);
  });

  it("are refused when their subnets overlap another rule on the same ingest VRF", async () => {
    await create(RULE);
    const errors = await rejection(
      await create({
        name: "overlap",
        ingestVrf: "wholesale",
        sourceSubnets: ["10.128.0.128/25"],
        targetVrf: "default",
      }),
    );
    expect(errors).toEqual([
      {
        in: "config",
        pointer: "#/lists/sourceVrfRules/overlap/sourceSubnets",
        detail: expect.stringContaining("wholesale-to-cgn"),
      },
    ]);
    expect(
      (
        await create({
          name: "elsewhere",
          ingestVrf: "cgn-inside",
          sourceSubnets: ["10.128.0.128/25"],
          targetVrf: "default",
        })
      ).status,
    ).toBe(200);
  });

  it("are replaced whole, the name staying the URL's", async () => {
    await create(RULE);
    const response = await replace("wholesale-to-cgn", {
      name: "renamed",
      ingestVrf: "wholesale",
      targetVrf: "default",
      comment: "no subnets now",
    });
    expect(await response.json()).toMatchObject({ status: "committed", name: "wholesale-to-cgn" });
    expect(await list()).toEqual([
      { name: "wholesale-to-cgn", ingestVrf: "wholesale", sourceSubnets: [], targetVrf: "default" },
    ]);
  });

  it("are deleted", async () => {
    await create(RULE);
    expect(await (await remove("wholesale-to-cgn")).json()).toMatchObject({
      status: "committed",
      name: "wholesale-to-cgn",
      version: 3,
    });
    expect(await list()).toEqual([]);
  });

  it("can be read by read-only and written only by super-users", async () => {
    const viewer = bearer(await tokenWithRole("read-only"));
    const operator = bearer(await tokenWithRole("operator"));
    expect((await call(base, { headers: viewer })).status).toBe(200);
    expect((await create(RULE, operator)).status).toBe(403);
    expect((await call(`${base}/x`, { method: "DELETE", headers: operator })).status).toBe(403);
  });
});

describe("traffic steering", () => {
  const scenario = (action: unknown) => call("/twin/v1/scenario", json("POST", action, admin));
  const detail = async (id: number) => (await call(`/api/v1/sessions/${id}`, { headers: admin })).json<SessionDetail>();

  it("routes a session's traffic into the rule's target VRF at once, and stops when the rule goes", async () => {
    await scenario({ action: "advance-clock", seconds: 600 });
    const sessions = await (
      await call("/api/v1/sessions?vrf=wholesale&limit=2", { headers: admin })
    ).json<SessionList>();
    const [steered, other] = sessions.items;
    expect(await detail(steered!.id)).toMatchObject({ steering: null });

    await create({
      name: "one-host",
      ingestVrf: "wholesale",
      sourceSubnets: [`${steered!.ipv4}/32`],
      targetVrf: "cgn-inside",
    });
    expect((await detail(steered!.id)).steering).toEqual({ rule: "one-host", targetVrf: "cgn-inside" });
    expect((await detail(other!.id)).steering).toBeNull();

    await remove("one-host");
    expect((await detail(steered!.id)).steering).toBeNull();
  });

  it("matches every source of the ingest VRF when the rule has no subnets", async () => {
    await scenario({ action: "advance-clock", seconds: 600 });
    const [session] = (
      await (await call("/api/v1/sessions?vrf=wholesale&limit=1", { headers: admin })).json<SessionList>()
    ).items;
    await create({ name: "all-wholesale", ingestVrf: "wholesale", sourceSubnets: [], targetVrf: "default" });
    expect((await detail(session!.id)).steering).toEqual({ rule: "all-wholesale", targetVrf: "default" });
  });
});
