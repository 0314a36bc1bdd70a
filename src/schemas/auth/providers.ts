/**
 * Authentication, sign-in providers, the wire contract: OIDC providers (client secret write-only) and the passkey
 * policy.
 */
import { z } from "zod";
import { operation } from "../contract.ts";
import { StatusResult } from "../common.ts";
import { OidcProviderRecord, OidcProviderWrite, PasskeyPolicy, ProviderName } from "../auth.ts";

const oidc = "/api/v1/auth/providers/oidc";

/** The section's operations. */
export const providers = {
  listOidc: operation({
    method: "GET",
    path: oidc,
    section: "Authentication",
    summary: "List OIDC providers (client secrets are never returned)",
    description:
      "Every configured OIDC provider with its label, issuer, client id, scopes, " +
      "username and groups claims, redirect URI, callback path and its group-to-role " +
      "map (spec: role mapping fails closed when no rule matches). The client secret " +
      "is write-only: `clientSecretSet` says whether one is stored.",
    // Issuer, client id and role map are the sign-in's trust settings: super-user reads, as the accounts and tokens are
    // (the sign-in page's buttons read only names and labels, anonymously: GET /api/v1/auth/oidc).
    floor: "super-user",
    response: { description: "array of providers", schema: z.array(OidcProviderRecord) },
    examples: { response: [] },
  }),
  getOidc: operation({
    method: "GET",
    path: `${oidc}/{name}`,
    section: "Authentication",
    summary: "One OIDC provider (its client secret is never returned)",
    description:
      "The provider as the provider list shows it; 404 for an unknown name. Its " +
      "callback path is `/api/v1/auth/oidc/{name}/callback`. The client secret is " +
      "never returned.",
    floor: "super-user",
    params: ProviderName,
    response: { description: "the provider", schema: OidcProviderRecord },
    errors: [404],
    examples: {
      params: { name: "corp-sso" },
      response: {
        name: "corp-sso",
        enabled: true,
        displayName: "Corporate SSO",
        issuer: "https://login.example.com/realms/noc",
        clientId: "bngfleet-edge-1",
        scopes: ["openid", "profile", "email", "groups"],
        usernameClaim: "preferred_username",
        groupsClaim: "groups",
        fetchUserInfo: false,
        roleMap: [
          { group: "noc-admins", role: "super-user" },
          { group: "noc", role: "operator" },
        ],
        redirectUri: null,
        clientSecretSet: true,
        callbackPath: "/api/v1/auth/oidc/corp-sso/callback",
      },
      errors: { 404: "no OIDC provider 'corp-sso'" },
    },
  }),
  putOidc: operation({
    method: "PUT",
    path: `${oidc}/{name}`,
    section: "Authentication",
    summary: "Create or replace an OIDC provider",
    description:
      "The name in the URL wins over any `name` in the body. `clientSecret` is " +
      "write-only: required on create; omitted or sent as the placeholder `********` " +
      "it keeps the stored one. " +
      ("A changed `issuer` drops the stored secret unless the same write sets one (the " +
        "secret is never sent to another provider); until one is set, sign-in with this " +
        "provider answers 409. ") +
      ("Disabling the provider or changing `issuer`, `clientId`, `scopes`, " +
        "`usernameClaim`, `groupsClaim`, `fetchUserInfo` or `roleMap` ends the sessions " +
        "it vouched for. ") +
      ("422 naming `issuer` when the appliance may not connect there (a link-local or " +
        "metadata address, or a loopback or private one `alarms.webhookAllowlist` does " +
        "not hold); ") +
      "sign-in checks the provider's every endpoint the same way.",
    params: ProviderName,
    body: OidcProviderWrite,
    response: { description: "StatusResult `created` or `updated`", schema: StatusResult },
    errors: [422],
    examples: {
      params: { name: "corp-sso" },
      body: {
        enabled: true,
        displayName: "Corporate SSO",
        issuer: "https://login.example.com/realms/noc",
        clientId: "bngfleet-edge-1",
        clientSecret: "change-me-client-secret",
        scopes: ["openid", "profile", "email", "groups"],
        usernameClaim: "preferred_username",
        groupsClaim: "groups",
        roleMap: [
          { group: "noc-admins", role: "super-user" },
          { group: "noc", role: "operator" },
        ],
      },
      response: { status: "created" },
    },
  }),
  deleteOidc: operation({
    method: "DELETE",
    path: `${oidc}/{name}`,
    section: "Authentication",
    summary: "Delete an OIDC provider (its sessions end)",
    description:
      "Removes the provider and its client secret: its sign-in button goes, and the " +
      "browser sessions that signed in through it end. Local accounts are untouched. " +
      "Answers StatusResult `deleted`; 404 for an unknown name.",
    params: ProviderName,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404],
    examples: {
      params: { name: "corp-sso" },
      response: { status: "deleted" },
      errors: { 404: "no OIDC provider 'corp-sso'" },
    },
  }),
  getPasskeyPolicy: operation({
    method: "GET",
    path: "/api/v1/auth/providers/passkey",
    section: "Authentication",
    summary: "The current passkey policy",
    description:
      "The passkey (WebAuthn) policy: whether the login page offers passkey sign-in, " +
      "the relying-party id passkeys are bound to (null = the listener's hostname), " +
      "the user verification asked of the authenticator, and whether a verified " +
      "passkey stands in for the TOTP code. Readable by every role: the sign-in and " +
      "account pages follow it.",
    response: { description: "PasskeyPolicy", schema: PasskeyPolicy },
    examples: { response: { enabled: false, rpId: null, userVerification: "preferred", replacesTotp: false } },
  }),
  putPasskeyPolicy: operation({
    method: "PUT",
    path: "/api/v1/auth/providers/passkey",
    section: "Authentication",
    summary: "Replace the passkey policy",
    description:
      "A full replacement of the policy (every member given), answered with the policy " +
      "now in force. Passkeys registered before stay registered; while passkey sign-in " +
      "is disabled they are not offered at login.",
    body: PasskeyPolicy,
    response: { description: "PasskeyPolicy as stored", schema: PasskeyPolicy },
    examples: {
      body: { enabled: false, rpId: null, userVerification: "preferred", replacesTotp: false },
      response: { enabled: false, rpId: null, userVerification: "preferred", replacesTotp: false },
    },
  }),
};
