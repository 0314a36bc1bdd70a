/**
 * The common-password list a new password is checked against (ASVS 5.0
 * V6.2.4: at least the 3,000 most common passwords that meet the length
 * rule). The list is zxcvbn-ts's `passwords-common` (@zxcvbn-ts/language-common,
 * MIT): 49,233 passwords in order of frequency, from leaked-password corpora,
 * lower-case; 17,950 of them are 8 characters or more, the ones the length rule
 * would let through. It ships inside the Worker (no breach API is asked at
 * request time), and is loaded at the first password check rather than at start-up:
 * unpacking it costs some milliseconds that most requests never need.
 */

/** The shortest password the account rules accept (NewPassword in accounts.ts): shorter entries could never match. */
const SHORTEST = 8;

let loading: Promise<ReadonlySet<string>> | undefined;
let loaded: ReadonlySet<string> | undefined;

/** The list's passwords of at least 8 characters, loaded once. */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => (loaded = new Set(dictionary["passwords-common"].filter((p) => p.length >= SHORTEST))),
  );
  return loading;
}

/** True when the password, in any letter case, is on the list (`Password1` is as guessable as `password1`). */
export const isCommonPassword = async (password: string): Promise<boolean> =>
  (await commonPasswords()).has(password.toLowerCase());

/**
 * The same answer, synchronously, once `commonPasswords()` has loaded the list
 * (false before): for the refusal's wording only. Whether a password is
 * accepted is decided by `isCommonPassword`, which always loads it.
 */
export const knownCommon = (password: string): boolean => loaded?.has(password.toLowerCase()) ?? false;
