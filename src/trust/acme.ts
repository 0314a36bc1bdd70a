/**
 * The trust-critical pieces of an ACME client (RFC 8555), free of I/O: the
 * account key, the JWS every request is signed with (§6.2), the key
 * authorization an HTTP-01 challenge answers with (§8.1, §8.3), and the
 * certificate signing request sent at finalization (§7.4, RFC 2986).
 * Web Crypto only, so it runs in workerd and in Node alike.
 */
import { FlattenedSign, calculateJwkThumbprint, importJWK, type JWK } from "jose";
import { parseAddress } from "../../simulator/prefix.ts";
import { TAG, oidTlv, tlv } from "./der.ts";
import { toBase64Url, utf8 } from "./encoding.ts";

const EC_P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

/** A fresh ES256 account key as a private JWK (kept in the appliance's storage only). */
export async function generateAccountKey(): Promise<JWK> {
  const pair = (await crypto.subtle.generateKey(EC_P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JWK;
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d };
}

/** The public half of an account key: what newAccount's `jwk` header carries. */
export const publicJwk = (key: JWK): JWK => ({ kty: key.kty, crv: key.crv, x: key.x, y: key.y });

/** The JWK thumbprint (RFC 7638) that binds challenge answers to the account. */
export const thumbprint = (key: JWK): Promise<string> => calculateJwkThumbprint(publicJwk(key), "sha256");

/** The HTTP-01 answer: `token.thumbprint` (RFC 8555 §8.1). */
export const keyAuthorization = async (token: string, key: JWK): Promise<string> => `${token}.${await thumbprint(key)}`;

/**
 * A flattened JWS for one ACME request (§6.2): `jwk` until the account
 * exists (newAccount), `kid` (the account URL) afterwards. A null payload is
 * a POST-as-GET (§6.3): the empty string.
 */
export async function signRequest(key: JWK, header: { url: string; nonce: string; kid: string | null }, payload: unknown): Promise<string> {
  const signer = new FlattenedSign(payload === null ? new Uint8Array() : utf8(JSON.stringify(payload)));
  signer.setProtectedHeader({
    alg: "ES256",
    nonce: header.nonce,
    url: header.url,
    ...(header.kid === null ? { jwk: publicJwk(key) } : { kid: header.kid }),
  });
  return JSON.stringify(await signer.sign(await importJWK(key, "ES256")));
}

/** An identifier as an order names it: `ip` for address literals (RFC 8738), else `dns`. */
export const identifierOf = (name: string): { type: "dns" | "ip"; value: string } =>
  parseAddress(name) !== null ? { type: "ip", value: name } : { type: "dns", value: name.toLowerCase() };

/** One subjectAltName GeneralName: dNSName [2] or iPAddress [7] (RFC 5280 §4.2.1.6). */
function generalName(name: string): Uint8Array {
  const address = parseAddress(name);
  if (address === null) return tlv(0x82, utf8(name.toLowerCase()));
  const length = address.family === 4 ? 4 : 16;
  const bytes = new Uint8Array(length);
  for (let i = length - 1, v = address.value; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn);
  return tlv(0x87, bytes);
}

/** An ECDSA signature as Web Crypto gives it (r‖s) re-encoded as DER Ecdsa-Sig-Value (RFC 3279 §2.2.3). */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (half: Uint8Array) => {
    let start = 0;
    while (start < half.length - 1 && half[start] === 0) start++;
    const trimmed = half.slice(start);
    return tlv(TAG.integer, trimmed[0]! & 0x80 ? Uint8Array.of(0, ...trimmed) : trimmed);
  };
  const size = raw.length / 2;
  return tlv(TAG.sequence, integer(raw.slice(0, size)), integer(raw.slice(size)));
}

const pem = (label: string, der: Uint8Array) => {
  const base64 = btoa(String.fromCharCode(...der));
  return `-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----\n`;
};

/**
 * A new ECDSA P-256 certificate key and a CSR for `names` (the first as the
 * subject CN when it is a DNS name): the CSR base64url-encoded as finalize
 * takes it, the key as a PKCS#8 PEM for the listener.
 */
export async function certificateRequest(names: string[]): Promise<{ csr: string; privateKeyPem: string }> {
  const pair = (await crypto.subtle.generateKey(EC_P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
  const first = names[0]!;
  const subject =
    parseAddress(first) === null
      ? tlv(TAG.sequence, tlv(TAG.set, tlv(TAG.sequence, oidTlv("2.5.4.3"), tlv(TAG.utf8String, utf8(first.toLowerCase())))))
      : tlv(TAG.sequence);
  const san = tlv(TAG.sequence, oidTlv("2.5.29.17"), tlv(TAG.octetString, tlv(TAG.sequence, ...names.map(generalName))));
  // attributes [0]: one extensionRequest (PKCS#9, 1.2.840.113549.1.9.14) holding the SAN extension.
  const attributes = tlv(0xa0, tlv(TAG.sequence, oidTlv("1.2.840.113549.1.9.14"), tlv(TAG.set, tlv(TAG.sequence, san))));
  const info = tlv(TAG.sequence, tlv(TAG.integer, Uint8Array.of(0)), subject, spki, attributes);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, info));
  const ecdsaWithSha256 = tlv(TAG.sequence, oidTlv("1.2.840.10045.4.3.2"));
  const csr = tlv(TAG.sequence, info, ecdsaWithSha256, tlv(TAG.bitString, Uint8Array.of(0), derSignature(signature)));
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  return { csr: toBase64Url(csr), privateKeyPem: pem("PRIVATE KEY", pkcs8) };
}
