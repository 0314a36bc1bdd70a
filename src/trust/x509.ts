/**
 * Web UI certificates: reading a PEM certificate chain and a private key,
 * and proving the key belongs to the certificate before the appliance
 * accepts them. X.509 (RFC 5280) is parsed by @peculiar/x509 and keys'
 * ASN.1 by its @peculiar/asn1-* modules; keys are PKCS#8 (`PRIVATE KEY`),
 * PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`), imported with
 * WebCrypto, and matched by comparing the public half the key yields with
 * the certificate's subject public key.
 */
// tsyringe, which @peculiar/x509 resolves its algorithms through, needs the Reflect metadata API before it loads.
import "reflect-metadata";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import { ECParameters, ECPrivateKey } from "@peculiar/asn1-ecc";
import { PrivateKeyInfo } from "@peculiar/asn1-pkcs8";
import { AlgorithmIdentifier } from "@peculiar/asn1-x509";
import { Name, PemConverter, SubjectAlternativeNameExtension, X509Certificate, type PublicKey } from "@peculiar/x509";
import { formatIpv6, parseAddress } from "../../simulator/prefix.ts";
import type { CertificateDetails } from "../schemas/config.ts";

/**
 * What the certificate itself says, as the API shows it (never the key): the contract's details less how it was
 * installed (`source`, `acme`), which the configuration knows and the route adds.
 */
export type CertificateFacts = Omit<CertificateDetails, "source" | "acme">;

export type PairCheck =
  | { ok: true; details: CertificateFacts; warnings: string[] }
  | { ok: false; errors: { pointer: "#/certificatePem" | "#/privateKeyPem"; detail: string }[] };

/** RSA keys shorter than this are refused (NIST SP 800-131A). */
export const MIN_RSA_BITS = 2048;

const OID = {
  rsa: "1.2.840.113549.1.1.1",
  ec: "1.2.840.10045.2.1",
} as const;

type Curve = "P-256" | "P-384" | "P-521";

const CURVES: Record<string, Curve> = {
  "1.2.840.10045.3.1.7": "P-256",
  "1.3.132.0.34": "P-384",
  "1.3.132.0.35": "P-521",
};

const curveOid = (curve: Curve) => Object.entries(CURVES).find(([, name]) => name === curve)![0];

/**
 * RFC 4514 §3 short names (and two common extras), as @peculiar/x509's
 * extra names. Its own further short names (G, I, SN, T) are mapped back to
 * their dotted form, which RFC 4514 asks for types it does not list.
 */
const NAME_TYPES: Record<string, string> = {
  CN: "2.5.4.3",
  C: "2.5.4.6",
  L: "2.5.4.7",
  ST: "2.5.4.8",
  STREET: "2.5.4.9",
  O: "2.5.4.10",
  OU: "2.5.4.11",
  serialNumber: "2.5.4.5",
  emailAddress: "1.2.840.113549.1.9.1",
  DC: "0.9.2342.19200300.100.1.25",
  UID: "0.9.2342.19200300.100.1.1",
  "2.5.4.42": "2.5.4.42",
  "2.5.4.43": "2.5.4.43",
  "2.5.4.4": "2.5.4.4",
  "2.5.4.12": "2.5.4.12",
};

type KeyAlgorithm = { kind: "rsa"; bits: number } | { kind: "ec"; curve: Curve } | { kind: "ed25519" };

interface Certificate {
  der: Uint8Array<ArrayBuffer>;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBeforeMs: number;
  notAfterMs: number;
  subjectAltNames: string[];
  spki: ArrayBuffer;
  algorithm: KeyAlgorithm | null;
  /** The key's algorithm as the library names it (its OID when it knows none). */
  algorithmName: string;
}

// ── certificates ─────────────────────────────────────────────────────────

const hex = (bytes: Uint8Array, separator = "") =>
  [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(separator);

/** RFC 4514 §2.4 escaping. */
const escapeDn = (value: string) =>
  value.startsWith("#") && /^#[0-9a-f]+$/.test(value)
    ? value
    : value
        .replace(/[,+"\\<>;=]/g, (c) => `\\${c}`)
        .replace(/^([ #])/, "\\$1")
        .replace(/ $/, "\\ ");

/** A Name as an RFC 4514 string (most specific RDN first; the certificate holds them most general first). */
function nameText(name: Name): string {
  const rdns = new Name(name.toArrayBuffer(), NAME_TYPES).toJSON().map((rdn) =>
    Object.entries(rdn)
      .flatMap(([type, values]) => values.map((value) => `${type}=${escapeDn(value)}`))
      .join("+"),
  );
  return rdns.reverse().join(", ");
}

/**
 * subjectAltName entries as `DNS:`, `IP:` (IPv6 in RFC 5952 form), `email:`, `URI:` or `other:` and the entry's DER in
 * hex.
 */
function subjectAltNames(certificate: X509Certificate): string[] {
  const extension = certificate.getExtension(SubjectAlternativeNameExtension);
  if (!extension) return [];
  return extension.names.items.map((name) => {
    switch (name.type) {
      case "dns":
        return `DNS:${name.value}`;
      case "ip": {
        const address = parseAddress(name.value);
        return `IP:${address?.family === 6 ? formatIpv6(address.value) : name.value}`;
      }
      case "email":
        return `email:${name.value}`;
      case "url":
        return `URI:${name.value}`;
      default:
        return `other:${hex(new Uint8Array(name.rawData))}`;
    }
  });
}

/** The key's algorithm, if one we accept; an RSA key's size as WebCrypto counts it (exact bits, not bytes). */
async function keyAlgorithm(publicKey: PublicKey): Promise<KeyAlgorithm | null> {
  const algorithm = publicKey.algorithm as { name: string; namedCurve?: string; modulusLength?: number };
  if (algorithm.name === "RSASSA-PKCS1-v1_5") {
    try {
      const key = await crypto.subtle.importKey(
        "spki",
        publicKey.rawData,
        { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
        true,
        ["verify"],
      );
      return { kind: "rsa", bits: (key.algorithm as CryptoKeyRsaKeyAlgorithm).modulusLength };
    } catch {
      // Not loadable: the size the library read from the modulus; the pair check reports the key itself.
      return { kind: "rsa", bits: algorithm.modulusLength ?? 0 };
    }
  }
  if (algorithm.name === "ECDSA") {
    const curve = Object.values(CURVES).find((c) => c === algorithm.namedCurve);
    return curve ? { kind: "ec", curve } : null;
  }
  if (algorithm.name === "Ed25519") return { kind: "ed25519" };
  return null;
}

/** Parses one DER certificate; throws what the library throws for anything that is not one. */
async function parseCertificate(der: Uint8Array<ArrayBuffer>): Promise<Certificate> {
  const certificate = new X509Certificate(der);
  const publicKey = certificate.publicKey;
  const algorithm = publicKey.algorithm as { name: string; namedCurve?: string };
  return {
    der,
    subject: nameText(certificate.subjectName),
    issuer: nameText(certificate.issuerName),
    serialNumber: certificate.serialNumber,
    notBeforeMs: certificate.notBefore.getTime(),
    notAfterMs: certificate.notAfter.getTime(),
    subjectAltNames: subjectAltNames(certificate),
    spki: publicKey.rawData,
    algorithm: await keyAlgorithm(publicKey),
    algorithmName: algorithm.name === "ECDSA" ? `ECDSA ${algorithm.namedCurve ?? "(unnamed curve)"}` : algorithm.name,
  };
}

const describeKey = (algorithm: KeyAlgorithm) =>
  algorithm.kind === "rsa" ? `RSA ${algorithm.bits}` : algorithm.kind === "ec" ? `ECDSA ${algorithm.curve}` : "Ed25519";

async function details(leaf: Certificate, chainLength: number): Promise<CertificateFacts> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", leaf.der));
  return {
    subject: leaf.subject,
    issuer: leaf.issuer,
    serialNumber: leaf.serialNumber,
    subjectAltNames: leaf.subjectAltNames,
    notBefore: new Date(leaf.notBeforeMs).toISOString(),
    notAfter: new Date(leaf.notAfterMs).toISOString(),
    sha256Fingerprint: hex(digest, ":").toUpperCase(),
    publicKey: leaf.algorithm ? describeKey(leaf.algorithm) : leaf.algorithmName,
    selfSigned: leaf.subject === leaf.issuer,
    chainLength,
  };
}

interface PemBlock {
  label: string;
  der: Uint8Array<ArrayBuffer>;
  encrypted: boolean;
}

/**
 * The PEM blocks of a text, in order (RFC 7468), each marked when its RFC 1421 headers say it is encrypted; why not,
 * when one does not decode.
 */
function pemBlocks(text: string): { ok: true; blocks: PemBlock[] } | { ok: false; detail: string } {
  try {
    const blocks = PemConverter.decodeWithHeaders(text).map((block) => ({
      label: block.type,
      der: new Uint8Array(block.rawData),
      encrypted: block.headers.some((h) => h.key.toLowerCase() === "proc-type" && /ENCRYPTED/i.test(h.value)),
    }));
    return { ok: true, blocks };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}

async function readChain(pem: string): Promise<{ ok: true; chain: Certificate[] } | { ok: false; detail: string }> {
  const pemRead = pemBlocks(pem);
  if (!pemRead.ok) return { ok: false, detail: `the PEM does not decode: ${pemRead.detail}` };
  const blocks = pemRead.blocks;
  if (blocks.length === 0) return { ok: false, detail: "no PEM block found (expected -----BEGIN CERTIFICATE-----)" };
  const other = blocks.find((b) => b.label !== "CERTIFICATE");
  if (other)
    return {
      ok: false,
      detail: `holds a ${other.label} block; only CERTIFICATE blocks belong here (the key goes in privateKeyPem)`,
    };
  const chain: Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      chain.push(await parseCertificate(block.der));
    } catch (error) {
      return { ok: false, detail: `certificate ${i + 1} does not parse as X.509: ${(error as Error).message}` };
    }
  }
  return { ok: true, chain };
}

/** The details of a stored certificate chain. */
export async function inspectCertificate(pem: string): Promise<CertificateFacts | null> {
  const read = await readChain(pem);
  return read.ok ? details(read.chain[0]!, read.chain.length) : null;
}

// ── keys ─────────────────────────────────────────────────────────────────

/** A traditional key wrapped as PKCS#8 (RFC 5208), which WebCrypto imports. */
const pkcs8Of = (algorithm: AlgorithmIdentifier, key: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(
    AsnConvert.serialize(
      new PrivateKeyInfo({ version: 0, privateKeyAlgorithm: algorithm, privateKey: new OctetString(key) }),
    ),
  );

/** The named curve an AlgorithmIdentifier's or a SEC1 key's parameters carry, as an OID. */
const namedCurve = (parameters: ArrayBuffer | null | undefined): string | undefined =>
  parameters ? AsnConvert.parse(parameters, ECParameters).namedCurve : undefined;

/** A private key as PKCS#8, with the algorithm it declares. */
function readPrivateKey(
  pem: string,
  certificateCurve: string | undefined,
): { ok: true; pkcs8: Uint8Array<ArrayBuffer>; oid: string; curve?: string } | { ok: false; detail: string } {
  const pemRead = pemBlocks(pem);
  if (!pemRead.ok) return { ok: false, detail: `the key does not parse: ${pemRead.detail}` };
  const blocks = pemRead.blocks;
  if (blocks.length !== 1)
    return {
      ok: false,
      detail:
        blocks.length === 0
          ? "no PEM block found (expected -----BEGIN PRIVATE KEY-----)"
          : "holds more than one PEM block; send the key alone",
    };
  const block = blocks[0]!;
  if (block.encrypted || block.label === "ENCRYPTED PRIVATE KEY")
    return {
      ok: false,
      detail: "the key is encrypted; upload it decrypted (it is stored as a secret and never returned)",
    };
  try {
    if (block.label === "PRIVATE KEY") {
      const { privateKeyAlgorithm } = AsnConvert.parse(block.der, PrivateKeyInfo);
      const oid = privateKeyAlgorithm.algorithm;
      const curve = oid === OID.ec ? namedCurve(privateKeyAlgorithm.parameters) : undefined;
      return { ok: true, pkcs8: block.der, oid, ...(curve ? { curve } : {}) };
    }
    if (block.label === "RSA PRIVATE KEY") {
      // PKCS#1 (RFC 8017 A.1.2): its AlgorithmIdentifier has NULL parameters (RFC 3279 §2.3.1).
      const rsa = new AlgorithmIdentifier({ algorithm: OID.rsa, parameters: null });
      return { ok: true, pkcs8: pkcs8Of(rsa, block.der), oid: OID.rsa };
    }
    if (block.label === "EC PRIVATE KEY") {
      // SEC1 (RFC 5915): the curve is in [0] parameters, or else must be the certificate's.
      const curve = AsnConvert.parse(block.der, ECPrivateKey).parameters?.namedCurve ?? certificateCurve;
      if (!curve) return { ok: false, detail: "the EC key does not name its curve" };
      const ec = new AlgorithmIdentifier({
        algorithm: OID.ec,
        parameters: AsnConvert.serialize(new ECParameters({ namedCurve: curve })),
      });
      return { ok: true, pkcs8: pkcs8Of(ec, block.der), oid: OID.ec, curve };
    }
  } catch (error) {
    return { ok: false, detail: `the key does not parse: ${(error as Error).message}` };
  }
  return {
    ok: false,
    detail: `a ${block.label} block is not a private key (expected PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)`,
  };
}

function importParams(algorithm: KeyAlgorithm): {
  params: SubtleCryptoImportKeyAlgorithm;
  compare: string[];
  oid: string;
} {
  switch (algorithm.kind) {
    case "rsa":
      return { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, compare: ["n", "e"], oid: OID.rsa };
    case "ec":
      return { params: { name: "ECDSA", namedCurve: algorithm.curve }, compare: ["x", "y"], oid: OID.ec };
    case "ed25519":
      return { params: { name: "Ed25519" }, compare: ["x"], oid: "1.3.101.112" };
  }
}

/**
 * Checks an uploaded certificate chain and private key: both parse, the key
 * is the certificate's, the certificate is in date and its key strong enough.
 * Every problem found is reported; `now` decides expiry.
 */
export async function checkCertificatePair(
  certificatePem: string,
  privateKeyPem: string,
  nowMs: number,
): Promise<PairCheck> {
  const errors: Extract<PairCheck, { ok: false }>["errors"] = [];
  const read = await readChain(certificatePem);
  const leaf = read.ok ? read.chain[0]! : null;
  if (!read.ok) errors.push({ pointer: "#/certificatePem", detail: read.detail });
  const warnings: string[] = [];
  if (leaf) {
    if (!leaf.algorithm)
      errors.push({
        pointer: "#/certificatePem",
        detail: `unsupported public key algorithm ${leaf.algorithmName} (RSA, ECDSA P-256/384/521 or Ed25519)`,
      });
    else if (leaf.algorithm.kind === "rsa" && leaf.algorithm.bits < MIN_RSA_BITS)
      errors.push({
        pointer: "#/certificatePem",
        detail: `RSA keys under ${MIN_RSA_BITS} bits are refused (this one has ${leaf.algorithm.bits})`,
      });
    if (leaf.notAfterMs <= nowMs)
      errors.push({
        pointer: "#/certificatePem",
        detail: `the certificate expired at ${new Date(leaf.notAfterMs).toISOString()}`,
      });
    if (leaf.notBeforeMs > nowMs)
      warnings.push(`the certificate is not valid before ${new Date(leaf.notBeforeMs).toISOString()}`);
  }
  const curve = leaf?.algorithm?.kind === "ec" ? curveOid(leaf.algorithm.curve) : undefined;
  const key = readPrivateKey(privateKeyPem, curve);
  if (!key.ok) errors.push({ pointer: "#/privateKeyPem", detail: key.detail });
  if (errors.length > 0 || !leaf?.algorithm || !key.ok) return { ok: false, errors };

  const { params, compare, oid } = importParams(leaf.algorithm);
  const expected = oid === key.oid && (key.oid !== OID.ec || key.curve === curve);
  if (!expected)
    return {
      ok: false,
      errors: [
        {
          pointer: "#/privateKeyPem",
          detail: "the key is of another algorithm or curve than the certificate's public key",
        },
      ],
    };
  let privateJwk: JsonWebKey;
  try {
    const imported = await crypto.subtle.importKey("pkcs8", key.pkcs8, params, true, ["sign"]);
    privateJwk = (await crypto.subtle.exportKey("jwk", imported)) as JsonWebKey;
  } catch (error) {
    return {
      ok: false,
      errors: [{ pointer: "#/privateKeyPem", detail: `the key cannot be loaded: ${(error as Error).message}` }],
    };
  }
  let publicJwk: JsonWebKey;
  try {
    // The library reads the structure; WebCrypto is what checks the key itself (a point on the curve, a sane modulus).
    const publicKey = await crypto.subtle.importKey("spki", leaf.spki, params, true, ["verify"]);
    publicJwk = (await crypto.subtle.exportKey("jwk", publicKey)) as JsonWebKey;
  } catch (error) {
    return {
      ok: false,
      errors: [
        {
          pointer: "#/certificatePem",
          detail: `the certificate's public key cannot be loaded: ${(error as Error).message}`,
        },
      ],
    };
  }
  const matches = compare.every((member) => {
    const a = privateJwk[member as keyof JsonWebKey];
    return typeof a === "string" && a === publicJwk[member as keyof JsonWebKey];
  });
  if (!matches)
    return {
      ok: false,
      errors: [{ pointer: "#/privateKeyPem", detail: "the private key does not match the certificate's public key" }],
    };
  return { ok: true, details: await details(leaf, read.ok ? read.chain.length : 1), warnings };
}
