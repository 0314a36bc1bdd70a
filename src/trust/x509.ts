/**
 * Web UI certificates: reading a PEM certificate chain and a private key,
 * and proving the key belongs to the certificate before the appliance
 * accepts them. X.509 per RFC 5280 through the small DER reader; keys are
 * PKCS#8 (`PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE
 * KEY`), imported with WebCrypto, and matched by comparing the public half
 * the key yields with the certificate's subject public key.
 */
import { formatIpv6 } from "../../simulator/prefix.ts";
import { DerError, TAG, children, expectTag, oidText, oidTlv, readOnly, readTlv, tlv, type Tlv } from "./der.ts";

/** What the API shows about a certificate; never the key. */
export interface CertificateDetails {
  subject: string;
  issuer: string;
  serialNumber: string;
  subjectAltNames: string[];
  notBefore: string;
  notAfter: string;
  sha256Fingerprint: string;
  publicKey: string;
  selfSigned: boolean;
  /** Certificates in the uploaded chain, the leaf included. */
  chainLength: number;
}

export type PairCheck =
  | { ok: true; details: CertificateDetails; warnings: string[] }
  | { ok: false; errors: { pointer: "#/certificatePem" | "#/privateKeyPem"; detail: string }[] };

/** RSA keys shorter than this are refused (NIST SP 800-131A). */
export const MIN_RSA_BITS = 2048;

const OID = {
  rsa: "1.2.840.113549.1.1.1",
  ec: "1.2.840.10045.2.1",
  ed25519: "1.3.101.112",
  subjectAltName: "2.5.29.17",
} as const;

const CURVES: Record<string, "P-256" | "P-384" | "P-521"> = {
  "1.2.840.10045.3.1.7": "P-256",
  "1.3.132.0.34": "P-384",
  "1.3.132.0.35": "P-521",
};

/** RFC 4514 §3 short names. */
const ATTRIBUTES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.9": "STREET",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.5": "serialNumber",
  "1.2.840.113549.1.9.1": "emailAddress",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

type KeyAlgorithm = { kind: "rsa"; bits: number } | { kind: "ec"; curve: "P-256" | "P-384" | "P-521" } | { kind: "ed25519" };

interface Certificate {
  der: Uint8Array<ArrayBuffer>;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBeforeMs: number;
  notAfterMs: number;
  subjectAltNames: string[];
  spki: Uint8Array<ArrayBuffer>;
  algorithm: KeyAlgorithm | null;
  algorithmOid: string;
}

// ── PEM ──────────────────────────────────────────────────────────────────

interface PemBlock {
  label: string;
  der: Uint8Array<ArrayBuffer>;
  encrypted: boolean;
}

/** The PEM blocks of a text, in order (RFC 7468). */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) {
    const body = match[2]!;
    const encrypted = /Proc-Type:\s*4,ENCRYPTED/i.test(body);
    const base64 = body.replace(/^[A-Za-z-]+:.*$/gm, "").replace(/\s+/g, "");
    let der: Uint8Array<ArrayBuffer>;
    try {
      der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    } catch {
      der = new Uint8Array(0);
    }
    blocks.push({ label: match[1]!, der, encrypted });
  }
  return blocks;
}

// ── certificates ─────────────────────────────────────────────────────────

const hex = (bytes: Uint8Array, separator = "") => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(separator);

function decodeString(value: Tlv): string {
  switch (value.tag) {
    case TAG.bmpString: {
      let out = "";
      for (let i = 0; i + 1 < value.content.length; i += 2) out += String.fromCharCode((value.content[i]! << 8) | value.content[i + 1]!);
      return out;
    }
    case TAG.teletexString:
      return String.fromCharCode(...value.content);
    case TAG.utf8String:
    case TAG.printableString:
    case TAG.ia5String:
      return new TextDecoder().decode(value.content);
    default:
      return `#${hex(value.raw)}`;
  }
}

/** RFC 4514 §2.4 escaping. */
const escapeDn = (value: string) =>
  value.startsWith("#") && /^#[0-9a-f]+$/.test(value)
    ? value
    : value.replace(/[,+"\\<>;=]/g, (c) => `\\${c}`).replace(/^([ #])/, "\\$1").replace(/ $/, "\\ ");

/** A Name as an RFC 4514 string (most specific RDN first). */
function nameText(name: Tlv): string {
  const rdns = children(expectTag(name, TAG.sequence, "a Name")).map((rdn) =>
    children(expectTag(rdn, TAG.set, "an RDN"))
      .map((atv) => {
        const [type, value] = children(expectTag(atv, TAG.sequence, "an attribute"));
        const oid = oidText(expectTag(type, TAG.oid, "an attribute type").content);
        if (!value) throw new DerError("attribute without a value");
        return `${ATTRIBUTES[oid] ?? oid}=${escapeDn(decodeString(value))}`;
      })
      .join("+"),
  );
  return rdns.reverse().join(", ");
}

function timeMs(value: Tlv | undefined): number {
  if (!value) throw new DerError("missing validity time");
  const text = new TextDecoder().decode(value.content);
  const utc = value.tag === TAG.utcTime ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text) : null;
  const generalized = value.tag === TAG.generalizedTime ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text) : null;
  const parts = utc ?? generalized;
  if (!parts) throw new DerError("validity times must be UTCTime or GeneralizedTime in Z form");
  let year = Number(parts[1]);
  // RFC 5280 §4.1.2.5.1: two-digit years 50-99 are 19xx, 00-49 are 20xx.
  if (utc) year += year >= 50 ? 1900 : 2000;
  return Date.UTC(year, Number(parts[2]) - 1, Number(parts[3]), Number(parts[4]), Number(parts[5]), Number(parts[6]));
}

function subjectAltNames(extensions: Tlv | undefined): string[] {
  if (!extensions) return [];
  const list = children(expectTag(children(extensions)[0], TAG.sequence, "extensions"));
  for (const extension of list) {
    const parts = children(expectTag(extension, TAG.sequence, "an extension"));
    if (oidText(expectTag(parts[0], TAG.oid, "an extension id").content) !== OID.subjectAltName) continue;
    const value = expectTag(parts[parts.length - 1], TAG.octetString, "an extension value");
    return children(readOnly(value.content)).map((name) => {
      switch (name.tag) {
        case 0x82:
          return `DNS:${new TextDecoder().decode(name.content)}`;
        case 0x87:
          if (name.content.length === 4) return `IP:${[...name.content].join(".")}`;
          if (name.content.length === 16) return `IP:${formatIpv6(BigInt(`0x${hex(name.content)}`))}`;
          return `IP:#${hex(name.content)}`;
        case 0x81:
          return `email:${new TextDecoder().decode(name.content)}`;
        case 0x86:
          return `URI:${new TextDecoder().decode(name.content)}`;
        default:
          return `other:${hex(name.raw)}`;
      }
    });
  }
  return [];
}

function keyAlgorithm(spki: Tlv): { oid: string; algorithm: KeyAlgorithm | null } {
  const [identifier, key] = children(expectTag(spki, TAG.sequence, "a SubjectPublicKeyInfo"));
  const [oid, parameters] = children(expectTag(identifier, TAG.sequence, "an AlgorithmIdentifier"));
  const dotted = oidText(expectTag(oid, TAG.oid, "an algorithm").content);
  if (dotted === OID.rsa) {
    const bits = expectTag(key, TAG.bitString, "a public key").content.subarray(1);
    const [modulus] = children(expectTag(readOnly(bits), TAG.sequence, "an RSA public key"));
    let bytes = expectTag(modulus, TAG.integer, "a modulus").content;
    while (bytes.length > 0 && bytes[0] === 0) bytes = bytes.subarray(1);
    return { oid: dotted, algorithm: { kind: "rsa", bits: bytes.length === 0 ? 0 : (bytes.length - 1) * 8 + bytes[0]!.toString(2).length } };
  }
  if (dotted === OID.ec) {
    const curve = parameters?.tag === TAG.oid ? CURVES[oidText(parameters.content)] : undefined;
    return { oid: dotted, algorithm: curve ? { kind: "ec", curve } : null };
  }
  if (dotted === OID.ed25519) return { oid: dotted, algorithm: { kind: "ed25519" } };
  return { oid: dotted, algorithm: null };
}

/** Parses one DER certificate. */
function parseCertificate(der: Uint8Array<ArrayBuffer>): Certificate {
  const [tbs] = children(expectTag(readOnly(der), TAG.sequence, "a Certificate"));
  const fields = children(expectTag(tbs, TAG.sequence, "a TBSCertificate"));
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  const [serial, , issuer, validity, subject, spki, ...optional] = rest;
  const [notBefore, notAfter] = children(expectTag(validity, TAG.sequence, "a Validity"));
  const publicKey = expectTag(spki, TAG.sequence, "a SubjectPublicKeyInfo");
  const { oid, algorithm } = keyAlgorithm(publicKey);
  return {
    der,
    subject: nameText(subject!),
    issuer: nameText(issuer!),
    serialNumber: hex(expectTag(serial, TAG.integer, "a serial number").content),
    notBeforeMs: timeMs(notBefore),
    notAfterMs: timeMs(notAfter),
    subjectAltNames: subjectAltNames(optional.find((t) => t.tag === 0xa3)),
    spki: publicKey.raw.slice(),
    algorithm,
    algorithmOid: oid,
  };
}

const describeKey = (algorithm: KeyAlgorithm) =>
  algorithm.kind === "rsa" ? `RSA ${algorithm.bits}` : algorithm.kind === "ec" ? `ECDSA ${algorithm.curve}` : "Ed25519";

async function details(leaf: Certificate, chainLength: number): Promise<CertificateDetails> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", leaf.der));
  return {
    subject: leaf.subject,
    issuer: leaf.issuer,
    serialNumber: leaf.serialNumber,
    subjectAltNames: leaf.subjectAltNames,
    notBefore: new Date(leaf.notBeforeMs).toISOString(),
    notAfter: new Date(leaf.notAfterMs).toISOString(),
    sha256Fingerprint: hex(digest, ":").toUpperCase(),
    publicKey: leaf.algorithm ? describeKey(leaf.algorithm) : leaf.algorithmOid,
    selfSigned: leaf.subject === leaf.issuer,
    chainLength,
  };
}

function readChain(pem: string): { ok: true; chain: Certificate[] } | { ok: false; detail: string } {
  const blocks = pemBlocks(pem);
  if (blocks.length === 0) return { ok: false, detail: "no PEM block found (expected -----BEGIN CERTIFICATE-----)" };
  const other = blocks.find((b) => b.label !== "CERTIFICATE");
  if (other) return { ok: false, detail: `holds a ${other.label} block; only CERTIFICATE blocks belong here (the key goes in privateKeyPem)` };
  const chain: Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      chain.push(parseCertificate(block.der));
    } catch (error) {
      return { ok: false, detail: `certificate ${i + 1} does not parse as X.509: ${(error as Error).message}` };
    }
  }
  return { ok: true, chain };
}

/** The details of a stored certificate chain. */
export async function inspectCertificate(pem: string): Promise<CertificateDetails | null> {
  const read = readChain(pem);
  return read.ok ? details(read.chain[0]!, read.chain.length) : null;
}

// ── keys ─────────────────────────────────────────────────────────────────

const version0 = () => tlv(TAG.integer, Uint8Array.of(0));

/** A private key as PKCS#8, with the algorithm it declares. */
function readPrivateKey(pem: string, certificateCurve: string | undefined): { ok: true; pkcs8: Uint8Array<ArrayBuffer>; oid: string; curve?: string } | { ok: false; detail: string } {
  const blocks = pemBlocks(pem);
  if (blocks.length !== 1) return { ok: false, detail: blocks.length === 0 ? "no PEM block found (expected -----BEGIN PRIVATE KEY-----)" : "holds more than one PEM block; send the key alone" };
  const block = blocks[0]!;
  if (block.encrypted || block.label === "ENCRYPTED PRIVATE KEY") return { ok: false, detail: "the key is encrypted; upload it decrypted (it is stored as a secret and never returned)" };
  try {
    if (block.label === "PRIVATE KEY") {
      const [, identifier] = children(expectTag(readOnly(block.der), TAG.sequence, "a PKCS#8 key"));
      const [oid, parameters] = children(expectTag(identifier, TAG.sequence, "an AlgorithmIdentifier"));
      const dotted = oidText(expectTag(oid, TAG.oid, "an algorithm").content);
      return { ok: true, pkcs8: block.der, oid: dotted, ...(parameters?.tag === TAG.oid ? { curve: oidText(parameters.content) } : {}) };
    }
    if (block.label === "RSA PRIVATE KEY") {
      readOnly(block.der);
      const identifier = tlv(TAG.sequence, oidTlv(OID.rsa), tlv(TAG.null));
      return { ok: true, pkcs8: tlv(TAG.sequence, version0(), identifier, tlv(TAG.octetString, block.der)), oid: OID.rsa };
    }
    if (block.label === "EC PRIVATE KEY") {
      // SEC1 (RFC 5915): the curve is in [0] parameters, or else must be the certificate's.
      const parts = children(expectTag(readOnly(block.der), TAG.sequence, "an EC private key"));
      const tagged = parts.find((p) => p.tag === 0xa0);
      const curve = tagged ? oidText(expectTag(readTlv(tagged.content), TAG.oid, "a named curve").content) : certificateCurve;
      if (!curve) return { ok: false, detail: "the EC key does not name its curve" };
      const identifier = tlv(TAG.sequence, oidTlv(OID.ec), oidTlv(curve));
      return { ok: true, pkcs8: tlv(TAG.sequence, version0(), identifier, tlv(TAG.octetString, block.der)), oid: OID.ec, curve };
    }
  } catch (error) {
    return { ok: false, detail: `the key does not parse: ${(error as Error).message}` };
  }
  return { ok: false, detail: `a ${block.label} block is not a private key (expected PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)` };
}

function importParams(algorithm: KeyAlgorithm): { params: SubtleCryptoImportKeyAlgorithm; compare: string[] } {
  switch (algorithm.kind) {
    case "rsa":
      return { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, compare: ["n", "e"] };
    case "ec":
      return { params: { name: "ECDSA", namedCurve: algorithm.curve }, compare: ["x", "y"] };
    case "ed25519":
      return { params: { name: "Ed25519" }, compare: ["x"] };
  }
}

/**
 * Checks an uploaded certificate chain and private key: both parse, the key
 * is the certificate's, the certificate is in date and its key strong enough.
 * Every problem found is reported; `now` decides expiry.
 */
export async function checkCertificatePair(certificatePem: string, privateKeyPem: string, nowMs: number): Promise<PairCheck> {
  const errors: Extract<PairCheck, { ok: false }>["errors"] = [];
  const read = readChain(certificatePem);
  const leaf = read.ok ? read.chain[0]! : null;
  if (!read.ok) errors.push({ pointer: "#/certificatePem", detail: read.detail });
  const warnings: string[] = [];
  if (leaf) {
    if (!leaf.algorithm) errors.push({ pointer: "#/certificatePem", detail: `unsupported public key algorithm ${leaf.algorithmOid} (RSA, ECDSA P-256/384/521 or Ed25519)` });
    else if (leaf.algorithm.kind === "rsa" && leaf.algorithm.bits < MIN_RSA_BITS) errors.push({ pointer: "#/certificatePem", detail: `RSA keys under ${MIN_RSA_BITS} bits are refused (this one has ${leaf.algorithm.bits})` });
    if (leaf.notAfterMs <= nowMs) errors.push({ pointer: "#/certificatePem", detail: `the certificate expired at ${new Date(leaf.notAfterMs).toISOString()}` });
    if (leaf.notBeforeMs > nowMs) warnings.push(`the certificate is not valid before ${new Date(leaf.notBeforeMs).toISOString()}`);
  }
  const curve = leaf?.algorithm?.kind === "ec" ? Object.entries(CURVES).find(([, name]) => name === (leaf.algorithm as { curve: string }).curve)?.[0] : undefined;
  const key = readPrivateKey(privateKeyPem, curve);
  if (!key.ok) errors.push({ pointer: "#/privateKeyPem", detail: key.detail });
  if (errors.length > 0 || !leaf?.algorithm || !key.ok) return { ok: false, errors };

  const expected = leaf.algorithmOid === key.oid && (key.oid !== OID.ec || key.curve === curve);
  if (!expected) return { ok: false, errors: [{ pointer: "#/privateKeyPem", detail: "the key is of another algorithm or curve than the certificate's public key" }] };
  const { params, compare } = importParams(leaf.algorithm);
  let privateJwk: JsonWebKey;
  try {
    const imported = await crypto.subtle.importKey("pkcs8", key.pkcs8, params, true, ["sign"]);
    privateJwk = (await crypto.subtle.exportKey("jwk", imported)) as JsonWebKey;
  } catch (error) {
    return { ok: false, errors: [{ pointer: "#/privateKeyPem", detail: `the key cannot be loaded: ${(error as Error).message}` }] };
  }
  let publicJwk: JsonWebKey;
  try {
    // Our DER reader only walks the structure; WebCrypto is what checks the key itself (a point on the curve, a sane modulus).
    const publicKey = await crypto.subtle.importKey("spki", leaf.spki, params, true, ["verify"]);
    publicJwk = (await crypto.subtle.exportKey("jwk", publicKey)) as JsonWebKey;
  } catch (error) {
    return { ok: false, errors: [{ pointer: "#/certificatePem", detail: `the certificate's public key cannot be loaded: ${(error as Error).message}` }] };
  }
  const matches = compare.every((member) => {
    const a = privateJwk[member as keyof JsonWebKey];
    return typeof a === "string" && a === publicJwk[member as keyof JsonWebKey];
  });
  if (!matches) return { ok: false, errors: [{ pointer: "#/privateKeyPem", detail: "the private key does not match the certificate's public key" }] };
  return { ok: true, details: await details(leaf, read.ok ? read.chain.length : 1), warnings };
}
