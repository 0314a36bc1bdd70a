/** WebAuthn JSON ⇄ browser credential objects (base64url members), for the passkey sign-in and registration. */
import type { LoginResponse } from "../src/schemas/auth.ts";

const fromB64url = (s: string): ArrayBuffer => {
  const b = atob(
    s
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(s.length / 4) * 4, "="),
  );
  const bytes = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) bytes[i] = b.charCodeAt(i);
  return bytes.buffer;
};
const toB64url = (buffer: ArrayBuffer | null): string | undefined => {
  if (!buffer) return undefined;
  let s = "";
  for (const byte of new Uint8Array(buffer)) s += String.fromCharCode(byte);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

/** PublicKeyCredentialRequestOptionsJSON as the login answer carries it. */
type RequestOptionsJson = NonNullable<LoginResponse["passkeyOptions"]>;

/** Asks the authenticator to answer a login's `passkeyOptions`; returns AuthenticationResponseJSON. */
export async function passkeyAssertion(options: RequestOptionsJson): Promise<Record<string, unknown>> {
  const credential = (await navigator.credentials.get({
    publicKey: {
      challenge: fromB64url(options.challenge),
      ...(options.timeout ? { timeout: options.timeout } : {}),
      ...(options.rpId ? { rpId: options.rpId } : {}),
      allowCredentials: (options.allowCredentials ?? []).map((c) => ({
        id: fromB64url(c.id),
        type: c.type,
        transports: (c.transports ?? []) as AuthenticatorTransport[],
      })),
      userVerification: (options.userVerification ?? "preferred") as UserVerificationRequirement,
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("The authenticator gave no answer");
  const response = credential.response as AuthenticatorAssertionResponse;
  return credentialJson(credential, {
    clientDataJSON: toB64url(response.clientDataJSON),
    authenticatorData: toB64url(response.authenticatorData),
    signature: toB64url(response.signature),
    userHandle: toB64url(response.userHandle),
  });
}

/**
 * A credential in the JSON form SimpleWebAuthn expects (WebAuthn L3 `toJSON`): the common fields around its response's
 * own.
 */
function credentialJson(credential: PublicKeyCredential, response: Record<string, unknown>): Record<string, unknown> {
  return {
    id: credential.id,
    rawId: toB64url(credential.rawId),
    type: "public-key",
    clientExtensionResults: credential.getClientExtensionResults(),
    response,
  };
}

interface CreationOptionsJson {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: { alg: number; type: "public-key" }[];
  timeout?: number;
  excludeCredentials?: { id: string; type: "public-key"; transports?: string[] }[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  attestation?: AttestationConveyancePreference;
}

/** Creates a passkey for the registration options; returns RegistrationResponseJSON. */
export async function passkeyRegistration(options: CreationOptionsJson): Promise<Record<string, unknown>> {
  const credential = (await navigator.credentials.create({
    publicKey: {
      challenge: fromB64url(options.challenge),
      rp: options.rp,
      user: { ...options.user, id: fromB64url(options.user.id) },
      pubKeyCredParams: options.pubKeyCredParams,
      ...(options.timeout ? { timeout: options.timeout } : {}),
      excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({
        id: fromB64url(c.id),
        type: c.type,
        transports: (c.transports ?? []) as AuthenticatorTransport[],
      })),
      ...(options.authenticatorSelection ? { authenticatorSelection: options.authenticatorSelection } : {}),
      attestation: options.attestation ?? "none",
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("The authenticator created no passkey");
  const response = credential.response as AuthenticatorAttestationResponse;
  return credentialJson(credential, {
    clientDataJSON: toB64url(response.clientDataJSON),
    attestationObject: toB64url(response.attestationObject),
    transports: response.getTransports?.() ?? [],
  });
}
