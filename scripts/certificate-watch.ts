/**
 * Keeps each TLS frontend serving its appliance's web UI certificate: the
 * one in the appliance's configuration (`webUi.certificate`, uploaded or
 * issued by ACME), else the launcher's self-signed one. Read at start and
 * then every few seconds, so an upload or an ACME issuance or renewal is
 * served without a restart (the configuration key applies hot).
 */
import type { Miniflare } from "miniflare";
import type { Frontend } from "./listeners.ts";

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

/**
 * Serves each appliance's configured certificate now (awaited, before the
 * listeners take traffic), then follows changes. `factory[i]` is what
 * appliance i serves when its certificate is cleared.
 */
export async function watchCertificates(mf: Miniflare, owner: string, appliances: { name: string }[], frontends: Frontend[], factory: Pair[]): Promise<CertificateWatch> {
  const served: (string | null)[] = appliances.map(() => null);
  const check = async (announce: (name: string, pair: Pair | null) => void) => {
    for (const [i, a] of appliances.entries()) {
      const pair = await configured(mf, owner, a.name);
      const shown = pair?.cert ?? null;
      if (shown === served[i]) continue;
      served[i] = shown;
      const use = pair ?? factory[i]!;
      frontends[i]!.useCertificate(use.key, use.cert);
      announce(a.name, pair);
    }
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
