/**
 * Test certificates made on the spot with WebCrypto and @peculiar/x509: matching and mismatching pairs, expired ones,
 * several key types.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(crypto);

export type KeyKind = "ecdsa" | "rsa" | "rsa-1024" | "ed25519";

// Generation parameters double as the signing algorithm (with the hash for ECDSA).
const ALGORITHMS: Record<KeyKind, SubtleCryptoGenerateKeyAlgorithm & { hash?: string }> = {
  ecdsa: { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" },
  rsa: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 },
  "rsa-1024": {
    name: "RSASSA-PKCS1-v1_5",
    hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 1024,
  },
  ed25519: { name: "Ed25519" },
};

export interface TestCertificate {
  certificatePem: string;
  privateKeyPem: string;
  /** SHA-256 of the DER, colon-separated upper-case hex. */
  fingerprint: string;
  serialNumber: string;
}

const DAY = 86_400_000;

/** A self-signed certificate for `name` (also an IP SAN 127.0.0.1) and its PKCS#8 key. */
export async function selfSigned(
  options: { name?: string; kind?: KeyKind; notBefore?: Date; notAfter?: Date } = {},
): Promise<TestCertificate> {
  const name = options.name ?? "edge-1.bng.localhost";
  const algorithm = ALGORITHMS[options.kind ?? "ecdsa"];
  const keys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const serialNumber = "0a1b2c3d";
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber,
    name: `CN=${name}, O=bngfleet test`,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: "dns", value: name },
        { type: "ip", value: "127.0.0.1" },
      ]),
    ],
  });
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", keys.privateKey)) as ArrayBuffer;
  const thumbprint = new Uint8Array(await certificate.getThumbprint("SHA-256"));
  return {
    certificatePem: certificate.toString("pem"),
    privateKeyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY"),
    fingerprint: [...thumbprint].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":"),
    serialNumber,
  };
}

/** Re-wraps a PKCS#8 key as the traditional PEM of its algorithm: PKCS#1 `RSA PRIVATE KEY` or SEC1 `EC PRIVATE KEY`. */
export function traditionalPem(pkcs8Pem: string, label: "RSA PRIVATE KEY" | "EC PRIVATE KEY"): string {
  const der = x509.PemConverter.decodeFirst(pkcs8Pem);
  // PrivateKeyInfo ::= SEQUENCE { version, algorithm, privateKey OCTET STRING }: the octet string holds the traditional
  // key.
  const bytes = new Uint8Array(der);
  let offset = 0;
  const header = (at: number) => {
    const length = bytes[at + 1]!;
    if (length < 0x80) return { start: at + 2, length };
    const count = length & 0x7f;
    let n = 0;
    for (let i = 0; i < count; i++) n = n * 256 + bytes[at + 2 + i]!;
    return { start: at + 2 + count, length: n };
  };
  const outer = header(offset);
  offset = outer.start;
  for (let field = 0; field < 2; field++) {
    const skip = header(offset);
    offset = skip.start + skip.length;
  }
  const key = header(offset);
  return x509.PemConverter.encode(bytes.slice(key.start, key.start + key.length).buffer, label);
}
