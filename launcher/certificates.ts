/**
 * One self-signed TLS certificate per appliance, made on first start and kept
 * under <dataDir>/certs so a browser exception or a pinned certificate stays
 * valid across restarts. Miniflare's own HTTPS option is no use here: its key
 * ships inside the package, identical on every install.
 */
import { X509Certificate, createPrivateKey, webcrypto } from "node:crypto";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** PEM strings ready for tls.createServer. */
export type KeyPair = { key: string; cert: string };

export type CertificateRequest = {
  name: string;
  /** Listener IP address: goes into subjectAltName so https://<ip>:<port> validates. */
  address: string;
  hostname: string | undefined;
};

// 825 days is the longest validity Apple platforms accept for a TLS server
// certificate; longer ones are rejected outright by Safari and curl on macOS.
const VALIDITY_DAYS = 825;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Names the certificate must carry, in the order OpenSSL prints them. */
function expectedAltNames({ address, hostname }: CertificateRequest): string[] {
  const names = [`IP Address:${address}`, "DNS:localhost"];
  if (hostname && hostname !== "localhost") names.push(`DNS:${hostname}`);
  return names;
}

/**
 * Returns the appliance's certificate and key, reusing `<dir>/<name>.crt|.key` when still valid for this listener, else
 * generating them.
 */
export async function ensureCertificate(
  dir: string,
  request: CertificateRequest,
): Promise<KeyPair & { created: boolean; reason?: string }> {
  const files = pairFiles(dir, request.name);
  const existing = await readPair(files);
  let reason = "none yet";
  if (existing) {
    reason = staleReason(existing, request) ?? "";
    if (!reason) return { ...existing, created: false };
  }
  const fresh = await generateCertificate(request);
  await mkdir(dir, { recursive: true });
  await writePair(files, fresh);
  return { ...fresh, created: true, reason };
}

/** Where a pair is kept: `<dir>/<stem>.key` and `<dir>/<stem>.crt`. */
type PairFiles = { keyFile: string; certFile: string };
const pairFiles = (dir: string, stem: string): PairFiles => ({
  keyFile: path.join(dir, `${stem}.key`),
  certFile: path.join(dir, `${stem}.crt`),
});

/**
 * Stores a pair. The key is the only secret here: 0600; writeFile's mode only applies when it creates the file, so
 * chmod too in case an old one is overwritten.
 */
async function writePair({ keyFile, certFile }: PairFiles, pair: KeyPair): Promise<void> {
  await writeFile(keyFile, pair.key, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  await writeFile(certFile, pair.cert, { mode: 0o644 });
}

/** Loads a stored pair, or undefined when either half is missing. */
async function readPair({ certFile, keyFile }: PairFiles): Promise<KeyPair | undefined> {
  try {
    return { cert: await readFile(certFile, "utf8"), key: await readFile(keyFile, "utf8") };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Why a stored pair cannot be reused (unparsable, mismatched key, expiring, listener renamed), or undefined if it can.
 */
function staleReason(pair: KeyPair, request: CertificateRequest): string | undefined {
  try {
    const cert = new X509Certificate(pair.cert);
    if (!cert.checkPrivateKey(createPrivateKey(pair.key))) return "key does not match certificate";
    // Renew a little early so a long-running fleet does not expire mid-session.
    if (Date.parse(cert.validTo) - Date.now() < 7 * DAY_MS) return "certificate expires soon";
    const names = (cert.subjectAltName ?? "").split(", ").sort().join(", ");
    if (names !== [...expectedAltNames(request)].sort().join(", ")) return "listener address or hostname changed";
    return undefined;
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  }
}

/**
 * Generates a self-signed ECDSA P-256 server certificate with CN = appliance name and the listener's IP and DNS names.
 */
export async function generateCertificate(request: CertificateRequest): Promise<KeyPair> {
  // Loaded lazily: only the first start (or a renewal) pays for x509 and its
  // polyfill; later starts just read the PEM files.
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  // Node's WebCrypto; typed as the DOM/Workers Crypto that @peculiar/x509 expects.
  const crypto = webcrypto as unknown as Crypto;
  x509.cryptoProvider.set(crypto);

  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  // The casts only narrow union return types (the Workers typings describe every algorithm at once).
  const keys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const altNames: { type: "ip" | "dns"; value: string }[] = [
    { type: "ip", value: request.address },
    { type: "dns", value: "localhost" },
  ];
  if (request.hostname && request.hostname !== "localhost") altNames.push({ type: "dns", value: request.hostname });

  // Backdate a little so a client whose clock is slightly behind still accepts it.
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(notBefore.getTime() + VALIDITY_DAYS * DAY_MS);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    // Random positive serial: browsers reject two certificates with the same
    // issuer and serial, which a fixed serial would cause after a renewal.
    serialNumber: "01" + Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString("hex"),
    name: `CN=${request.name}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(altNames),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", keys.privateKey)) as ArrayBuffer;
  return {
    cert: cert.toString("pem") + "\n",
    key: x509.PemConverter.encode(pkcs8, "PRIVATE KEY") + "\n",
  };
}

/** Where the certificate an appliance's configuration holds is kept for workerd's own socket. */
const servedFiles = (dir: string, name: string): PairFiles => pairFiles(dir, `${name}.served`);

/**
 * The TLS files workerd's own socket serves for an appliance (BNG_LISTENER=workerd over HTTPS): the
 * certificate its configuration holds, as last seen (`<name>.served.*`, kept across launches so a restart
 * serves it at once), else the self-signed pair.
 */
export async function servedTlsFiles(dir: string, name: string): Promise<PairFiles> {
  return (await readPair(servedFiles(dir, name))) ? servedFiles(dir, name) : pairFiles(dir, name);
}

/** The configured certificate workerd's socket serves for an appliance; null when it serves the self-signed one. */
export async function servedCertificate(dir: string, name: string): Promise<string | null> {
  return (await readPair(servedFiles(dir, name)))?.cert ?? null;
}

/** Keeps the appliance's configured certificate for workerd's socket to serve (null: back to the self-signed one). */
export async function serveTlsFiles(dir: string, name: string, pair: KeyPair | null): Promise<void> {
  const files = servedFiles(dir, name);
  if (pair !== null) return writePair(files, pair);
  await rm(files.keyFile, { force: true });
  await rm(files.certFile, { force: true });
}
