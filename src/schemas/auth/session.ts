/**
 * Authentication, the browser-session half, the wire contract: login, enrolment, logout, whoami and the caller's own
 * password.
 */
import { operation } from "../contract.ts";
import { StatusResult } from "../common.ts";
import { EnrolRequest, LoginRequest, LoginResponse, PasswordChange, Whoami } from "../auth.ts";

/** The section's operations. */
export const authSession = {
  login: operation({
    method: "POST",
    path: "/api/v1/auth/login",
    section: "Authentication",
    summary: "Log in with username, password and (when enrolled) a TOTP code",
    description:
      "The login state machine of the spec. Wrong username, wrong password and wrong " +
      "code all answer 401 with the same detail (no user enumeration). " +
      ("After 5 consecutive failures for one account from one source address, that pair " +
        "is locked out for 15 minutes and login answers 423 with Retry-After; ") +
      ("10 failures of one account across all sources lock the account everywhere for " +
        "30 s, doubling with each further failure up to 15 minutes (423, Retry-After). ") +
      "A failure count is forgotten 15 minutes after its last failure. " +
      ("A lock yields to one kind of login only, so that nobody can keep an account's " +
        "owner out by failing on purpose: the right password with a valid `totpCode` in " +
        "the same request ") +
      ("(while the account has fewer than 5 wrong codes counted). Such a login is " +
        "throttled and counted like any other, and if it fails it answers 423 as the " +
        "lock does. ") +
      ("Before any password is checked, logins are throttled: a burst of 10 per source " +
        "address then one every 6 s, and a burst of 20 for the whole appliance then 2 a second; ") +
      "beyond that login answers 429 with Retry-After. " +
      "The source address is `CF-Connecting-IP` when deployed, and the listener's peer address in the local fleet. " +
      ("On success the `bng_session` cookie is set (HttpOnly, SameSite=Strict, Path=/, " +
        "Secure over HTTPS); a session ends after 30 minutes idle or 12 hours in all. ") +
      ("**Forced password change:** when the password used is the published development " +
        "default (`bngfleet-admin`, which only the local fleet seeds), the reply is " +
        "still `success` but carries ") +
      ("`passwordChangeRequired: true`, and so does `GET /auth/whoami`: that session " +
        "may only call whoami, logout and `POST /auth/password` ") +
      ("(every other operation answers 403 saying so). The change ends every session of " +
        "the account; sign in again with the new password."),
    floor: "anonymous",
    body: LoginRequest,
    response: { description: "LoginResponse", schema: LoginResponse },
    errors: [401, 423, 429],
    examples: {
      body: { username: "admin", password: "bngfleet-admin" },
      response: {
        status: "totpEnrolmentRequired",
        enrolmentToken:
          "eyJhbGciOiJIUzI1NiJ9." +
          "eyJzdWIiOiJhZG1pbiIsImp0aSI6ImM3NDM2YThmNWEyN2QxZmU2N2Y5ZDBjYWUzMzI4ZDk1IiwiYXVkIjoiYm5nLWVucm9sIiwi" +
          "aWF0IjoxNzk1NzI1MzExLCJleHAiOjE3OTU3MjU5MTF9." +
          "a0nMuGrKCMcBcrnHOOq44Iwu7yBYL36pF3NNeBl4cCI",
        secret: "N2F3JBY3HOCUGA75F7MUL2YRTTEPYLIB",
        otpauthUri:
          "otpauth://totp/bngfleet%20edge-1:admin?secret=N2F3JBY3HOCUGA75F7MUL2YRTTEPYLIB&issuer=bngfleet%20edge-1",
      },
    },
  }),
  enrol: operation({
    method: "POST",
    path: "/api/v1/auth/enrol",
    section: "Authentication",
    summary: "Complete mandatory TOTP enrolment with the enrolment token and the first code",
    description:
      "Behaves as a successful login (including `passwordChangeRequired`). Enrolment " +
      "tokens are valid for 10 minutes; a wrong code, or a token a later login " +
      "superseded, counts towards the lockout.",
    floor: "anonymous",
    body: EnrolRequest,
    response: { description: "LoginResponse", schema: LoginResponse },
    errors: [401, 423],
    examples: {
      body: {
        enrolmentToken:
          "eyJhbGciOiJIUzI1NiJ9." +
          "eyJzdWIiOiJhZG1pbiIsImp0aSI6ImE1YTI1MzMyOTQ5YTgyMWM1MGQ0YjFmMzdlOTkxNWQ1IiwiYXVkIjoiYm5nLWVucm9sIiwi" +
          "aWF0IjoxNzk1NzI1MTU4LCJleHAiOjE3OTU3MjU3NTh9." +
          "uEqKE0AvZTw2SgSdbJlWu3eo0T4jYU7fkQdlIUeUs7Q",
        totpCode: "492039",
      },
      response: {
        status: "success",
        username: "admin",
        role: "super-user",
        csrfToken: "b7f3c1e9a2d4f6081c3e5a7b9d1f3a5c",
        passwordChangeRequired: true,
      },
    },
  }),
  logout: operation({
    method: "POST",
    path: "/api/v1/auth/logout",
    section: "Authentication",
    summary: "End the current browser session",
    description:
      "Ends the session server-side and clears the cookie. With a bearer token there " +
      "is no session, and nothing changes.",
    floor: "read-only",
    beforePasswordChange: true,
    response: { description: "StatusResult `loggedOut`", schema: StatusResult },
    examples: { response: { status: "loggedOut" } },
  }),
  whoami: operation({
    method: "GET",
    path: "/api/v1/auth/whoami",
    section: "Authentication",
    summary: "The caller: account or token, role, and the session's CSRF token",
    description:
      "`passwordChangeRequired` is true for a session signed in with the published " +
      "development default password: it must change it (POST /auth/password) before " +
      "any other operation.",
    floor: "read-only",
    beforePasswordChange: true,
    response: { description: "Whoami", schema: Whoami },
    examples: {
      response: {
        via: "token",
        username: null,
        role: "super-user",
        tokenName: "bootstrap",
        csrfToken: null,
        passwordChangeRequired: false,
        appliance: "edge-1",
      },
    },
  }),
  password: operation({
    method: "POST",
    path: "/api/v1/auth/password",
    section: "Authentication",
    summary: "Change the logged-in account's own password",
    description:
      "Needs the current password. Commits the account's `password` in `login.users` " +
      "(hashed). Every session of the account ends, this one included: log in again. " +
      ("The one change a session with `passwordChangeRequired` may make; the new " +
        "password may not be the development default (400 naming `newPassword`)."),
    floor: "read-only",
    beforePasswordChange: true,
    credentials: "session",
    body: PasswordChange,
    response: { description: "StatusResult `updated`", schema: StatusResult },
    errors: [401, 412, 423],
    examples: {
      body: { currentPassword: "bngfleet-admin", newPassword: "quiet-harbour-lantern-1947" },
      response: { status: "updated", username: "admin" },
    },
  }),
};
