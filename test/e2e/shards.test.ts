/**
 * A fleet spread over two workerd processes (BNG_SHARDS=2), as a fleet too
 * big for one core's bring-up is run: every appliance answers on its own
 * listener, each process keeps its own state directory, and the fleet proxy
 * reaches a member of the other process both ways, as it would in one.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveToken } from "../../src/trust/tokens.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = "bngtok_" + "E2e".repeat(10) + "4YjhF4";
const auth = { authorization: `Bearer ${BOOTSTRAP}` };
const base = (i: number) => `http://127.0.0.1:${PORT_BASE + i}`;

let fleet: RunningFleet;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-shards-"));
  const names = ["edge-1", "edge-2", "edge-3"];
  const appliances = names.map((name, i) => ({
    name,
    seed: 500 + i,
    profile: "small",
    webUi: {
      listener: { address: "127.0.0.1", port: PORT_BASE + i },
      peers: names.filter((n) => n !== name).map((n) => ({ name: n })),
    },
  }));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(fleetFile, JSON.stringify({ portBase: PORT_BASE, appliances }));
  fleet = await launchFleet(
    { BNG_FLEET: fleetFile, BNG_HTTP: "1", BNG_SHARDS: "2", BNG_BOOTSTRAP_TOKEN: BOOTSTRAP },
    [0, 1, 2].map((i) => PORT_BASE + i),
    path.join(dir, "data"),
  );
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

const json = async (url: string) => {
  const response = await fetch(url, { headers: auth });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    via: response.headers.get("x-bng-fleet-appliance"),
  };
};

describe("a fleet over two workerd processes", () => {
  it("runs two workerd processes, each with its own state directory", async () => {
    const children = execFileSync("ps", ["-o", "comm=", "--ppid", String(fleet.pid)], { encoding: "utf8" })
      .split("\n")
      .filter((c) => c.startsWith("workerd"));
    expect(children).toHaveLength(2);
    expect((await readdir(path.join(fleet.dataDir, "durable-objects"))).sort()).toEqual([
      "shard-1-of-2",
      "shard-2-of-2",
    ]);
  });

  it("serves every appliance on its own listener", async () => {
    for (const [i, name] of ["edge-1", "edge-2", "edge-3"].entries()) {
      const health = await json(`${base(i)}/api/v1/system/health`);
      expect(health).toMatchObject({ status: 200, body: { status: "ok", appliance: name } });
    }
  });

  it("relays through the fleet proxy to a member of the other process, both ways, and within one process", async () => {
    // edge-1 and edge-3 share the first process (appliance i in process i mod 2); edge-2 is in the second.
    for (const [from, to] of [
      [0, "edge-2"],
      [1, "edge-1"],
      [1, "edge-3"],
      [0, "edge-3"],
    ] as const) {
      const relayed = await json(`${base(from)}/api/v1/fleet/${to}/system/health`);
      expect(relayed, `${from} → ${to}`).toMatchObject({ status: 200, via: to, body: { appliance: to } });
    }
  });

  it("reads the other process's appliance itself, not a copy opened beside it", async () => {
    // Written on edge-2's own listener; read through edge-1's proxy. A copy of edge-2 opened in edge-1's process would
    // not have it.
    const created = await fetch(`${base(1)}/api/v1/vrfs`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "cust-shard", tableId: 917 }),
    });
    expect(created.status).toBe(200);
    const response = await fetch(`${base(0)}/api/v1/fleet/edge-2/vrfs`, { headers: auth });
    expect(response.status).toBe(200);
    const vrfs = (await response.json()) as { name: string; tableId: number }[];
    expect(vrfs).toContainEqual(expect.objectContaining({ name: "cust-shard", tableId: 917 }));
  });

  it(
    "answers a fan-out read of both processes' appliances in one request, each row " + "what the proxy relays",
    async () => {
      const response = await fetch(`${base(0)}/twin/v1/fleet/read?path=system/health&appliances=edge-3,edge-2,edge-1`, {
        headers: auth,
      });
      expect(response.status).toBe(200);
      const rows = (await response.json()) as { appliance: string; status: number; body: { appliance: string } }[];
      expect(rows.map((r) => [r.appliance, r.status, r.body.appliance])).toEqual([
        ["edge-3", 200, "edge-3"],
        ["edge-2", 200, "edge-2"],
        ["edge-1", 200, "edge-1"],
      ]);
    },
  );

  it(
    "answers fan-out reads made at the same moment each on its own (six at once, as " + "a browser sends them)",
    async () => {
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${base(0)}/twin/v1/fleet/read?path=system/health&appliances=edge-2,edge-3`, { headers: auth }),
        ),
      );
      for (const response of responses) {
        expect(response.status).toBe(200);
        const rows = (await response.json()) as { appliance: string; status: number }[];
        expect(rows.map((r) => [r.appliance, r.status])).toEqual([
          ["edge-2", 200],
          ["edge-3", 200],
        ]);
      }
    },
  );

  it(
    "takes another process's relayed reads only from the fleet's processes: to " + "anyone else that path is not there",
    async () => {
      // The path the processes relay through (src/http/shard-relay.ts), asked on a public listener with a valid API
      // token.
      const body = JSON.stringify([
        {
          appliance: "edge-2",
          target: `${base(1)}/api/v1/system/health`,
          credential: BOOTSTRAP,
          accept: "application/json",
        },
      ]);
      for (const headers of [auth, { authorization: "Bearer not-the-shard-token" }, {}]) {
        const response = await fetch(`${base(1)}/_bngfleet/shard-relay`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body,
        });
        expect(response.status).toBe(404);
      }
    },
  );

  it(
    "refuses a relay body past its 64 KiB cap with 413 and one that is no batch with " + "400, as problem details",
    async () => {
      // The token as the processes derive it from the fleet secret the launcher keeps in its data directory
      // (src/fleet/shards.ts).
      const secret = (await readFile(path.join(fleet.dataDir, "fleet-secret"), "utf8")).trim();
      const headers = {
        authorization: `Bearer ${await deriveToken(secret, "shard-relay")}`,
        "content-type": "application/json",
      };
      const relay = (body: string) => fetch(`${base(1)}/_bngfleet/shard-relay`, { method: "POST", headers, body });
      const get = {
        appliance: "edge-2",
        target: `${base(1)}/api/v1/system/health`,
        credential: BOOTSTRAP,
        accept: "application/json",
      };
      const ok = await relay(JSON.stringify([get]));
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { status: number }[]).map((a) => a.status)).toEqual([200]);
      const tooLarge = await relay(JSON.stringify([{ ...get, accept: "x".repeat(70 * 1024) }]));
      expect([tooLarge.status, tooLarge.headers.get("content-type")]).toEqual([413, "application/problem+json"]);
      for (const body of ["{not json", JSON.stringify({ appliance: "edge-2" }), JSON.stringify([])]) {
        const refused = await relay(body);
        expect([refused.status, refused.headers.get("content-type")], body).toEqual([400, "application/problem+json"]);
      }
    },
  );
});
