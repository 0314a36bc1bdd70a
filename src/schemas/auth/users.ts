/**
 * Authentication, accounts, the wire contract: account management over `login.users`, each write a configuration
 * commit.
 */
import { operation } from "../contract.ts";
import { StatusResult, pageQuery } from "../common.ts";
import { PasswordSet, UserCreate, UserDeleteQuery, UserPage, UserRecord, UserUpdate, UsernameParams } from "../auth.ts";

const base = "/api/v1/auth/users";
const LAST_SUPER_USER =
  "The last super-user cannot be demoted or deleted: the configuration validation " +
  "refuses it (422, pointing at the account).";

/** The section's operations. */
export const users = {
  list: operation({
    method: "GET",
    path: base,
    section: "Authentication",
    summary: "List accounts",
    description:
      "The local accounts, paged: each with its role, TOTP enrolment (and whether the " +
      "next login must enrol), creation, password-change and last-login times, and its " +
      "lockouts (5 consecutive failures lock the account and source-IP pair for 15 " +
      "minutes). Password hashes and TOTP secrets are never returned.",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of accounts, by name", schema: UserPage },
    examples: {
      query: { offset: 0, limit: 10 },
      response: {
        total: 2,
        offset: 0,
        limit: 10,
        items: [
          {
            username: "admin",
            role: "super-user",
            totpEnrolled: false,
            enrolmentRequired: true,
            createdUtc: "2026-11-26T20:34:59.783Z",
            passwordChangedUtc: "2026-11-26T20:34:59.783Z",
            lastLoginUtc: null,
            lockouts: [{ sourceIp: "127.0.0.1", failures: 0, lockedUntilUtc: null }],
          },
          {
            username: "noc-alice",
            role: "operator",
            totpEnrolled: false,
            enrolmentRequired: true,
            createdUtc: "2026-11-26T20:35:12.000Z",
            passwordChangedUtc: "2026-11-26T20:35:12.000Z",
            lastLoginUtc: null,
            lockouts: [],
          },
        ],
      },
    },
  }),
  create: operation({
    method: "POST",
    path: base,
    section: "Authentication",
    summary: "Create an account; it must enrol TOTP at its first login",
    description:
      "Commits a `login.users` item; the password is hashed before it is stored. 409 when the account exists.",
    body: UserCreate,
    response: { description: "StatusResult `created`", schema: StatusResult },
    errors: [409, 412],
    examples: {
      body: { username: "noc-alice", role: "operator", password: "amber-quarry-violin-2231" },
      response: { status: "created", username: "noc-alice" },
      errors: { 409: "login.users 'noc-alice' already exists" },
    },
  }),
  get: operation({
    method: "GET",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "One account, with its lockouts",
    description:
      "The account as a row of the user list shows it, its lockouts included: each " +
      "source address with recent failures or a running lockout, and `*` for the " +
      "account-wide backoff. 404 for an unknown account.",
    floor: "super-user",
    params: UsernameParams,
    response: { description: "UserRecord", schema: UserRecord },
    errors: [404],
    examples: {
      params: { username: "admin" },
      response: {
        username: "admin",
        role: "super-user",
        totpEnrolled: false,
        enrolmentRequired: true,
        createdUtc: "2026-11-26T20:34:59.783Z",
        passwordChangedUtc: "2026-11-26T20:34:59.783Z",
        lastLoginUtc: null,
        lockouts: [{ sourceIp: "127.0.0.1", failures: 0, lockedUntilUtc: null }],
      },
      errors: { 404: "no user 'admin'" },
    },
  }),
  update: operation({
    method: "PATCH",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Change an account's role",
    description:
      `Commits the account's \`role\` in \`login.users\`; it takes effect on the ` +
      `account's open sessions at once. ${LAST_SUPER_USER} ` +
      ("API tokens the account created keep their own role unless `revokeTokens` is " +
        "true: then those whose role outranks the new one are revoked too ") +
      "(each logged as `auth.token.revoked`; `createdBy` in the token list names every token's creator).",
    params: UsernameParams,
    body: UserUpdate,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404, 412, 422],
    examples: {
      params: { username: "noc-alice" },
      body: { role: "read-only", revokeTokens: false },
      response: { status: "updated", username: "noc-alice" },
      errors: { 404: "no login.users item 'noc-alice'" },
    },
  }),
  remove: operation({
    method: "DELETE",
    path: `${base}/{username}`,
    section: "Authentication",
    summary: "Delete an account, end its sessions and revoke its tokens",
    description:
      `Deletes the account's \`login.users\` item. Its sessions end, its open log ` +
      `streams close, and every API token it created is revoked (each logged as ` +
      `\`auth.token.revoked\`; ` +
      (`\`createdBy\` in the token list names each one's creator), whatever ` +
        `\`revokeTokens\` says: a credential does not outlive its owner (ASVS 7.4.2). `) +
      `The same holds however the account goes (a configuration change set or rollback). ${LAST_SUPER_USER}`,
    params: UsernameParams,
    query: UserDeleteQuery,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404, 412, 422],
    examples: {
      params: { username: "noc-alice" },
      response: { status: "deleted", username: "noc-alice" },
      errors: { 404: "no login.users item 'noc-alice'" },
    },
  }),
  setPassword: operation({
    method: "PUT",
    path: `${base}/{username}/password`,
    section: "Authentication",
    summary: "Set an account's password (administrative reset); its sessions end",
    description: "Commits the account's `password` in `login.users`, hashed before it is stored.",
    params: UsernameParams,
    body: PasswordSet,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404, 412],
    examples: {
      params: { username: "noc-alice" },
      body: { password: "copper-meadow-signal-5580" },
      response: { status: "updated", username: "noc-alice" },
      errors: { 404: "no login.users item 'noc-alice'" },
    },
  }),
  resetTotp: operation({
    method: "POST",
    path: `${base}/{username}/totp/reset`,
    section: "Authentication",
    summary: "Forget an account's authenticator: it enrols again at its next login",
    description:
      "For an account whose authenticator is lost: its TOTP secret is deleted and its " +
      "open browser sessions end, so its next login answers `totpEnrolmentRequired` " +
      "and it enrols a new authenticator (spec: TOTP enrolment is mandatory). Audited; " +
      "404 for an unknown account.",
    params: UsernameParams,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404],
    examples: {
      params: { username: "noc-alice" },
      response: { status: "updated", username: "noc-alice" },
      errors: { 404: "no user 'noc-alice'" },
    },
  }),
  unlock: operation({
    method: "POST",
    path: `${base}/{username}/unlock`,
    section: "Authentication",
    summary: "Lift an account's lockouts from every source IP",
    description:
      "Ends every lockout of the account and forgets its failure counts, for every " +
      "source address and the account-wide backoff at once (spec: repeated failures " +
      "lock the account and source-IP pair out temporarily; login answers 423). " +
      "Audited; 404 for an unknown account.",
    params: UsernameParams,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [404],
    examples: {
      params: { username: "noc-alice" },
      response: { status: "updated", username: "noc-alice" },
      errors: { 404: "no user 'noc-alice'" },
    },
  }),
};
