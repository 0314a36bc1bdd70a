/** Schemas of the Authentication section: the single source of its validation, types and OpenAPI components. */
import { z } from "zod";
import { ROLES, RoleSchema } from "../auth/roles.ts";
import { DateTime, page, queryBoolean } from "./common.ts";
import { NewPassword, Username } from "../auth/accounts.ts";
import { isAllowedIssuer } from "../trust/oidc.ts";

const Role = z.enum(ROLES);

export const LoginRequest = z
  .object({
    username: z.string().min(1).max(64),
    password: z.string().min(1).max(1024),
    totpCode: z.string().nullable().optional().meta({ description: "current 6-digit code; omit on the first attempt" }),
    passkey: z
      .looseObject({ id: z.string().max(1024), type: z.literal("public-key"), response: z.looseObject({}) })
      .nullable()
      .optional()
      .meta({
        description:
          "in place of `totpCode` where the passkey policy allows: the WebAuthn " +
          "AuthenticationResponseJSON answering the `passkeyOptions` of the " +
          "`totpCodeRequired` reply",
      }),
  })
  .meta({ id: "LoginRequest" });

export const EnrolRequest = z
  .object({ enrolmentToken: z.string().min(1).max(4096), totpCode: z.string() })
  .meta({ id: "EnrolRequest" });

export const LoginResponse = z
  .object({
    status: z.enum(["success", "totpCodeRequired", "totpEnrolmentRequired"]),
    username: z.string().nullable().optional(),
    role: Role.nullable().optional().meta({ description: "effective role; the spec's `admin` is `super-user`" }),
    csrfToken: z.string().nullable().optional(),
    enrolmentToken: z.string().nullable().optional().meta({ description: "valid for 10 minutes" }),
    secret: z.string().nullable().optional().meta({ description: "Base32 TOTP secret (SHA-1, 6 digits, 30 s)" }),
    otpauthUri: z.string().nullable().optional(),
    passwordChangeRequired: z
      .boolean()
      .optional()
      .meta({
        description:
          "with `success`: true when the password used is the published development " +
          "default; the session may only change it (POST /auth/password), log out and call " +
          "whoami. Absent otherwise.",
      }),
    passkeyOptions: z
      .object({
        challenge: z.string(),
        timeout: z.number().optional(),
        rpId: z.string().optional(),
        allowCredentials: z
          .array(
            z.object({ id: z.string(), type: z.literal("public-key"), transports: z.array(z.string()).optional() }),
          )
          .optional(),
        userVerification: z.string().optional(),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "with `totpCodeRequired`, when the passkey policy lets a passkey replace the " +
          "code and the account has one: PublicKeyCredentialRequestOptionsJSON for " +
          "navigator.credentials.get(); valid 5 minutes",
      }),
  })
  .meta({ id: "LoginResponse" });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const Whoami = z
  .object({
    via: z.enum(["session", "token"]),
    username: z
      .string()
      .nullable()
      .meta({ description: "the account (sessions) or the account that created the token" }),
    role: Role,
    tokenName: z.string().nullable(),
    csrfToken: z
      .string()
      .nullable()
      .meta({ description: "send as X-CSRF-Token on cookie-authenticated changes; null for tokens" }),
    passwordChangeRequired: z.boolean().meta({
      description:
        "true for a session signed in with the published development default password: " +
        "until it changes it with POST /auth/password, every operation but whoami, " +
        "logout and that one answers 403",
    }),
    appliance: z.string(),
  })
  .meta({ id: "Whoami" });

export const TokenCreate = z
  .object({
    name: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9 ._:@-]{0,63}$/,
        "1-64 characters: letters, digits, space, '.', '_', ':', '@', '-'",
      ),
    role: RoleSchema,
    expiresUtc: DateTime.nullable()
      .optional()
      .meta({ description: "when the token stops working; null or absent = never" }),
  })
  .meta({ id: "TokenCreate" });

export const TokenRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    role: Role,
    prefix: z
      .string()
      .meta({ description: "the first characters of the plaintext, to recognise the token; not a secret" }),
    createdUtc: DateTime,
    createdBy: z.string(),
    lastUsedUtc: DateTime.nullable().meta({
      description: "updated at most once a minute; shown at once, stored with the appliance's next tick (within 10 s)",
    }),
    expiresUtc: DateTime.nullable(),
    source: z.enum(["api", "config"]).meta({
      description:
        "`config`: provisioned from the fleet configuration (bootstrap and peer tokens); " +
        "not revocable through the API",
    }),
  })
  .meta({ id: "TokenRecord" });
export type TokenRecord = z.infer<typeof TokenRecord>;

export const TokenCreated = TokenRecord.extend({
  token: z.string().meta({ description: "the plaintext `bngtok_…`; shown this once and never again" }),
}).meta({ id: "TokenCreated" });
export type TokenCreated = z.infer<typeof TokenCreated>;

export const TokenPage = page(TokenRecord, "TokenPage");

export const BrowserSessionRecord = z
  .object({
    id: z.string().meta({
      description: "the session's handle: the first 16 hex digits of its cookie's SHA-256 (not usable as a cookie)",
    }),
    username: z.string(),
    role: Role.meta({ description: "the account's role now (a role change reaches open sessions at once)" }),
    sourceIp: z.string().meta({ description: "the address the session logged in from" }),
    createdUtc: DateTime,
    lastSeenUtc: DateTime.meta({ description: "updated at most every 30 seconds" }),
    expiresUtc: DateTime.meta({ description: "when it ends unless used: 30 minutes idle, 12 hours in all" }),
    current: z.boolean().meta({ description: "the session making this request" }),
  })
  .meta({ id: "BrowserSessionRecord" });
export type BrowserSessionRecord = z.infer<typeof BrowserSessionRecord>;

export const PasskeyRecord = z
  .object({
    id: z.string().meta({ description: "the credential id (base64url)" }),
    username: z.string(),
    name: z.string().meta({ description: "the account's label for it, e.g. `YubiKey 5C`" }),
    transports: z
      .array(z.string())
      .meta({ description: "how the authenticator is reached, as it reported (usb, nfc, ble, internal, hybrid)" }),
    createdUtc: DateTime,
    lastUsedUtc: DateTime.nullable(),
  })
  .meta({ id: "PasskeyRecord" });
export type PasskeyRecord = z.infer<typeof PasskeyRecord>;

export const Lockout = z.object({
  sourceIp: z
    .string()
    .meta({ description: "the source address, or `*` for the account-wide lock across all sources (backoff)" }),
  failures: z.int(),
  lockedUntilUtc: DateTime.nullable(),
});

export const UserRecord = z
  .object({
    username: z.string(),
    role: Role,
    totpEnrolled: z.boolean(),
    enrolmentRequired: z.boolean().meta({ description: "the next login must enrol a TOTP authenticator" }),
    createdUtc: DateTime,
    passwordChangedUtc: DateTime,
    lastLoginUtc: DateTime.nullable(),
    lockouts: z.array(Lockout).meta({ description: "account and source-IP pairs with recent failures or a lockout" }),
  })
  .meta({ id: "UserRecord" });
export type UserRecord = z.infer<typeof UserRecord>;

export const UserPage = page(UserRecord, "UserPage");
export const UserCreate = z
  .object({ username: Username, role: RoleSchema, password: NewPassword })
  .meta({ id: "UserCreate" });
export const UserUpdate = z
  .object({
    role: RoleSchema,
    revokeTokens: z.boolean().default(false).meta({
      description: "true: also revoke the API tokens this account created whose role outranks the new one (a demotion)",
    }),
  })
  .meta({ id: "UserUpdate" });
export const UserDeleteQuery = z.object({
  revokeTokens: queryBoolean()
    .default(false)
    .meta({
      description:
        "accepted for compatibility and no longer needed: a deleted account's API tokens are revoked in any case, " +
        "`false` included",
      examples: [true],
    }),
});
export const PasswordSet = z.object({ password: NewPassword }).meta({ id: "PasswordSet" });
/**
 * Proof that the person at a logged-in session is the account's owner: the current password or a fresh TOTP code, one
 * of them.
 */
export const Reauthentication = z
  .object({
    currentPassword: z.string().min(1).max(1024).optional().meta({ description: "the account's current password" }),
    totpCode: z
      .string()
      .regex(/^\d{6}$/, "6 digits")
      .optional()
      .meta({ description: "a current TOTP code not used before" }),
  })
  .superRefine((value, ctx) => {
    if ((value.currentPassword === undefined) === (value.totpCode === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["currentPassword"],
        message: "give exactly one of currentPassword and totpCode",
      });
    }
  })
  .meta({ id: "Reauthentication" });

export const PasswordChange = z
  .object({ currentPassword: z.string().min(1).max(1024), newPassword: NewPassword })
  .meta({ id: "PasswordChange" });
export const UsernameParams = z.object({ username: z.string().min(1).max(64) });

/**
 * The spec shows roleMap both as an array of AuthRoleRule and, in its sample
 * payload, as an object mapping group name to role; both are accepted and
 * stored as rules. No matching rule means access is refused (fail closed).
 */
export const AuthRoleRule = z
  .object({ group: z.string().min(1).max(256).meta({ description: "value of the groups claim" }), role: RoleSchema })
  .meta({ id: "AuthRoleRule" });
const RoleMap = z
  .union([
    z.array(AuthRoleRule),
    z
      .record(z.string().min(1).max(256), RoleSchema)
      .transform((map) => Object.entries(map).map(([group, role]) => ({ group, role }))),
  ])
  .meta({ description: "group/claim to role rules, first match wins; an object `{group: role}` is accepted too" });

const OidcFields = {
  enabled: z.boolean(),
  displayName: z.string().min(1).max(64),
  issuer: z
    .url()
    .refine(isAllowedIssuer, "an https URL (http only for a provider on this machine's loopback, e.g. a lab IdP)")
    .meta({
      description: "discovery document at `{issuer}/.well-known/openid-configuration`; https (http only on loopback)",
    }),
  clientId: z.string().min(1).max(256),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/))
    .default([])
    .transform((s) => [...new Set(["openid", ...s])])
    .meta({ description: "`openid` is always included" }),
  usernameClaim: z.string().min(1).max(128).default("preferred_username"),
  groupsClaim: z.string().min(1).max(128).default("groups"),
  fetchUserInfo: z.boolean().default(false),
  redirectUri: z
    .url()
    .nullable()
    .optional()
    .meta({ description: "explicit redirect_uri; otherwise derived from webUi.hostname" }),
  roleMap: RoleMap.default([]),
};

export const OidcProviderWrite = z
  .object({
    name: z.string().optional().meta({ description: "ignored: the name in the URL wins" }),
    ...OidcFields,
    clientSecret: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .meta({
        description:
          "write-only; required when creating. Omitted or `********` (the placeholder a " +
          "read-modify-write client sends back) keeps the stored one, " +
          ("except when `issuer` changes: then the stored secret is dropped " +
            "(`clientSecretSet` false, sign-in answers 409) unless this write sets a new one"),
        writeOnly: true,
      }),
  })
  .meta({ id: "OidcProvider" });
export type OidcProviderWrite = z.infer<typeof OidcProviderWrite>;

/**
 * What the sign-in page may show of an enabled provider before anyone signs in: its name and label, nothing of its
 * settings.
 */
export const OidcSignInOptions = z
  .object({
    providers: z
      .array(z.object({ name: z.string(), displayName: z.string() }).meta({ id: "OidcSignInOption" }))
      .meta({ description: "the enabled providers, by name" }),
  })
  .meta({ id: "OidcSignInOptions" });

export const OidcProviderRecord = z
  .object({
    name: z.string(),
    enabled: z.boolean(),
    displayName: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    usernameClaim: z.string(),
    groupsClaim: z.string(),
    fetchUserInfo: z.boolean(),
    redirectUri: z.string().nullable(),
    roleMap: z.array(z.object({ group: z.string(), role: z.enum(ROLES) })),
    clientSecretSet: z.boolean().meta({ description: "the secret itself is write-only and never returned" }),
    callbackPath: z.string(),
  })
  .meta({ id: "OidcProviderRecord" });
export type OidcProviderRecord = z.infer<typeof OidcProviderRecord>;

export const ProviderName = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "1-32 characters: lower-case letters, digits, '-'"),
});

export const PasskeyPolicy = z
  .object({
    enabled: z.boolean().meta({ description: "offer passkey (WebAuthn) sign-in on the login page" }),
    rpId: z
      .string()
      .regex(/^[a-z0-9.-]+$/)
      .nullable()
      .meta({ description: "relying-party id; null = the listener's hostname" }),
    userVerification: z.enum(["required", "preferred", "discouraged"]),
    replacesTotp: z
      .boolean()
      .meta({ description: "a verified passkey satisfies the second factor in place of a TOTP code" }),
  })
  .meta({ id: "PasskeyPolicy" });
export type PasskeyPolicy = z.infer<typeof PasskeyPolicy>;
