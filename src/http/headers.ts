/**
 * Response headers every answer carries (OWASP ASVS 5.0 §3.4, §14.3):
 * `nosniff` so a browser never reads JSON or a relayed body as script or
 * HTML; `no-store` unless a route chose its own caching (only the reference
 * viewer's static files do), so an answer holding subscriber data, tokens or
 * a CSRF token stays out of shared and browser caches; HSTS where clients
 * come over HTTPS; and a strict CSP on HTML a route did not give one.
 */

/**
 * One year, as HSTS preload lists ask; no `includeSubDomains`: an appliance cannot speak for its parent domain's other
 * hosts.
 */
export const HSTS = "max-age=31536000";

/** HTML with no CSP of its own may run nothing, load nothing and be framed by nobody. */
export const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * An answer made with the security headers already in place: the final stage has nothing to add. A class of its
 * own rather than a WeakSet of answers: a WeakSet entry per answer cost every request a few per cent (its table
 * grows and is swept by the collector), while `instanceof` reads the prototype chain.
 */
class SecuredResponse extends Response {}

const isHtml = (contentType: string | undefined) => /^text\/html\b/i.test(contentType ?? "");

/**
 * Headers (in lower case) with the security headers added, as `secureHeaders` adds them to a response's (the local
 * listeners' own answers too).
 */
export function withSecurity(headers: Record<string, string>, secure: boolean): Record<string, string> {
  const all: Record<string, string> = { ...headers, "x-content-type-options": "nosniff" };
  all["cache-control"] ??= "no-store";
  if (secure) all["strict-transport-security"] = HSTS;
  if (isHtml(all["content-type"])) all["content-security-policy"] ??= STRICT_CSP;
  return all;
}

/**
 * Headers (in lower case) with the security headers added, as a Headers: for answers whose few headers repeat
 * (a relayed peer's, every JSON answer), made once and kept by the caller, since a Response copies a Headers it
 * is given natively, which costs less than reading a record's properties (and far less than an array of pairs).
 */
export const securedHeaders = (headers: Record<string, string>, secure: boolean): Headers =>
  new Headers(withSecurity(headers, secure));

/**
 * An answer made with headers `securedHeaders` made: the final stage has nothing to add (each later Headers call would
 * cross into the runtime again).
 */
export function answerWith(body: BodyInit | null, status: number, headers: Headers): Response {
  return new SecuredResponse(body, { status, headers });
}

/** A JSON answer's headers when its handler set none, made once per scheme. */
let jsonAnswerHeaders: [Headers, Headers] | undefined;
const jsonHeaders = (secure: boolean): Headers => {
  jsonAnswerHeaders ??= [
    securedHeaders({ "content-type": "application/json" }, false),
    securedHeaders({ "content-type": "application/json" }, true),
  ];
  return jsonAnswerHeaders[secure ? 1 : 0];
};

/** A JSON answer with no headers of its own (most of the API's). */
export function jsonAnswer(json: string, secure: boolean): Response {
  return answerWith(json, 200, jsonHeaders(secure));
}

/** The answer with the security headers added; a route's own `cache-control` and CSP stand. */
export function withSecurityHeaders(response: Response, secure: boolean): Response {
  if (response instanceof SecuredResponse) return response;
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
  if (isHtml(headers.get("content-type") ?? undefined) && !headers.has("content-security-policy")) {
    headers.set("content-security-policy", STRICT_CSP);
  }
}
