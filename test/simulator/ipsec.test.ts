import { describe, expect, it } from "vitest";
import {
  DPD_TIMEOUT_MS,
  IPSEC_SETTLE_MS,
  ORPHAN_MAX_MS,
  UNREACHABLE_ERROR,
  ipsecPeer,
  ipsecStatus,
  orphanTeardownMs,
  proposalName,
  type IpsecPeerConfig,
  type IpsecWorld,
} from "../../simulator/ipsec.ts";

const SEED = 1001;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const BRANCH: IpsecPeerConfig = {
  name: "branch-1",
  remoteAddress: "203.0.113.10",
  localId: null,
  remoteId: "branch-1.example",
  ikeVersion: 2,
  ikeProposal: "aes256gcm16-prfsha384-ecp384",
  espProposal: "aes256gcm16-ecp384",
  localTs: ["10.0.0.0/24"],
  remoteTs: [],
  ikeLifetimeSeconds: 14_400,
  childLifetimeSeconds: 3_600,
  provisionedMs: T0,
};

function world(patch: Partial<IpsecWorld> = {}): IpsecWorld {
  return {
    seed: SEED,
    nowMs: T0 + 60_000,
    daemonUp: true,
    enabled: true,
    enabledSinceMs: T0,
    localAddress: { v4: "10.0.0.2", v6: null },
    peers: [BRANCH],
    orphans: [],
    ...patch,
  };
}
const peerAt = (nowMs: number, patch: Partial<IpsecWorld> = {}) => ipsecPeer(world({ nowMs, ...patch }), BRANCH.name)!;

describe("a connection", () => {
  it("reads DOWN with every configured peer while IPsec is disabled", () => {
    const status = ipsecStatus(world({ enabled: false, enabledSinceMs: null }));
    expect(status).toMatchObject({ enabled: false, reachable: true, establishedCount: 0 });
    expect(status.peers).toEqual([
      expect.objectContaining({
        name: "branch-1",
        configured: true,
        state: "DOWN",
        configuredRemote: "203.0.113.10",
        children: [],
        establishedSeconds: null,
      }),
    ]);
  });

  it("negotiates once enabled: DOWN, CONNECTING, then ESTABLISHED within 10 s", () => {
    const seen: string[] = [];
    for (let t = T0; t <= T0 + 10_000; t += 250) {
      const state = peerAt(t).state;
      if (seen.at(-1) !== state) seen.push(state);
    }
    expect(seen).toEqual(["DOWN", "CONNECTING", "ESTABLISHED"]);
  });

  it("starts from when IPsec was enabled, not from when the connection was configured", () => {
    const enabledAt = T0 + 3_600_000;
    expect(peerAt(enabledAt, { enabledSinceMs: enabledAt }).state).toBe("DOWN");
    expect(peerAt(enabledAt + 15_000, { enabledSinceMs: enabledAt }).state).toBe("ESTABLISHED");
  });

  it("once established, shows its IKE SA and one installed child SA with the negotiated algorithms", () => {
    const peer = peerAt(T0 + 60_000);
    expect(peer).toMatchObject({
      state: "ESTABLISHED",
      configured: true,
      localHost: "10.0.0.2",
      remoteHost: "203.0.113.10",
      localId: "10.0.0.2",
      remoteId: "branch-1.example",
      ikeVersion: "IKEv2",
      proposal: "AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384",
    });
    expect(peer.children).toEqual([
      expect.objectContaining({
        name: "branch-1",
        state: "INSTALLED",
        mode: "TUNNEL",
        espProposal: "AES_GCM_16_256/ECP_384",
        localTs: ["10.0.0.0/24"],
        remoteTs: ["203.0.113.10/32"],
      }),
    ]);
  });

  it("counts down to its rekeys and counts traffic up with the simulated clock", () => {
    const a = peerAt(T0 + 60_000);
    const b = peerAt(T0 + 660_000);
    expect(b.establishedSeconds! - a.establishedSeconds!).toBe(600);
    expect(a.rekeyInSeconds! - b.rekeyInSeconds!).toBe(600);
    const [ca, cb] = [a.children[0]!, b.children[0]!];
    expect(cb.inBytes).toBeGreaterThan(ca.inBytes);
    expect(cb.outPackets).toBeGreaterThan(ca.outPackets);
    expect(ca.expiresInSeconds).toBeGreaterThan(ca.rekeyInSeconds);
  });

  it("rekeys its child SA within 90-100 % of the lifetime: a fresh SA with fresh counters", () => {
    const first = peerAt(T0 + 60_000).children[0]!;
    const rekeyAt = T0 + 60_000 + first.rekeyInSeconds * 1000;
    const after = peerAt(rekeyAt + 10_000).children[0]!;
    expect(after.installedSeconds).toBeLessThan(20);
    expect(after.inBytes).toBeLessThan(first.inBytes + 1 + 20 * (first.inBytes / Math.max(1, first.installedSeconds)));
    expect(first.installedSeconds + first.rekeyInSeconds).toBeGreaterThanOrEqual(0.9 * 3600);
    expect(first.installedSeconds + first.rekeyInSeconds).toBeLessThanOrEqual(3600);
  });

  it("stays DOWN with a reason when there is no local address of the remote's family", () => {
    const v6 = { ...BRANCH, name: "v6", remoteAddress: "2001:db8::10" };
    const status = ipsecStatus(world({ peers: [v6] }));
    expect(status.peers[0]).toMatchObject({ state: "DOWN", localHost: null });
    expect(status.lastError).toContain("ipsec.localAddress");
    expect(
      ipsecStatus(world({ peers: [v6], localAddress: { v4: "10.0.0.2", v6: "2001:db8::2" } })).peers[0]!.state,
    ).toBe("ESTABLISHED");
  });

  it("resolves a remote given by name to a stable address", () => {
    const named = { ...BRANCH, remoteAddress: "vpn.branch.example" };
    const peer = ipsecStatus(world({ peers: [named] })).peers[0]!;
    expect(peer.configuredRemote).toBe("vpn.branch.example");
    expect(peer.remoteHost).toMatch(/^198\.51\.100\.\d+$/);
    expect(ipsecStatus(world({ peers: [named] })).peers[0]!.remoteHost).toBe(peer.remoteHost);
  });

  it(
    "now and then loses its remote: after dead-peer detection CONNECTING until it " +
      "answers, the same for the same seed",
    () => {
      const from = T0 + IPSEC_SETTLE_MS + 60_000;
      const outages = (seed: number) => {
        const out: number[] = [];
        for (let t = from; t < from + 5 * 86_400_000; t += 10_000)
          if (peerAt(t, { seed }).state === "CONNECTING") out.push(t);
        return out;
      };
      const first = outages(SEED);
      expect(first.length).toBeGreaterThan(0);
      expect(outages(SEED)).toEqual(first);
      // The SA went only after DPD had waited its timeout.
      expect(peerAt(first[0]! - DPD_TIMEOUT_MS).state).toBe("ESTABLISHED");
    },
  );
});

describe("a deleted connection's SA", () => {
  const deletedMs = T0 + 120_000;
  const orphan = { peer: BRANCH, deletedMs };

  it("is listed with configured false until its next IKE rekey, at most five minutes", () => {
    const w = world({ peers: [], orphans: [orphan] });
    const teardown = orphanTeardownMs(w, orphan)!;
    expect(teardown).toBeGreaterThan(deletedMs);
    expect(teardown).toBeLessThanOrEqual(deletedMs + ORPHAN_MAX_MS);
    const status = ipsecStatus({ ...w, nowMs: deletedMs + 1_000 });
    expect(status.peers).toEqual([
      expect.objectContaining({ name: "branch-1", configured: false, state: "ESTABLISHED" }),
    ]);
    expect(status.establishedCount).toBe(1);
    expect(ipsecPeer({ ...w, nowMs: teardown - 1_000 }, "branch-1")?.configured).toBe(false);
    expect(ipsecStatus({ ...w, nowMs: teardown }).peers).toEqual([]);
    expect(ipsecPeer({ ...w, nowMs: teardown }, "branch-1")).toBeNull();
  });

  it("is kept for nothing when the connection was not up", () => {
    expect(orphanTeardownMs(world(), { peer: BRANCH, deletedMs: T0 + 500 })).toBeNull();
  });

  it("gives way to a connection configured again under its name", () => {
    const status = ipsecStatus(world({ nowMs: deletedMs + 1_000, orphans: [orphan] }));
    expect(status.peers.map((p) => [p.name, p.configured])).toEqual([["branch-1", true]]);
  });
});

describe("an unreachable daemon", () => {
  it("reads reachable false and every configured peer UNKNOWN, without SA details", () => {
    const status = ipsecStatus(
      world({ daemonUp: false, orphans: [{ peer: { ...BRANCH, name: "gone" }, deletedMs: T0 + 50_000 }] }),
    );
    expect(status).toMatchObject({
      reachable: false,
      enabled: true,
      lastError: UNREACHABLE_ERROR,
      establishedCount: 0,
    });
    expect(status.peers).toEqual([
      expect.objectContaining({ name: "branch-1", state: "UNKNOWN", localHost: null, children: [] }),
    ]);
  });
});

describe("proposals", () => {
  it("are shown as the daemon names the algorithms of the first one", () => {
    expect(proposalName("aes128-sha256-modp2048,aes256gcm16-ecp384")).toBe("AES_CBC_128/HMAC_SHA2_256_128/MODP_2048");
    expect(proposalName("chacha20poly1305-prfsha256-x25519")).toBe("CHACHA20_POLY1305/PRF_HMAC_SHA2_256/CURVE_25519");
  });
});
