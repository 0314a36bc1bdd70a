/**
 * Passkeys (WebAuthn Level 3) as a second factor in place of a TOTP code,
 * when the passkey policy says so. The ceremonies are SimpleWebAuthn's: it
 * checks the challenge, origin, RP id, user presence and verification, the
 * signature against the stored public key, and the signature counter. This
 * module only fixes the appliance's choices (no attestation, the policy's
 * user-verification requirement) and the stored shape of a credential.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { refuse, type Outcome } from "../schemas/outcome.ts";
import { utf8 } from "./encoding.ts";

/** How long a ceremony's challenge is good for. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;

/**
 * Where passkeys are valid: the relying-party id and the origins pages are served from; null when the appliance has no
 * name to bind them to.
 */
export interface PasskeyContext {
  enabled: boolean;
  replacesTotp: boolean;
  userVerification: "required" | "preferred" | "discouraged";
  rpId: string | null;
  origins: string[];
}

/** A stored credential: its id and public key, the counter last seen, and how the authenticator is reached. */
export interface StoredPasskey {
  id: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** Options for `navigator.credentials.create()`; other passkeys of the account are excluded. */
export function registrationOptions(
  context: PasskeyContext & { rpId: string },
  username: string,
  existing: StoredPasskey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: "bngfleet",
    rpID: context.rpId,
    userName: username,
    // A stable user handle per account and RP: the same account re-registering is recognised by authenticators.
    userID: utf8(`${username}@${context.rpId}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: "preferred", userVerification: context.userVerification },
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
  });
}

/** Checks a registration against its challenge; answers the credential to store. */
export async function verifyRegistration(
  context: PasskeyContext & { rpId: string },
  response: unknown,
  challenge: string,
): Promise<Outcome<{ passkey: StoredPasskey }>> {
  try {
    const verified = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: context.origins,
      expectedRPID: context.rpId,
      requireUserVerification: context.userVerification === "required",
    });
    if (!verified.verified)
      return refuse("invalid", "the passkey registration could not be verified", { pointer: "#/response" });
    const { credential } = verified.registrationInfo;
    return {
      ok: true,
      passkey: {
        id: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
      },
    };
  } catch (error) {
    return refuse(
      "invalid",
      `the passkey registration was refused: ${error instanceof Error ? error.message : "invalid"}`,
      { pointer: "#/response" },
    );
  }
}

/** Options for `navigator.credentials.get()`, limited to the account's passkeys. */
export function authenticationOptions(
  context: PasskeyContext & { rpId: string },
  passkeys: StoredPasskey[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: context.rpId,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransportFuture[] })),
    userVerification: context.userVerification,
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
  });
}

/**
 * Checks an assertion by one of the account's passkeys; answers the new signature counter, or null when it is refused.
 */
export async function verifyAssertion(
  context: PasskeyContext & { rpId: string },
  response: unknown,
  challenge: string,
  passkeys: StoredPasskey[],
): Promise<{ id: string; counter: number } | null> {
  const id = typeof response === "object" && response !== null ? (response as { id?: unknown }).id : undefined;
  const passkey = passkeys.find((p) => p.id === id);
  if (!passkey) return null;
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: context.origins,
      expectedRPID: context.rpId,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: context.userVerification === "required",
    });
    return verified.verified ? { id: passkey.id, counter: verified.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
