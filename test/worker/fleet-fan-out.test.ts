/**
 * GET /twin/v1/fleet/read: one fleet-proxy read of several appliances in one
 * request (the web UI's fleet overview and search). Each row must be what
 * GET /api/v1/fleet/{appliance}/{path} relays for that appliance; the
 * proxy's own rules (spec "Fleet") are tested in fleet.test.ts.
 */
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { FanOutAnswer } from "../../src/schemas/fleet.ts";
import type { z } from "zod";
import { BOOTSTRAP_TOKEN, bearer, call, json, tokenWithRole } from "./client.ts";
import { allowLoopback } from "./config-client.ts";
import { advance } from "./helpers.ts";

type Problem = z.output<typeof ProblemDetails>;
const admin = bearer(BOOTSTRAP_TOKEN);

const fanOut = (
  path: string,
  appliances: string,
  headers: Record<string, string> = admin,
  extra: Record<string, string> = {},
) => call(`/twin/v1/fleet/read?${new URLSearchParams({ path, appliances, ...extra })}`, { headers });

describe("a fan-out read", () => {
  it("answers each appliance, in the order asked, with what the fleet proxy relays for it", async () => {
    for (const appliance of ["edge-1", "edge-2", "edge-3"]) await advance(120, appliance);
    const response = await fanOut("sessions?limit=3", "edge-3,edge-1,edge-2");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const rows = await response.json<FanOutAnswer[]>();
    expect(rows.map((r) => r.appliance)).toEqual(["edge-3", "edge-1", "edge-2"]);
    for (const row of rows) {
      const relayed = await call(`/api/v1/fleet/${row.appliance}/sessions?limit=3`, { headers: admin });
      expect(row.status, row.appliance).toBe(relayed.status);
      expect(row.body, row.appliance).toEqual(await relayed.json());
    }
    // Three appliances seeded apart: three different first pages.
    expect(new Set(rows.map((r) => JSON.stringify(r.body))).size).toBe(3);
  });

  it("gives a failing appliance its own row, the proxy's problem, and still answers the others", async () => {
    const rows = await (await fanOut("sessions/summary", "edge-2,edge-9")).json<FanOutAnswer[]>();
    expect(rows[0]).toMatchObject({ appliance: "edge-2", status: 200 });
    expect(rows[1]).toMatchObject({ appliance: "edge-9", status: 404 });
    expect((rows[1]!.body as Problem).detail).toContain("edge-9");
  });

  it("forwards the path's query: a bad one is each peer's own 400, naming the field", async () => {
    const rows = await (await fanOut("sessions?port=-1", "edge-1,edge-2")).json<FanOutAnswer[]>();
    for (const row of rows) {
      expect(row.status).toBe(400);
      expect((row.body as Problem).detail).toContain("query port");
    }
  });

  it("refuses, for the whole request, a path the proxy refuses (not an FP read)", async () => {
    for (const path of ["auth/whoami", "fleet/appliances", "logs/stream", "system/..%2Fauth/whoami"]) {
      const response = await fanOut(path, "edge-2");
      expect(response.status, path).toBe(403);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("answers 400 naming `appliances` for none or more than 40", async () => {
    const names = Array.from({ length: 41 }, (_, i) => `edge-${i + 1}`).join(",");
    for (const appliances of ["", " , ", names]) {
      const response = await fanOut("system/health", appliances);
      expect(response.status, appliances).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("appliances");
    }
    expect((await fanOut("system/health", names.split(",").slice(0, 40).join(","))).status).toBe(200);
  });

  it("is open to read-only callers, and to no one without a credential", async () => {
    expect((await fanOut("system/health", "edge-2", bearer(await tokenWithRole("read-only")))).status).toBe(200);
    expect((await fanOut("system/health", "edge-2", {})).status).toBe(401);
  });

  it("answers a peer that never answers as a 504 row once `timeoutMs` has passed, the others as they are", async () => {
    // An external peer on loopback that takes the request and never answers (test/worker/peer-server.ts); its own
    // deadline is 10 s.
    await allowLoopback();
    const peer = {
      listOps: [
        {
          listPath: "webUi.peers",
          key: "silent",
          fields: { url: `http://127.0.0.1:${inject("peerServerPort")}`, credential: "bngtok_" + "P".repeat(36) },
        },
      ],
    };
    expect((await call("/api/v1/config", json("PUT", peer, admin))).status).toBe(200);
    await abortAllDurableObjects();
    const rows = await (await fanOut("system/health", "edge-2,silent", admin, { timeoutMs: "300" })).json<
      FanOutAnswer[]
    >();
    expect(rows.map((r) => [r.appliance, r.status])).toEqual([
      ["edge-2", 200],
      ["silent", 504],
    ]);
    expect((rows[1]!.body as Problem).detail).toContain("300 ms");
  });

  it("answers 400 naming `timeoutMs` outside 100 ms to 60 s", async () => {
    for (const timeoutMs of ["99", "60001", "soon"]) {
      const response = await fanOut("system/health", "edge-2", admin, { timeoutMs });
      expect(response.status, timeoutMs).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("timeoutMs");
    }
  });
});
