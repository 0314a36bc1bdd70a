/**
 * The session list's filters beyond the spec's list (docs/decisions.md,
 * Sessions): a subscriber found by what the access network shows of it, its
 * MAC in any of the three spellings people paste, its S-VLAN and C-VLAN; and
 * the sessions on one plan (a session's page links its plan to them).
 * Expected rows are read from the list itself, unfiltered.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
const list = async (query: string) => {
  const response = await call(`/api/v1/sessions?${query}`, { headers: admin });
  expect(response.status, query).toBe(200);
  return response.json<SessionList>();
};

/** `aa:bb:cc:dd:ee:ff` as Cisco writes it, upper case: `AABB.CCDD.EEFF`. */
const dotted = (mac: string) => mac.replace(/:/g, "").toUpperCase().match(/.{4}/g)!.join(".");

describe("finding a session by the access network's view of it", () => {
  // Each test starts from the appliance at its fixed first instant (vitest.config.ts): ten minutes bring up its
  // subscribers.
  beforeEach(async () => {
    expect(
      (await call("/twin/v1/scenario", json("POST", { action: "advance-clock", seconds: 600 }, admin))).status,
    ).toBe(200);
  });

  it(
    "finds a session by its MAC typed with dashes or in Cisco's dotted form, and " + "only sessions with that MAC",
    async () => {
      const wanted = (await list("limit=500")).items.find((s) => s.mac)!;
      for (const spelling of [wanted.mac!.toUpperCase().replace(/:/g, "-"), dotted(wanted.mac!)]) {
        const found = await list(`mac=${encodeURIComponent(spelling)}&limit=500`);
        expect(found.items.map((s) => s.id)).toContain(wanted.id);
        expect(new Set(found.items.map((s) => s.mac))).toEqual(new Set([wanted.mac]));
      }
    },
  );

  it("finds the sessions on one S-VLAN and C-VLAN pair, and counts them as the whole table does", async () => {
    const all = (await list("limit=500")).items;
    const wanted = all.find((s) => s.svlan > 0 || s.vlan > 0) ?? all[0]!;
    const found = await list(`svlan=${wanted.svlan}&vlan=${wanted.vlan}&limit=500`);
    expect(found.items.map((s) => s.id)).toContain(wanted.id);
    expect(found.items.every((s) => s.svlan === wanted.svlan && s.vlan === wanted.vlan)).toBe(true);
    // Within the first 500 the filter keeps exactly the rows that match.
    const inPage = all.filter((s) => s.svlan === wanted.svlan && s.vlan === wanted.vlan).map((s) => s.id);
    expect(found.items.map((s) => s.id).filter((id) => all.some((s) => s.id === id))).toEqual(inPage);
  });

  it("lists the sessions on one plan, typed in any case, and counts them as the whole table does", async () => {
    const all = (await list("limit=500")).items;
    const plans = new Set(all.map((s) => s.plan));
    // The demo profile sells more than one plan, so the filter has something to leave out.
    expect(plans.size).toBeGreaterThan(1);
    const wanted = all[0]!.plan;
    const found = await list(`plan=${encodeURIComponent(wanted.toUpperCase())}&limit=500`);
    expect(found.items.length).toBeGreaterThan(0);
    expect(new Set(found.items.map((s) => s.plan))).toEqual(new Set([wanted]));
    const inPage = all.filter((s) => s.plan === wanted).map((s) => s.id);
    expect(found.items.map((s) => s.id).filter((id) => all.some((s) => s.id === id))).toEqual(inPage);
    // Every session is on exactly one plan: over the whole table, each plan's total is its count of rows.
    const table: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await list(`limit=500&offset=${offset}`);
      table.push(...page.items.map((s) => s.plan));
      if (offset + 500 >= page.total) break;
    }
    for (const plan of new Set(table)) {
      expect((await list(`plan=${encodeURIComponent(plan)}&limit=1`)).total, plan).toBe(
        table.filter((p) => p === plan).length,
      );
    }
  });

  it("refuses a MAC it cannot read with a 400 naming the parameter", async () => {
    const response = await call("/api/v1/sessions?mac=00:11:22:33:44", { headers: admin });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = await response.json<z.output<typeof ProblemDetails>>();
    expect(problem.errors?.map((e) => [e.in, e.pointer])).toEqual([["query", "#/mac"]]);
  });

  it("refuses a VLAN outside 0-4094", async () => {
    expect((await call("/api/v1/sessions?vlan=4095", { headers: admin })).status).toBe(400);
  });
});
