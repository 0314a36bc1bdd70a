/** IPsec, the wire contract: the child and IKE SAs of each connection, the status, and the section's operations. */
import { z } from "zod";
import { operation } from "./contract.ts";

const nullableSeconds = z.int().nullable();

export const IpsecChildSa = z
  .object({
    name: z.string(),
    state: z.string().meta({ description: "`INSTALLED`" }),
    mode: z.string().meta({ description: "`TUNNEL`" }),
    espProposal: z.string().meta({ description: "negotiated ESP algorithms, e.g. `AES_GCM_16_256/ECP_384`" }),
    installedSeconds: z.int(),
    rekeyInSeconds: z.int(),
    expiresInSeconds: z.int(),
    inBytes: z.int(),
    inPackets: z.int(),
    outBytes: z.int(),
    outPackets: z.int(),
    localTs: z.array(z.string()).meta({ description: "local traffic selectors" }),
    remoteTs: z.array(z.string()).meta({ description: "remote traffic selectors" }),
  })
  .meta({ id: "IpsecChildSa", description: "counters are the child SA's own: they start again at each rekey" });

export const IpsecPeerStatus = z
  .object({
    name: z.string().meta({ description: "connection name" }),
    configured: z
      .boolean()
      .meta({ description: "false = the SA of a connection deleted from the configuration, not yet torn down" }),
    state: z
      .enum(["ESTABLISHED", "CONNECTING", "DOWN", "UNKNOWN"])
      .meta({ description: "IKE SA state; `DOWN` when no SA exists, `UNKNOWN` when the daemon cannot be queried" }),
    configuredRemote: z.string().nullable().meta({ description: "the configured remote address or DNS name" }),
    localHost: z.string().nullable(),
    remoteHost: z.string().nullable().meta({ description: "the remote's address in use (a DNS name resolved)" }),
    localId: z.string().nullable(),
    remoteId: z.string().nullable(),
    ikeVersion: z.string().nullable().meta({ description: "`IKEv1` or `IKEv2`" }),
    proposal: z
      .string()
      .nullable()
      .meta({ description: "negotiated IKE algorithms, e.g. `AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384`" }),
    establishedSeconds: nullableSeconds.meta({
      description: "int64; seconds since the IKE SA was established (or last rekeyed)",
    }),
    rekeyInSeconds: nullableSeconds.meta({ description: "int64; seconds to the IKE SA's next rekey" }),
    children: z.array(IpsecChildSa),
  })
  .meta({ id: "IpsecPeerStatus" });

export const IpsecStatus = z
  .object({
    enabled: z.boolean().meta({ description: "`ipsec.enabled`" }),
    reachable: z
      .boolean()
      .meta({ description: "false when the IPsec daemon could not be queried: every state then reads `UNKNOWN`" }),
    lastError: z.string().nullable().meta({ description: "the manager's last apply/load failure" }),
    establishedCount: z.int32(),
    peers: z.array(IpsecPeerStatus).meta({
      description: "configured peers in configuration order, then SAs of deleted connections not yet torn down",
    }),
  })
  .meta({ id: "IpsecStatus" });

export type IpsecChildSa = z.output<typeof IpsecChildSa>;
export type IpsecPeerStatus = z.output<typeof IpsecPeerStatus>;
export type IpsecStatus = z.output<typeof IpsecStatus>;

const section = "IPsec";
const MODEL =
  "Driven by the configuration, hot-applied: `ipsec.enabled` false reads every " +
  "configured peer `DOWN`; enabling it, or loading a new or changed connection " +
  "(`ipsec.peers`), initiates it: `DOWN` for 1-3 s of simulated time, `CONNECTING` " +
  "for the IKE exchanges (IKEv2 1-5 s, IKEv1 3-10 s), then `ESTABLISHED` with one " +
  "installed child SA. " +
  ("The IKE and child SAs rekey after 90-100 % of their configured lifetimes " +
    "(`rekeyInSeconds` counts down with the clock); the child SA's byte and packet " +
    "counters grow with time and start again at each rekey. ") +
  ("About one hour in twenty a remote goes silent for 1-10 minutes; after 120 s " +
    "dead-peer detection deletes the SA and the connection reads `CONNECTING` until " +
    "the remote answers. ") +
  ("A connection deleted while its SA is up keeps the SA, listed with `configured` " +
    "false, until its IKE SA would next rekey, at most 5 minutes; disabling IPsec " +
    "tears every SA down at once. ") +
  "An IPv6 remote needs `ipsec.localAddress` of that family (else it stays `DOWN` and `lastError` says why). " +
  ("A daemon that cannot be queried (scenario `fail-daemon` `ipsec`) answers 200 " +
    "with `reachable` false, every configured peer `UNKNOWN`. Pre-shared keys are " +
    "never returned.");

/** The section's operations. */
export const ipsec = {
  status: operation({
    method: "GET",
    path: "/api/v1/ipsec",
    section,
    summary: "IPsec status: one row per configured peer, a peer with no SA as `DOWN`",
    description: MODEL,
    fp: true,
    response: { description: "IpsecStatus", schema: IpsecStatus },
    examples: {
      response: {
        enabled: true,
        reachable: true,
        lastError: null,
        establishedCount: 2,
        peers: [
          {
            name: "noc-vpn",
            configured: true,
            configuredRemote: "198.51.100.10",
            localId: "10.0.0.2",
            remoteId: "198.51.100.10",
            ikeVersion: "IKEv2",
            state: "ESTABLISHED",
            localHost: "10.0.0.2",
            remoteHost: "198.51.100.10",
            proposal: "AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384",
            establishedSeconds: 14,
            rekeyInSeconds: 14196,
            children: [
              {
                name: "noc-vpn",
                state: "INSTALLED",
                mode: "TUNNEL",
                espProposal: "AES_GCM_16_256/ECP_384",
                installedSeconds: 14,
                rekeyInSeconds: 3574,
                expiresInSeconds: 3586,
                inBytes: 23625086,
                inPackets: 38104,
                outBytes: 13206657,
                outPackets: 32211,
                localTs: ["10.0.0.2/32"],
                remoteTs: ["10.250.0.0/16"],
              },
            ],
          },
          {
            name: "partner-mgmt",
            configured: true,
            configuredRemote: "vpn.partner.example",
            localId: "10.0.0.2",
            remoteId: "vpn.partner.example",
            ikeVersion: "IKEv1",
            state: "ESTABLISHED",
            localHost: "10.0.0.2",
            remoteHost: "198.51.100.131",
            proposal: "AES_CBC_256/HMAC_SHA2_256_128/MODP_2048",
            establishedSeconds: 11,
            rekeyInSeconds: 13480,
            children: [
              {
                name: "partner-mgmt",
                state: "INSTALLED",
                mode: "TUNNEL",
                espProposal: "AES_CBC_256/HMAC_SHA2_256_128",
                installedSeconds: 11,
                rekeyInSeconds: 3264,
                expiresInSeconds: 3589,
                inBytes: 1388526,
                inPackets: 2239,
                outBytes: 830289,
                outPackets: 2025,
                localTs: ["10.0.0.2/32"],
                remoteTs: ["172.16.40.0/24"],
              },
            ],
          },
        ],
      },
    },
  }),
  peer: operation({
    method: "GET",
    path: "/api/v1/ipsec/peers/{name}",
    section,
    summary: "One IPsec peer (connection) with its IKE and child SAs",
    description:
      `404 when no peer of that name is configured and no SA carries it (a deleted ` +
      `connection's SA is found while it lives). ${MODEL}`,
    fp: true,
    params: z.object({ name: z.string().min(1).max(255).meta({ description: "connection name" }) }),
    response: { description: "IpsecPeerStatus", schema: IpsecPeerStatus },
    errors: [404],
    examples: {
      params: { name: "noc-vpn" },
      response: {
        name: "noc-vpn",
        configured: true,
        configuredRemote: "198.51.100.10",
        localId: "10.0.0.2",
        remoteId: "198.51.100.10",
        ikeVersion: "IKEv2",
        state: "ESTABLISHED",
        localHost: "10.0.0.2",
        remoteHost: "198.51.100.10",
        proposal: "AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384",
        establishedSeconds: 14,
        rekeyInSeconds: 14196,
        children: [
          {
            name: "noc-vpn",
            state: "INSTALLED",
            mode: "TUNNEL",
            espProposal: "AES_GCM_16_256/ECP_384",
            installedSeconds: 14,
            rekeyInSeconds: 3574,
            expiresInSeconds: 3586,
            inBytes: 23625086,
            inPackets: 38104,
            outBytes: 13206657,
            outPackets: 32211,
            localTs: ["10.0.0.2/32"],
            remoteTs: ["10.250.0.0/16"],
          },
        ],
      },
      errors: { 404: "no IPsec peer 'noc-vpn' is configured and no SA carries that name" },
    },
  }),
};
