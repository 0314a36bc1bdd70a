/**
 * Response headers every answer carries (OWASP ASVS 5.0 §3.4, §14.3):
 * `nosniff` so a browser never reads JSON or a relayed body as script or
 * HTML; `no-store` unless a route chose its own caching (only the reference
 * viewer's static files do), so an answer holding subscriber data, tokens or
 * a CSRF token stays out of shared and browser caches; HSTS where clients
 * come over HTTPS; and a strict CSP on HTML a route did not give one.
 */

/** One year, as HSTS preload lists ask; no `includeSubDomains`: an appliance cannot speak for its parent domain's other hosts. */
export const HSTS = "max-age=31536000";

/** HTML with no CSP of its own may run nothing, load nothing and be framed by nobody. */
export const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The answer with the security headers added; a route's own `cache-control` and CSP stand. */
export function withSecurityHeaders(response: Response, secure: boolean): Response {
  try {
    // In place: the pipeline's own answers have mutable headers, and a copy of each would cost a Response per request.
    secureHeaders(response.headers, secure);
    return response;
  } catch (error) {
    // A response of fetch() or Response.redirect() has immutable headers: a copy is secured instead.
    if (!(error instanceof TypeError)) throw error;
    const copy = new Response(response.body, response);
    secureHeaders(copy.headers, secure);
    return copy;
  }
}

function secureHeaders(headers: Headers, secure: boolean): void {
  headers.set("x-content-type-options", "nosniff");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  if (secure) headers.set("strict-transport-security", HSTS);
  if (/^text\/html\b/i.test(headers.get("content-type") ?? "") && !headers.has("content-security-policy")) {
    headers.set("content-security-policy", STRICT_CSP);
  }
}
