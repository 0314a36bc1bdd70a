/**
 * Authentication, passkeys, the wire contract: registering one for the logged-in account, listing, renaming and
 * removing.
 */
import { z } from "zod";
import { operation } from "../contract.ts";
import { StatusResult } from "../common.ts";
import { PasskeyRecord, Reauthentication } from "../auth.ts";

const base = "/api/v1/auth/passkeys";
const PasskeyName = z.string().trim().min(1).max(64);
const PasskeyId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,1023}$/, "a credential id (base64url)") });
/**
 * PublicKeyCredentialCreationOptionsJSON as POST registration-options answers it: the fields the schema names, the rest
 * passed through.
 */
export const PasskeyRegistrationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
});

/** The section's operations. */
export const passkeys = {
  registrationOptions: operation({
    method: "POST",
    path: `${base}/registration-options`,
    section: "Authentication",
    summary: "Start registering a passkey for the logged-in account",
    description:
      "Answers PublicKeyCredentialCreationOptionsJSON for " +
      "`navigator.credentials.create()` (no attestation; the policy's user " +
      "verification; the account's " +
      ("passkeys excluded), valid 5 minutes. The relying party is the passkey policy's " +
        "`rpId`, else `webUi.hostname`. 409 when the policy disables passkeys ") +
      "or no relying-party id is known. " +
      ("Re-authentication first (ASVS 5.0 V7.5.1): the body carries the account's " +
        "`currentPassword` or a fresh `totpCode`, so a stolen session cannot add ") +
      "its own passkey; a wrong one answers 401 and counts towards the lockout like a failed login.",
    floor: "read-only",
    credentials: "session",
    body: Reauthentication,
    response: { description: "registration options", schema: PasskeyRegistrationOptions },
    errors: [401, 409, 423],
    examples: {
      body: { currentPassword: "quiet-harbour-lantern-1947" },
      response: {
        challenge: "x2y7dQ0k4uGv9sVxQm3PcA",
        rp: { id: "edge-1.bng.localhost", name: "bngfleet edge-1" },
        user: { id: "YWRtaW4", name: "admin", displayName: "admin" },
        pubKeyCredParams: [
          { type: "public-key", alg: -7 },
          { type: "public-key", alg: -257 },
        ],
        timeout: 60000,
        attestation: "none",
        excludeCredentials: [],
        authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
      },
    },
  }),
  register: operation({
    method: "POST",
    path: base,
    section: "Authentication",
    summary: "Register a passkey: the authenticator's answer to the registration options",
    description:
      "Verifies the RegistrationResponseJSON against the pending challenge (once), the " +
      "appliance's origins and relying-party id. 400 naming `#/response` " +
      ("when it does not verify; 409 when no registration is under way or the passkey " +
        "is already registered. Audited (`auth.passkey.registered`)."),
    floor: "read-only",
    credentials: "session",
    body: z.object({
      name: PasskeyName.meta({ description: "a label, e.g. `YubiKey 5C`" }),
      response: z
        .looseObject({ id: z.string().max(1024), type: z.literal("public-key"), response: z.looseObject({}) })
        .meta({ description: "RegistrationResponseJSON from navigator.credentials.create()" }),
    }),
    response: { description: "the registered passkey", schema: PasskeyRecord },
    errors: [409],
    examples: {
      body: {
        name: "YubiKey 5C",
        response: {
          id: "pJzZ0vYbO2z1m6N8iXgq3w",
          type: "public-key",
          response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ" },
        },
      },
      response: {
        id: "pJzZ0vYbO2z1m6N8iXgq3w",
        username: "admin",
        name: "YubiKey 5C",
        transports: ["usb", "nfc"],
        createdUtc: "2026-11-26T20:41:07.000Z",
        lastUsedUtc: null,
      },
    },
  }),
  list: operation({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List passkeys: the caller's own, or every account's for a super-user",
    description:
      "WebAuthn credentials registered for sign-in: each with its credential id, " +
      "account, label, the transports its authenticator reported, creation and " +
      "last-use times. A read-only or operator caller sees only its own account's; a " +
      "super-user sees every account's.",
    floor: "read-only",
    response: { description: "passkeys, newest first", schema: z.array(PasskeyRecord) },
    examples: { response: [] },
  }),
  rename: operation({
    method: "PATCH",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "Rename a passkey",
    description: "The account's own, or any for a super-user; someone else's reads as 404.",
    floor: "read-only",
    params: PasskeyId,
    body: z.object({ name: PasskeyName }),
    response: { description: "the passkey", schema: PasskeyRecord },
    errors: [404],
    examples: {
      params: { id: "pJzZ0vYbO2z1m6N8iXgq3w" },
      body: { name: "YubiKey 5C (desk)" },
      response: {
        id: "pJzZ0vYbO2z1m6N8iXgq3w",
        username: "admin",
        name: "YubiKey 5C (desk)",
        transports: ["usb", "nfc"],
        createdUtc: "2026-11-26T20:41:07.000Z",
        lastUsedUtc: null,
      },
      errors: { 404: "no passkey 'pJzZ0vYbO2z1m6N8iXgq3w'" },
    },
  }),
  remove: operation({
    method: "DELETE",
    path: `${base}/{id}`,
    section: "Authentication",
    summary: "Remove a passkey; it no longer replaces the TOTP code",
    description:
      "The account's own, or any for a super-user; someone else's reads as 404. Audited (`auth.passkey.removed`).",
    floor: "read-only",
    params: PasskeyId,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404],
    examples: {
      params: { id: "pJzZ0vYbO2z1m6N8iXgq3w" },
      response: { status: "deleted" },
      errors: { 404: "no passkey 'pJzZ0vYbO2z1m6N8iXgq3w'" },
    },
  }),
};
