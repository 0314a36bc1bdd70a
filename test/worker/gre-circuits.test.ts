import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { GreCircuit, GreListener, GreStatus } from "../../src/schemas/gre-circuits.ts";
import type { CommitResult } from "../../src/schemas/commit.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, history, logEntries, pointersOf, rejection } from "./config-client.ts";

type Circuit = z.output<typeof GreCircuit>;
type Listener = z.output<typeof GreListener>;

const base = "/api/v1/gre-circuits";
const circuits = async (query = "") => (await call(`${base}${query}`, { headers: admin })).json<Circuit[]>();
const listeners = async () => (await call(`${base}/listeners`, { headers: admin })).json<Listener[]>();
const status = async (query = "") =>
  (await call(`${base}/status${query}`, { headers: admin })).json<z.output<typeof GreStatus>>();
const statusOf = async (id: string) => (await status()).circuits.find((c) => c.id === id)!;
const putListener = (id: string, body: unknown, headers = admin) =>
  call(`${base}/listeners/${id}`, json("PUT", body, headers));
const deleteListener = (id: string) => call(`${base}/listeners/${id}`, { method: "DELETE", headers: admin });
const create = (body: unknown, headers = admin) => call(base, json("POST", body, headers));
const replace = (id: string, body: unknown) => call(`${base}/${id}`, json("PUT", body, admin));
const remove = (id: string, query = "") => call(`${base}/${id}${query}`, { method: "DELETE", headers: admin });
const advance = async (seconds: number) =>
  expect((await call("/twin/v1/scenario", json("POST", { action: "advance-clock", seconds }, admin))).status).toBe(200);
const ok = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<CommitResult>();
};

const ACME = {
  id: "acme-1",
  listenerId: "gw1",
  vrf: "wholesale",
  remote: "203.0.113.7",
  localTunnelAddress: "10.255.0.1/30",
  remoteTunnelAddress: "10.255.0.2/30",
  description: "ACME head office",
  peerAsn: 64512,
  maximumPrefix: 100,
  bfd: true,
  key: 42,
  clampMss: true,
  mtu: 1400,
};
const { id: _id, ...ACME_BODY } = ACME;

async function withListener(id = "gw1", localAddress = "192.0.2.10") {
  await ok(await putListener(id, { localAddress }));
}

describe("a fresh appliance", () => {
  it("has no GRE listeners, circuits or circuit states", async () => {
    expect(await listeners()).toEqual([]);
    expect(await circuits()).toEqual([]);
    expect((await status()).circuits).toEqual([]);
  });
});

describe("listeners", () => {
  it("are created with defaults for absent fields, and listed with their circuit count", async () => {
    const result = await ok(await putListener("gw1", { localAddress: "192.0.2.10", comment: "first listener" }));
    expect(result).toMatchObject({ status: "committed", name: "gw1", restartRequired: false });
    expect(Date.parse(result.committedUtc!)).not.toBeNaN();
    expect(await listeners()).toEqual([
      { id: "gw1", localAddress: "192.0.2.10", underlayInterface: null, ttl: 64, circuits: 0 },
    ]);
    await ok(await create(ACME));
    expect((await listeners())[0]!.circuits).toBe(1);
    expect((await history()).items[1]).toMatchObject({
      operation: "gre-listener",
      comment: "first listener",
      actor: "token:bootstrap",
    });
  });

  it("are replaced as a whole: absent fields return to their defaults", async () => {
    await ok(await putListener("gw1", { localAddress: "2001:db8::10", underlayInterface: "eth1.100", ttl: 32 }));
    expect(await listeners()).toEqual([
      { id: "gw1", localAddress: "2001:db8::10", underlayInterface: "eth1.100", ttl: 32, circuits: 0 },
    ]);
    await ok(await putListener("gw1", { localAddress: "2001:db8::10", ttl: null }));
    expect(await listeners()).toEqual([
      { id: "gw1", localAddress: "2001:db8::10", underlayInterface: null, ttl: 64, circuits: 0 },
    ]);
  });

  it("answer 422 listing every rejected field, and commit nothing", async () => {
    const errors = await rejection(
      await putListener("gw1", { localAddress: "192.0.2.300", underlayInterface: "eth 1", ttl: 0 }),
    );
    expect(pointersOf(errors)).toEqual(
      ["localAddress", "ttl", "underlayInterface"].map((c) => `#/lists/gre.listeners/gw1/${c}`),
    );
    expect(await rejection(await putListener("gw1", { localAddress: null }))).toEqual([
      { in: "config", pointer: "#/lists/gre.listeners/gw1/localAddress", detail: "required" },
    ]);
    expect(pointersOf(await rejection(await putListener("gw1", { localAddress: "192.0.2.10", ttl: 256 })))).toEqual([
      "#/lists/gre.listeners/gw1/ttl",
    ]);
    expect(await listeners()).toEqual([]);
  });

  it("refuse a local address another listener already has", async () => {
    await withListener("gw1");
    const errors = await rejection(await putListener("gw2", { localAddress: "192.0.2.10" }));
    expect(errors).toEqual([
      { in: "config", pointer: "#/lists/gre.listeners/gw2/localAddress", detail: expect.stringContaining("'gw1'") },
    ]);
  });

  it("refuse a malformed body or id with 400 or 422", async () => {
    expect((await putListener("gw1", { ttl: 5 })).status).toBe(400);
    expect((await putListener("gw1", { localAddress: "192.0.2.10", ttl: "64" })).status).toBe(400);
    expect(pointersOf(await rejection(await putListener("bad%20id", { localAddress: "192.0.2.10" })))).toEqual([
      "#/lists/gre.listeners/bad id",
    ]);
  });

  it("cannot be deleted while circuits reference them (409), and can once they are gone", async () => {
    await withListener();
    await ok(await create(ACME));
    const refused = await deleteListener("gw1");
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain(
      "gre.circuits 'acme-1' (listenerId)",
    );
    await ok(await remove("acme-1"));
    expect(await ok(await deleteListener("gw1"))).toMatchObject({ status: "committed", name: "gw1" });
    expect(await listeners()).toEqual([]);
  });

  it("answer 404 when deleting an unknown one", async () => {
    expect((await deleteListener("ghost")).status).toBe(404);
  });
});

describe("creating a circuit", () => {
  it("commits it and lists it with exactly the spec's fields; the commit is audited", async () => {
    await withListener();
    const result = await ok(await create({ ...ACME, comment: "new customer" }));
    expect(result).toMatchObject({ status: "committed", name: "acme-1", version: 3, restartRequired: false });
    expect(await circuits()).toEqual([ACME]);
    expect((await history()).items[0]).toMatchObject({
      operation: "gre-circuit",
      comment: "new customer",
      changedPaths: expect.arrayContaining(["#/lists/gre.circuits/acme-1"]),
    });
    expect((await logEntries("config.commit")).at(-1)!.fields).toMatchObject({
      operation: "gre-circuit",
      actor: "token:bootstrap",
      version: 3,
    });
  });

  it("fills absent optional attributes with their defaults", async () => {
    await withListener();
    await ok(
      await create({
        id: "plain",
        listenerId: "gw1",
        vrf: "default",
        remote: "203.0.113.8",
        localTunnelAddress: "10.255.0.5/31",
        remoteTunnelAddress: "10.255.0.4/31",
      }),
    );
    expect(await circuits()).toEqual([
      {
        id: "plain",
        listenerId: "gw1",
        vrf: "default",
        remote: "203.0.113.8",
        localTunnelAddress: "10.255.0.5/31",
        remoteTunnelAddress: "10.255.0.4/31",
        description: "",
        peerAsn: null,
        maximumPrefix: null,
        bfd: false,
        key: null,
        clampMss: true,
        mtu: null,
      },
    ]);
  });

  it("answers 409 when the id exists", async () => {
    await withListener();
    await ok(await create(ACME));
    expect(
      (
        await create({
          ...ACME,
          remote: "203.0.113.99",
          localTunnelAddress: "10.255.1.1/30",
          remoteTunnelAddress: "10.255.1.2/30",
        })
      ).status,
    ).toBe(409);
  });

  it("answers 422 listing every rejected attribute, and commits nothing", async () => {
    await withListener();
    const errors = await rejection(
      await create({
        id: "bad",
        listenerId: "nowhere",
        vrf: "no-such-vrf",
        remote: "203.0.113",
        localTunnelAddress: "10.255.0.1",
        remoteTunnelAddress: "10.255.0.2/33",
        description: "x".repeat(256),
        peerAsn: 0,
        maximumPrefix: 2 ** 32,
        key: -1,
        mtu: 9001,
      }),
    );
    expect(pointersOf(errors)).toEqual(
      [
        "description",
        "key",
        "listenerId",
        "localTunnelAddress",
        "maximumPrefix",
        "mtu",
        "peerAsn",
        "remote",
        "remoteTunnelAddress",
        "vrf",
      ].map((c) => `#/lists/gre.circuits/bad/${c}`),
    );
    expect(errors.find((e) => e.pointer.endsWith("/listenerId"))!.detail).toContain("no gre.listeners item 'nowhere'");
    expect(errors.find((e) => e.pointer.endsWith("/vrf"))!.detail).toContain("no vrfs item 'no-such-vrf'");
    expect(await circuits()).toEqual([]);
  });

  it("pairs the tunnel addresses: one subnet, two distinct usable hosts", async () => {
    await withListener();
    const pointers = async (local: string, remote: string) =>
      pointersOf(
        await rejection(await create({ ...ACME, localTunnelAddress: local, remoteTunnelAddress: remote })),
      ).map((p) => p.replace("#/lists/gre.circuits/acme-1/", ""));
    expect(await pointers("10.255.0.1/30", "10.255.0.5/30")).toEqual(["remoteTunnelAddress"]);
    expect(await pointers("10.255.0.1/30", "10.255.0.2/29")).toEqual(["remoteTunnelAddress"]);
    expect(await pointers("10.255.0.1/30", "10.255.0.1/30")).toEqual(["remoteTunnelAddress"]);
    expect(await pointers("10.255.0.0/30", "10.255.0.3/30")).toEqual(["localTunnelAddress", "remoteTunnelAddress"]);
    expect(await pointers("10.255.0.1/30", "fd00::2/126")).toEqual(["remoteTunnelAddress"]);
    expect(await pointers("10.255.0.1/32", "10.255.0.1/32")).toEqual(["localTunnelAddress", "remoteTunnelAddress"]);
    await ok(await create({ ...ACME, localTunnelAddress: "fd00:255::1/127", remoteTunnelAddress: "fd00:255::/127" }));
  });

  it("refuses a remote of another family than its listener, and a tunnel another circuit already runs", async () => {
    await withListener();
    expect(pointersOf(await rejection(await create({ ...ACME, remote: "2001:db8::7" })))).toEqual([
      "#/lists/gre.circuits/acme-1/remote",
    ]);
    await ok(await create(ACME));
    const twin = { ...ACME, id: "acme-2", localTunnelAddress: "10.255.0.5/30", remoteTunnelAddress: "10.255.0.6/30" };
    const errors = await rejection(await create(twin));
    expect(errors).toEqual([
      {
        in: "config",
        pointer: "#/lists/gre.circuits/acme-2/remote",
        detail: expect.stringContaining("circuit 'acme-1' already runs a tunnel"),
      },
    ]);
    // A distinct GRE key tells the two tunnels apart (RFC 2890).
    await ok(await create({ ...twin, key: 43 }));
  });

  it("refuses tunnel subnets overlapping another circuit's in the same VRF, not in another", async () => {
    await withListener();
    await ok(await create(ACME));
    const overlapping = {
      ...ACME,
      id: "acme-2",
      remote: "203.0.113.8",
      localTunnelAddress: "10.255.0.2/29",
      remoteTunnelAddress: "10.255.0.3/29",
    };
    expect(pointersOf(await rejection(await create(overlapping)))).toEqual([
      "#/lists/gre.circuits/acme-2/localTunnelAddress",
    ]);
    await ok(await create({ ...overlapping, vrf: "cgn-inside" }));
  });

  it("refuses the ids that name the section's own resources", async () => {
    await withListener();
    for (const id of ["status", "listeners"])
      expect(pointersOf(await rejection(await create({ ...ACME, id })))).toEqual([`#/lists/gre.circuits/${id}`]);
  });

  it("refuses a malformed body with 400", async () => {
    await withListener();
    const { vrf: _vrf, ...noVrf } = ACME;
    expect((await create(noVrf)).status).toBe(400);
    expect((await create({ ...ACME, peerAsn: "64512" })).status).toBe(400);
    expect((await create({ ...ACME, bfd: "yes" })).status).toBe(400);
    expect((await create({ ...ACME, mtu: 1400.5 })).status).toBe(400);
  });

  it("is open to an operator token and refused to a read-only one", async () => {
    await withListener();
    expect((await create(ACME, bearer(await tokenWithRole("read-only")))).status).toBe(403);
    expect((await create(ACME, bearer(await tokenWithRole("operator")))).status).toBe(200);
  });
});

describe("listing circuits", () => {
  it("keeps configuration order and filters by VRF", async () => {
    await withListener();
    await ok(await create(ACME));
    await ok(await create({ ...ACME, id: "beta", vrf: "cgn-inside", remote: "203.0.113.9" }));
    expect((await circuits()).map((c) => c.id)).toEqual(["acme-1", "beta"]);
    expect((await circuits("?vrf=cgn-inside")).map((c) => c.id)).toEqual(["beta"]);
    expect(await circuits("?vrf=nowhere")).toEqual([]);
  });
});

describe("replacing a circuit", () => {
  it("replaces every attribute, the URL's id winning over the body's", async () => {
    await withListener();
    await ok(await create(ACME));
    const result = await ok(
      await replace("acme-1", {
        id: "other",
        listenerId: "gw1",
        vrf: "wholesale",
        remote: "203.0.113.7",
        localTunnelAddress: "10.255.0.1/30",
        remoteTunnelAddress: "10.255.0.2/30",
        comment: "drop BGP",
      }),
    );
    expect(result).toMatchObject({ status: "committed", name: "acme-1" });
    expect(await circuits()).toEqual([
      { ...ACME, description: "", peerAsn: null, maximumPrefix: null, bfd: false, key: null, mtu: null },
    ]);
    expect((await history()).items[0]).toMatchObject({ operation: "gre-circuit", comment: "drop BGP" });
  });

  it("answers 404 for an unknown circuit and 422 for a bad value", async () => {
    await withListener();
    expect((await replace("ghost", ACME_BODY)).status).toBe(404);
    await ok(await create(ACME));
    expect(pointersOf(await rejection(await replace("acme-1", { ...ACME_BODY, mtu: 500 })))).toEqual([
      "#/lists/gre.circuits/acme-1/mtu",
    ]);
  });
});

describe("deleting a circuit", () => {
  it("deletes it and records the comment; 404 for an unknown one", async () => {
    await withListener();
    await ok(await create(ACME));
    expect(await ok(await remove("acme-1", "?comment=customer%20left"))).toMatchObject({
      status: "committed",
      name: "acme-1",
    });
    expect(await circuits()).toEqual([]);
    expect((await status()).circuits).toEqual([]);
    expect((await history()).items[0]).toMatchObject({ operation: "gre-circuit", comment: "customer left" });
    expect((await remove("acme-1")).status).toBe(404);
  });

  it("is required before the circuit's VRF can be deleted", async () => {
    await withListener();
    await ok(await create(ACME));
    const refused = await call("/api/v1/vrfs/wholesale", { method: "DELETE", headers: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain("gre.circuits 'acme-1' (vrf)");
  });
});

describe("circuit status", () => {
  it("is provisioning right after creation, then up with BFD and BGP once the clock moves", async () => {
    await withListener();
    await ok(await create(ACME));
    await ok(
      await create({
        ...ACME,
        id: "static",
        remote: "203.0.113.9",
        localTunnelAddress: "10.255.9.1/30",
        remoteTunnelAddress: "10.255.9.2/30",
        peerAsn: null,
        bfd: false,
      }),
    );
    const before = await status();
    expect(before.circuits).toEqual([
      {
        id: "acme-1",
        vrf: "wholesale",
        circuitState: "provisioning",
        tunnelState: "provisioning",
        bfdState: "down",
        bgpState: "Idle",
        prefixesReceived: 0,
        lastChangeUtc: before.asOfUtc,
      },
      {
        id: "static",
        vrf: "wholesale",
        circuitState: "provisioning",
        tunnelState: "provisioning",
        bfdState: "disabled",
        bgpState: "disabled",
        prefixesReceived: 0,
        lastChangeUtc: before.asOfUtc,
      },
    ]);
    await advance(120);
    const after = await status();
    expect(Date.parse(after.asOfUtc) - Date.parse(before.asOfUtc)).toBeGreaterThanOrEqual(120_000);
    const [acme, plain] = after.circuits;
    expect(acme).toMatchObject({ circuitState: "up", tunnelState: "up", bfdState: "up", bgpState: "Established" });
    expect(acme!.prefixesReceived).toBeGreaterThan(0);
    expect(Date.parse(acme!.lastChangeUtc)).toBeGreaterThan(Date.parse(before.asOfUtc));
    expect(Date.parse(acme!.lastChangeUtc)).toBeLessThanOrEqual(Date.parse(after.asOfUtc));
    expect(plain).toMatchObject({
      circuitState: "up",
      tunnelState: "up",
      bfdState: "disabled",
      bgpState: "disabled",
      prefixesReceived: 0,
    });
  });

  it("shows BGP torn down to Idle when the peer exceeds maximumPrefix", async () => {
    await withListener();
    await ok(await create({ ...ACME, maximumPrefix: 1 }));
    await advance(120);
    expect(await statusOf("acme-1")).toMatchObject({
      circuitState: "down",
      tunnelState: "up",
      bgpState: "Idle",
      prefixesReceived: 0,
    });
  });

  it("re-provisions every circuit of a listener whose local address changes, and only those", async () => {
    await withListener("gw1", "192.0.2.10");
    await withListener("gw2", "192.0.2.20");
    await ok(await create(ACME));
    await ok(
      await create({
        ...ACME,
        id: "acme-2",
        remote: "203.0.113.8",
        localTunnelAddress: "10.255.0.5/30",
        remoteTunnelAddress: "10.255.0.6/30",
      }),
    );
    await ok(
      await create({
        ...ACME,
        id: "other",
        listenerId: "gw2",
        remote: "203.0.113.9",
        localTunnelAddress: "10.255.0.9/30",
        remoteTunnelAddress: "10.255.0.10/30",
      }),
    );
    await advance(120);
    const up = await status();
    expect(up.circuits.map((c) => c.circuitState)).toEqual(["up", "up", "up"]);
    // Another ttl does not move the tunnels' endpoints: nothing is re-provisioned.
    await ok(await putListener("gw1", { localAddress: "192.0.2.10", ttl: 128 }));
    expect((await status()).circuits).toEqual(up.circuits);
    await ok(await putListener("gw1", { localAddress: "192.0.2.11", ttl: 128 }));
    const moved = await status();
    for (const id of ["acme-1", "acme-2"]) {
      const circuit = moved.circuits.find((c) => c.id === id)!;
      expect(circuit).toMatchObject({
        circuitState: "provisioning",
        tunnelState: "provisioning",
        lastChangeUtc: moved.asOfUtc,
      });
      expect(Date.parse(circuit.lastChangeUtc)).toBeGreaterThan(
        Date.parse(up.circuits.find((c) => c.id === id)!.lastChangeUtc),
      );
    }
    expect(moved.circuits.find((c) => c.id === "other")).toEqual(up.circuits.find((c) => c.id === "other"));
    await advance(120);
    expect((await status()).circuits.map((c) => c.circuitState)).toEqual(["up", "up", "up"]);
  });

  it("re-provisions a circuit whose own tunnel changes, not one whose description does", async () => {
    await withListener();
    await ok(await create(ACME));
    await advance(120);
    const up = await statusOf("acme-1");
    await ok(await replace("acme-1", { ...ACME_BODY, description: "renamed" }));
    expect(await statusOf("acme-1")).toEqual(up);
    await ok(await replace("acme-1", { ...ACME_BODY, description: "renamed", key: 77 }));
    expect((await statusOf("acme-1")).circuitState).toBe("provisioning");
  });

  it("reads the same at the same instant, filters by VRF, and survives a restart of the object", async () => {
    await withListener();
    await ok(await create(ACME));
    await ok(await create({ ...ACME, id: "beta", vrf: "cgn-inside", remote: "203.0.113.9" }));
    await advance(120);
    const first = await status();
    expect(await status()).toEqual(first);
    expect((await status("?vrf=cgn-inside")).circuits.map((c) => c.id)).toEqual(["beta"]);
    await abortAllDurableObjects();
    const reopened = await status();
    expect(
      reopened.circuits.map(({ id, circuitState, lastChangeUtc }) => ({ id, circuitState, lastChangeUtc })),
    ).toEqual(first.circuits.map(({ id, circuitState, lastChangeUtc }) => ({ id, circuitState, lastChangeUtc })));
  });
});
