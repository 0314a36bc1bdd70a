/**
 * The trust-critical pieces of an ACME client (RFC 8555), free of I/O: the
 * account key, the JWS every request is signed with (§6.2), the key
 * authorization an HTTP-01 challenge answers with (§8.1, §8.3), and the
 * certificate signing request sent at finalization (§7.4, RFC 2986, built
 * by @peculiar/x509). Web Crypto only, so it runs in workerd and in Node alike.
 */
// tsyringe, which @peculiar/x509 resolves its algorithms through, needs the Reflect metadata API before it loads.
import "reflect-metadata";
import { Pkcs10CertificateRequestGenerator, SubjectAlternativeNameExtension } from "@peculiar/x509";
import { FlattenedSign, calculateJwkThumbprint, importJWK, type JWK } from "jose";
import { parseAddress } from "../../simulator/prefix.ts";
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
export async function signRequest(
  key: JWK,
  header: { url: string; nonce: string; kid: string | null },
  payload: unknown,
): Promise<string> {
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
  const keys = (await crypto.subtle.generateKey(EC_P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const first = names[0]!;
  // subjectAltName (RFC 5280 §4.2.1.6): dNSName for names, iPAddress for address literals (RFC 8738); sent in a PKCS#9
  // extensionRequest.
  const san = new SubjectAlternativeNameExtension(
    names.map((name) =>
      parseAddress(name) === null
        ? { type: "dns" as const, value: name.toLowerCase() }
        : { type: "ip" as const, value: name },
    ),
  );
  const request = await Pkcs10CertificateRequestGenerator.create({
    ...(parseAddress(first) === null ? { name: [{ CN: [first.toLowerCase()] }] } : {}),
    keys,
    signingAlgorithm: { name: "ECDSA", hash: "SHA-256" } as SubtleCryptoSignAlgorithm,
    extensions: [san],
  });
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", keys.privateKey)) as ArrayBuffer);
  return { csr: toBase64Url(new Uint8Array(request.rawData)), privateKeyPem: pem("PRIVATE KEY", pkcs8) };
}
