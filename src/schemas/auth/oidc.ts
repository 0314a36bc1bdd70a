/**
 * Authentication, OIDC sign-in, the wire contract: the sign-in page's single sign-on choices, the start that redirects
 * to the provider, and the callback.
 */
import { z } from "zod";
import { operation } from "../contract.ts";
import { OidcSignInOptions, ProviderName } from "../auth.ts";

const base = "/api/v1/auth/oidc/{name}";
/** Where a signed-in browser lands by default: the bundled reference, the twin's web UI. */
export const DEFAULT_RETURN = "/api/v1/docs";

/** A path on this appliance (never another origin: no open redirect). */
const ReturnTo = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[\x21-\x7e]*$/, "a path on this appliance, starting with a single '/'")
  .optional()
  .meta({ description: `where the browser goes once signed in; default \`${DEFAULT_RETURN}\`` });

/** The section's operations (the choices count under Single sign-on). */
export const oidcSignIn = {
  choices: operation({
    method: "GET",
    path: "/api/v1/auth/oidc",
    section: "Single sign-on",
    summary: "The single sign-on choices of the sign-in page",
    description:
      "No credential: the enabled OIDC providers' `name` and `displayName`, by name, " +
      "so a sign-in page can offer one button per provider " +
      ("(each starts `GET /api/v1/auth/oidc/{name}/login`). Nothing else of a provider " +
        "is shown (issuer, client id, scopes and role map stay ") +
      "behind the super-user's `GET /api/v1/auth/providers/oidc`), as any login page shows its single sign-on buttons.",
    floor: "anonymous",
    response: { description: "OidcSignInOptions", schema: OidcSignInOptions },
    // 404: deployed, a hostname no appliance of the fleet answers to.
    errors: [404],
    examples: { response: { providers: [] } },
  }),
  start: operation({
    method: "GET",
    path: `${base}/login`,
    section: "Authentication",
    summary: "Start an OIDC sign-in: redirects the browser to the provider",
    description:
      "No credential. Answers 302 to the provider's authorization endpoint " +
      "(authorization code flow, PKCE S256, `state`, `nonce`) and sets the " +
      ("`bng_oidc` cookie (HttpOnly, SameSite=Lax, 10 minutes) binding the sign-in to " +
        "this browser. 404 for an unknown or disabled provider; ") +
      ("502 when the provider's discovery document cannot be read, does not match its " +
        "issuer or is not an allowed destination (`alarms.webhookAllowlist`); ") +
      "409 when its client secret was dropped by an issuer change. " +
      ("429 with `Retry-After` when the caller's address or the appliance has started " +
        "too many sign-ins (the login throttle: a start counts as a login attempt), ") +
      ("or too many sign-ins wait for their provider. The discovery document is read at " +
        "most once every 5 minutes per provider. ") +
      ("A browser (Accept: text/html) gets every refusal as an HTML page with the same " +
        "status, the detail and a link back to `/`."),
    floor: "anonymous",
    // A refusal is a page when the browser asks for HTML (its Accept header).
    params: ProviderName,
    query: z.object({ returnTo: ReturnTo }),
    response: { description: "redirect to the provider", status: 302 },
    errors: [404, 409, 429, 502],
    errorText: {
      429:
        "too many sign-in starts from this address or on this appliance, or too many " +
        "sign-ins waiting for their provider; see Retry-After",
    },
    examples: {
      params: { name: "corp-sso" },
      query: { returnTo: "/sessions" },
      errors: { 404: "no enabled OIDC provider 'corp-sso'" },
    },
  }),
  callback: operation({
    method: "GET",
    path: `${base}/callback`,
    section: "Authentication",
    summary: "The provider's redirect back: completes the sign-in and sets the session cookie",
    description:
      "No credential (see the login route): the one-time `state` must match a sign-in " +
      "this browser started (its `bng_oidc` cookie) within 10 minutes. " +
      ("The code is redeemed with the PKCE verifier (client_secret_basic); the ID token " +
        "must verify against the provider's keys with its issuer, the client id as ") +
      ("audience, and the sign-in's nonce. The `usernameClaim` names the identity as " +
        "`<user>@<provider>`; the first `roleMap` rule whose group is in the ") +
      ("`groupsClaim` gives the role. Answers 200 with the `bng_session` cookie " +
        "(SameSite=Strict) and a small HTML page (no script, strict CSP) that navigates " +
        "to `returnTo`: ") +
      ("the redirect chain began on the provider's site, so a browser would not send a " +
        "Strict cookie on a redirect at its end, while the page's own navigation is " +
        "same-site and lands signed in. ") +
      "The session's CSRF token comes from whoami. " +
      ("401 for a provider error (`error` parameter), a bad or reused state, or a " +
        "refused ID token; 403 when no role mapping matches (fails closed); ") +
      ("502 when the provider cannot be reached. A browser (Accept: text/html) gets a " +
        "refusal as an HTML page with the same status, the detail and a link back to `/`. ") +
      "Every refusal is logged (`auth.oidc.refused`).",
    floor: "anonymous",
    // A refusal is a page when the browser asks for HTML (its Accept header), and the binding cookie is read.
    params: ProviderName,
    query: z.object({
      code: z.string().min(1).max(4096).optional(),
      state: z.string().min(1).max(512).optional(),
      // What a provider that refused sends instead of code and state (RFC 6749 §4.1.2.1).
      error: z
        .string()
        .max(256)
        .optional()
        .meta({ examples: ["access_denied"] }),
      error_description: z
        .string()
        .max(1024)
        .optional()
        .meta({ examples: ["The user denied the request"] }),
    }),
    response: {
      description: "signed in: a page that navigates to `returnTo`",
      contentType: "text/html; charset=utf-8",
    },
    errors: [401, 403, 404, 409, 502],
    examples: {
      params: { name: "corp-sso" },
      query: { code: "SplxlOBeZQQYbYS6WxSbIA", state: "af0ifjsldkj" },
      response:
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Signed ' +
        'in</title><meta http-equiv="refresh" ' +
        'content="0;url=/sessions"></head><body><p>Signed in. <a ' +
        'href="/sessions">Continue</a></p></body></html>',
      errors: { 404: "no enabled OIDC provider 'corp-sso'" },
    },
  }),
};
