import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { bearer, call, tokenWithRole } from "./client.ts";
import { admin, commit, rejection, putConfig } from "./config-client.ts";
import { advance, get, scenario } from "./helpers.ts";
import type { IpsecPeerStatus as Peer, IpsecStatus as Status } from "../../src/schemas/ipsec.ts";

const PSK = "correct-horse-battery-staple";
const status = () => get<Status>("/api/v1/ipsec");
const peer = (name: string) => get<Peer>(`/api/v1/ipsec/peers/${name}`);
const addPeer = (name: string, remoteAddress = "203.0.113.10") =>
  commit({
    listOps: [{ listPath: "ipsec.peers", key: name, fields: { remoteAddress, psk: PSK, remoteTs: "192.168.50.0/24" } }],
  });
const setEnabled = (enabled: boolean) => commit({ fields: { "ipsec.enabled": String(enabled) } });

describe("a fresh appliance", () => {
  it("has IPsec disabled and no peers", async () => {
    expect(await status()).toEqual({
      enabled: false,
      reachable: true,
      lastError: null,
      establishedCount: 0,
      peers: [],
    });
  });
});

describe("with IPsec disabled", () => {
  it("lists every configured peer as DOWN", async () => {
    await addPeer("branch-1");
    await advance(60);
    const s = await status();
    expect(s).toMatchObject({ enabled: false, reachable: true, establishedCount: 0 });
    expect(s.peers).toEqual([
      expect.objectContaining({
        name: "branch-1",
        configured: true,
        state: "DOWN",
        configuredRemote: "203.0.113.10",
        children: [],
      }),
    ]);
  });
});

describe("enabling IPsec", () => {
  it("applies at once and negotiates every peer to ESTABLISHED, with SA details that follow the clock", async () => {
    await addPeer("branch-1");
    const result = await setEnabled(true);
    expect(result.restartRequired).toBe(false);
    expect((await status()).enabled).toBe(true);
    expect(["DOWN", "CONNECTING"]).toContain((await peer("branch-1")).state);
    await advance(30);
    const first = await peer("branch-1");
    expect(first).toMatchObject({
      state: "ESTABLISHED",
      configured: true,
      localHost: "10.0.0.2",
      remoteHost: "203.0.113.10",
      ikeVersion: "IKEv2",
      proposal: "AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384",
    });
    expect(first.children).toEqual([
      expect.objectContaining({ state: "INSTALLED", localTs: ["10.0.0.2/32"], remoteTs: ["192.168.50.0/24"] }),
    ]);
    expect((await status()).establishedCount).toBe(1);
    await advance(600);
    const later = await peer("branch-1");
    expect(later.establishedSeconds! - first.establishedSeconds!).toBe(600);
    expect(first.rekeyInSeconds! - later.rekeyInSeconds!).toBe(600);
    expect(later.children[0]!.inBytes).toBeGreaterThan(first.children[0]!.inBytes);
    expect(later.children[0]!.outPackets).toBeGreaterThan(first.children[0]!.outPackets);
  });

  it("and disabling it tears every SA down at once", async () => {
    await addPeer("branch-1");
    await setEnabled(true);
    await advance(30);
    await setEnabled(false);
    expect(await status()).toMatchObject({
      enabled: false,
      establishedCount: 0,
      peers: [expect.objectContaining({ state: "DOWN", children: [] })],
    });
  });
});

describe("a peer deleted from the configuration", () => {
  it("shows with configured false while its SA lives, then is gone (404)", async () => {
    await addPeer("branch-1");
    await addPeer("branch-2", "vpn.branch-2.example");
    await setEnabled(true);
    await advance(30);
    await commit({ listOps: [{ listPath: "ipsec.peers", key: "branch-1", delete: true }] });
    const s = await status();
    expect(s.peers.map((p) => [p.name, p.configured, p.state])).toEqual([
      ["branch-2", true, "ESTABLISHED"],
      ["branch-1", false, "ESTABLISHED"],
    ]);
    expect(await peer("branch-1")).toMatchObject({ configured: false, state: "ESTABLISHED" });
    await advance(300);
    expect((await status()).peers.map((p) => p.name)).toEqual(["branch-2"]);
    const gone = await call("/api/v1/ipsec/peers/branch-1", { headers: admin });
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).toBe("application/problem+json");
  });

  it("that was never up is gone at once", async () => {
    await addPeer("branch-1");
    await commit({ listOps: [{ listPath: "ipsec.peers", key: "branch-1", delete: true }] });
    expect((await status()).peers).toEqual([]);
  });
});

describe("peer detail", () => {
  it("answers 404 for a name no peer is configured under and no SA carries", async () => {
    const response = await call("/api/v1/ipsec/peers/nobody", { headers: admin });
    expect(response.status).toBe(404);
    expect((await response.json<z.output<typeof ProblemDetails>>()).detail).toContain("nobody");
  });
});

describe("an unreachable IPsec daemon", () => {
  it("answers 200 with reachable false and every state UNKNOWN, until it is revived", async () => {
    await addPeer("branch-1");
    await setEnabled(true);
    await advance(30);
    await scenario({ action: "fail-daemon", daemon: "ipsec" });
    const s = await status();
    expect(s).toMatchObject({ reachable: false, enabled: true, establishedCount: 0 });
    expect(s.lastError).not.toBeNull();
    expect(s.peers.map((p) => p.state)).toEqual(["UNKNOWN"]);
    expect((await peer("branch-1")).state).toBe("UNKNOWN");
    await scenario({ action: "revive-daemon", daemon: "ipsec" });
    expect((await status()).peers[0]!.state).toBe("ESTABLISHED");
  });
});

describe("secrets", () => {
  it("never show the pre-shared key in any answer", async () => {
    await addPeer("branch-1");
    await setEnabled(true);
    await advance(30);
    for (const path of [
      "/api/v1/ipsec",
      "/api/v1/ipsec/peers/branch-1",
      "/api/v1/config",
      "/api/v1/config/history?limit=500",
      "/api/v1/routing/config",
    ]) {
      const response = await call(path, { headers: admin });
      expect(await response.text(), path).not.toContain(PSK);
    }
  });
});

describe("the configuration", () => {
  it("refuses an unknown proposal keyword and a short key with 422 at each", async () => {
    const response = await putConfig({
      listOps: [
        {
          listPath: "ipsec.peers",
          key: "bad",
          fields: { remoteAddress: "203.0.113.9", psk: "short", ikeProposal: "aes256-md4-modp2048" },
        },
      ],
    });
    expect((await rejection(response)).map((e) => e.pointer).sort()).toEqual([
      "#/lists/ipsec.peers/bad/ikeProposal",
      "#/lists/ipsec.peers/bad/psk",
    ]);
  });

  it("is readable by a read-only token", async () => {
    const headers = bearer(await tokenWithRole("read-only"));
    expect((await call("/api/v1/ipsec", { headers })).status).toBe(200);
  });
});
