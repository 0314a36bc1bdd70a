/** IPsec's wire shapes: the child and IKE SAs of each connection, and the status. */
import { z } from "zod";

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
    configured: z.boolean().meta({ description: "false = the SA of a connection deleted from the configuration, not yet torn down" }),
    state: z.enum(["ESTABLISHED", "CONNECTING", "DOWN", "UNKNOWN"]).meta({ description: "IKE SA state; `DOWN` when no SA exists, `UNKNOWN` when the daemon cannot be queried" }),
    configuredRemote: z.string().nullable().meta({ description: "the configured remote address or DNS name" }),
    localHost: z.string().nullable(),
    remoteHost: z.string().nullable().meta({ description: "the remote's address in use (a DNS name resolved)" }),
    localId: z.string().nullable(),
    remoteId: z.string().nullable(),
    ikeVersion: z.string().nullable().meta({ description: "`IKEv1` or `IKEv2`" }),
    proposal: z.string().nullable().meta({ description: "negotiated IKE algorithms, e.g. `AES_GCM_16_256/PRF_HMAC_SHA2_384/ECP_384`" }),
    establishedSeconds: nullableSeconds.meta({ description: "int64; seconds since the IKE SA was established (or last rekeyed)" }),
    rekeyInSeconds: nullableSeconds.meta({ description: "int64; seconds to the IKE SA's next rekey" }),
    children: z.array(IpsecChildSa),
  })
  .meta({ id: "IpsecPeerStatus" });

export const IpsecStatus = z
  .object({
    enabled: z.boolean().meta({ description: "`ipsec.enabled`" }),
    reachable: z.boolean().meta({ description: "false when the IPsec daemon could not be queried: every state then reads `UNKNOWN`" }),
    lastError: z.string().nullable().meta({ description: "the manager's last apply/load failure" }),
    establishedCount: z.int32(),
    peers: z.array(IpsecPeerStatus).meta({ description: "configured peers in configuration order, then SAs of deleted connections not yet torn down" }),
  })
  .meta({ id: "IpsecStatus" });

export type IpsecChildSa = z.output<typeof IpsecChildSa>;
export type IpsecPeerStatus = z.output<typeof IpsecPeerStatus>;
export type IpsecStatus = z.output<typeof IpsecStatus>;
