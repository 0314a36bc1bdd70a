/**
 * The account rules of `login.users`, the identity model the API shares with
 * the appliance CLI: who may be named, which passwords are accepted, and the
 * stored form of a password. The configuration registry, the account routes
 * and the identity store all read them from here.
 */
import { z } from "zod";
import { isPasswordHash } from "../trust/password.ts";
import { DEFAULT_ADMIN_PASSWORD } from "./bootstrap.ts";
import { isCommonPassword, knownCommon } from "./common-passwords.ts";

/** Account names are shared with the appliance CLI, so they follow POSIX user-name rules. */
export const Username = z
  .string()
  .regex(
    /^[a-z_][a-z0-9_.-]{0,31}$/,
    "1-32 characters: lower-case letters, digits, '_', '.', '-', not starting with a digit, '.' or '-'",
  );

/**
 * True for an identity an external provider vouched for (`<user>@<provider>`,
 * as OIDC sessions are named): a local account name cannot hold an '@', so
 * such a name is never one of `login.users`.
 */
export const isExternalIdentity = (username: string): boolean => username.includes("@");

/**
 * A new password: at least 8 characters (second factor is mandatory), at most 256, and never the published development
 * default.
 */
export const NewPassword = z
  .string()
  .min(8, "at least 8 characters")
  .max(256, "at most 256 characters")
  .refine(
    (password) => password !== DEFAULT_ADMIN_PASSWORD,
    "the development default password is published in the README (Logging in); choose another",
  );

const STORED_FORM =
  "a new password of 8-256 characters that is not a commonly used one (stored " +
  "hashed), or a stored hash `pbkdf2-sha256$<iterations>$<32 hex salt>$<64 hex hash>`";
const COMMON =
  "this password is one of the most commonly used ones (a list of leaked passwords " +
  "that attackers try first); choose another";

/**
 * What `login.users.<name>.password` holds: only ever a hash. A write may
 * carry a new password in clear; the configuration store hashes it before the
 * candidate is built (`hashNewPasswords`), so a clear password that is still a
 * clear password here is one the policy refused, and the refusal says why
 * (never repeating the password).
 */
export const StoredPassword = z.string().superRefine((value, ctx) => {
  if (isPasswordHash(value)) return;
  ctx.addIssue({ code: "custom", message: knownCommon(value) ? COMMON : STORED_FORM });
});

/**
 * True when `value` is a clear password the policy accepts (and so one to
 * hash): the length, not the development default, not a common password
 * (ASVS 5.0 V6.2.4; common-passwords.ts).
 */
export const isNewPassword = async (value: string): Promise<boolean> =>
  !isPasswordHash(value) && NewPassword.safeParse(value).success && !(await isCommonPassword(value));
