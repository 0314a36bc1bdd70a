/**
 * A software passkey authenticator for the tests: what a security key or a
 * platform authenticator hands the browser, built with WebCrypto (ECDSA
 * P-256, "none" attestation) so the appliance's WebAuthn checks run on real
 * signatures.
 */
import { toBase64Url } from "../../src/trust/encoding.ts";

const encoder = new TextEncoder();
const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
/** The CBOR subset WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: Cbor): Uint8Array {
  const head = (major: number, n: number) =>
    n < 24
      ? new Uint8Array([(major << 5) | n])
      : n < 256
        ? new Uint8Array([(major << 5) | 24, n])
        : new Uint8Array([(major << 5) | 25, n >> 8, n & 255]);
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return concat(head(3, encoder.encode(value).length), encoder.encode(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** ECDSA's raw r‖s as the DER SEQUENCE WebAuthn signatures use. */
function der(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([2, body.length]), body);
  };
  const body = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export class SoftwareAuthenticator {
  readonly id = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  #keys!: CryptoKeyPair;
  #counter = 0;

  /** Answers registration options (navigator.credentials.create()) as seen from `origin`. */
  async create(options: { challenge: string; rp: { id?: string } }, origin: string) {
    this.#keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", this.#keys.publicKey)) as JsonWebKey;
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromB64url(jwk.x!)],
        [-3, fromB64url(jwk.y!)],
      ]),
    );
    const credentialId = fromB64url(this.id);
    const authData = concat(
      await sha256(encoder.encode(options.rp.id!)),
      new Uint8Array([0x45, 0, 0, 0, 0]), // user present, user verified, attested credential data; counter 0
      new Uint8Array(16), // AAGUID: none
      new Uint8Array([credentialId.length >> 8, credentialId.length & 255]),
      credentialId,
      coseKey,
    );
    const clientDataJSON = encoder.encode(
      JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64Url(clientDataJSON),
        attestationObject: toBase64Url(attestationObject),
        transports: ["usb"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "cross-platform",
    };
  }

  /** Answers authentication options (navigator.credentials.get()) as seen from `origin`. */
  async get(options: { challenge: string; rpId?: string }, origin: string) {
    this.#counter++;
    const authData = concat(
      await sha256(encoder.encode(options.rpId!)),
      new Uint8Array([0x05, 0, 0, 0, this.#counter]),
    );
    const clientDataJSON = encoder.encode(
      JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.#keys.privateKey, signed),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64Url(clientDataJSON),
        authenticatorData: toBase64Url(authData),
        signature: toBase64Url(der(raw)),
      },
      clientExtensionResults: {},
    };
  }
}
