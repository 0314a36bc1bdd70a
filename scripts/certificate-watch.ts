/**
 * Keeps each appliance's HTTPS port serving its web UI certificate: the one
 * in the appliance's configuration (`webUi.certificate`, uploaded or issued
 * by ACME), else the launcher's self-signed one. Read at start and then every
 * few seconds, so an upload or an ACME issuance or renewal is served (the
 * configuration key applies hot): by the relay without a restart, by
 * workerd's own sockets once their process has restarted with it.
 */
import type { Miniflare } from "miniflare";

/** How often the appliances' certificates are read. */
const POLL_MS = 3000;

/** The slice of the Appliance object's RPC surface the watch reads. */
type CertificateSource = { webUiCertificate(): Promise<{ certificatePem: string; privateKeyPem: string } | null> };

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

/** An appliance (by its index in the watch's list) and the pair it is to serve from now on: its configured one, or the factory one. */
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
  serving: (string | null)[] = appliances.map(() => null),
): Promise<CertificateWatch> {
  const served = [...serving];
  const check = async (announce: (name: string, pair: Pair | null) => void) => {
    const changes: CertificateChange[] = [];
    const announced: [string, Pair | null][] = [];
    for (const [i, a] of appliances.entries()) {
      const pair = await configured(mf, owner, a.name);
      const shown = pair?.cert ?? null;
      if (shown === served[i]) continue;
      served[i] = shown;
      changes.push({ index: i, pair: pair ?? factory[i]!, configured: pair !== null });
      announced.push([a.name, pair]);
    }
    if (changes.length === 0) return;
    await serve(changes);
    for (const [name, pair] of announced) announce(name, pair);
  };
  await check((name, pair) => pair && console.log(`${name} serves its configured certificate`));
  let busy: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = check((name, pair) => console.log(pair ? `${name} serves its new certificate` : `${name} serves its self-signed certificate again`))
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
