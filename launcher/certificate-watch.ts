/**
 * Keeps each appliance's HTTPS port serving its web UI certificate: the one
 * in the appliance's configuration (`webUi.certificate`, uploaded or issued
 * by ACME), else the launcher's self-signed one. Read at start and then every
 * few seconds, so an upload or an ACME issuance or renewal is served (the
 * configuration key applies hot): by the relay without a restart, by
 * workerd's own sockets once their process has restarted with it. Each poll
 * is one request for every appliance's fingerprint
 * (src/http/certificate-fingerprints.ts); only a changed one's pair is read,
 * through Miniflare.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { Miniflare } from "miniflare";
import type { ApplianceRpc } from "../src/env.ts";
import { CERTIFICATE_FINGERPRINTS_PATH, certificateWatchToken } from "../src/fleet/certificate-fingerprints.ts";

/** How often the appliances' certificates are read. */
const POLL_MS = 3000;

/** The slice of the Appliance object's RPC surface the watch reads (over RPC its answer comes as a promise). */
type CertificateSource = Pick<ApplianceRpc, "webUiCertificate">;

type Pair = { key: string; cert: string };

export interface CertificateWatch {
  /** Stops polling, after the read in flight (so Miniflare can be disposed). */
  stop(): Promise<void>;
}

/** Reads one appliance's configured certificate; null while the factory one is in use. */
async function configured(mf: Miniflare, owner: string, appliance: string): Promise<Pair | null> {
  const namespace = await mf.getDurableObjectNamespace("Appliance", owner);
  const stub = namespace.get(namespace.idFromName(appliance)) as unknown as CertificateSource;
  try {
    const pair = await stub.webUiCertificate();
    return pair ? { key: pair.privateKeyPem, cert: pair.certificatePem } : null;
  } finally {
    // Released at once: an undisposed proxy stub keeps Miniflare's dispose() waiting at shutdown.
    (stub as Partial<Disposable>)[Symbol.dispose]?.();
  }
}

/** What the Worker's fingerprints are made of: the SHA-256 of a certificate's PEM, in hex. */
const fingerprintOf = (certificatePem: string): string => createHash("sha256").update(certificatePem).digest("hex");

/**
 * Where the watch asks for the fingerprints: the process's loopback socket (plain HTTP), and the fleet secret its
 * credential is derived from.
 */
export type FingerprintSource = { origin: string; fleetSecret: string };

/**
 * Each appliance of the process → its configured certificate's fingerprint (null: none), in one request. Node's
 * http client rather than fetch: a fetch every 3 s runs cold each time, and cost an idle launcher about 50 ms of CPU
 * a poll on this machine (session 21's profile), http.get a fraction of it.
 */
function fingerprints(origin: string, token: string): Promise<Record<string, string | null>> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${origin}${CERTIFICATE_FINGERPRINTS_PATH}`,
      { headers: { authorization: `Bearer ${token}` }, timeout: POLL_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          if (response.statusCode !== 200)
            return reject(
              new Error(`the fleet's Worker answered ${response.statusCode} for the certificates' fingerprints`),
            );
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, string | null>);
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error("the fleet's Worker did not answer for the certificates' fingerprints")),
    );
    request.on("error", reject);
  });
}

/**
 * An appliance (by its index in the watch's list) and the pair it is to serve from now on: its configured one, or the
 * factory one.
 */
export type CertificateChange = { index: number; pair: Pair; configured: boolean };

/**
 * Serves each appliance's configured certificate now (awaited, before the
 * listeners take traffic), then follows changes. `factory[i]` is what
 * appliance i serves when its certificate is cleared; `serving[i]` the
 * certificate it serves already (null: the factory one). `serve` puts the
 * changes of one read into service: a relay swaps its TLS context, workerd's
 * own sockets restart their process.
 */
export async function watchCertificates(
  mf: Miniflare,
  owner: string,
  appliances: { name: string }[],
  serve: (changes: CertificateChange[]) => void | Promise<void>,
  factory: Pair[],
  source: FingerprintSource,
  serving: (string | null)[] = appliances.map(() => null),
  say: (line: string) => void = console.log,
): Promise<CertificateWatch> {
  // What each appliance serves, as a fingerprint: null for the factory pair.
  const served = serving.map((cert) => (cert === null ? null : fingerprintOf(cert)));
  const token = await certificateWatchToken(source.fleetSecret);
  const check = async (announce: (name: string, pair: Pair | null) => void) => {
    const changes: CertificateChange[] = [];
    const announced: [string, Pair | null][] = [];
    const now = await fingerprints(source.origin, token);
    for (const [i, a] of appliances.entries()) {
      const fingerprint = now[a.name];
      if (fingerprint === undefined || fingerprint === served[i]) continue;
      // Read now, the pair may be newer than its fingerprint: what is served is what was read.
      const pair = fingerprint === null ? null : await configured(mf, owner, a.name);
      const shown = pair === null ? null : fingerprintOf(pair.cert);
      if (shown === served[i]) continue;
      served[i] = shown;
      changes.push({ index: i, pair: pair ?? factory[i]!, configured: pair !== null });
      announced.push([a.name, pair]);
    }
    if (changes.length === 0) return;
    await serve(changes);
    for (const [name, pair] of announced) announce(name, pair);
  };
  await check((name, pair) => pair && say(`${name} serves its configured certificate`));
  let busy: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = check((name, pair) =>
      say(pair ? `${name} serves its new certificate` : `${name} serves its self-signed certificate again`),
    )
      .catch((error: unknown) => console.error(`certificate watch: ${(error as Error).message}`))
      .finally(() => (busy = null));
  }, POLL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await busy;
    },
  };
}
