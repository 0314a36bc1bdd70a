/**
 * The two small HTML pages the browser legs of a sign-in need (the OIDC
 * login and callback are navigations, not API calls): a page that moves on
 * to where the person was going, and a page that says what went wrong with a
 * way back. Both run no script and load nothing (CSP `default-src 'none'`).
 */
import { STRICT_CSP } from "./headers.ts";
import { statusTitle } from "./problem.ts";
import type { RequestHeaders } from "./route.ts";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A navigation asks for HTML first (a browser's address bar, a link, a redirect); API clients do not. */
export const prefersHtml = (request: { headers: RequestHeaders }): boolean =>
  /\btext\/html\b/i.test(request.headers.get("accept") ?? "");

function page(status: number, title: string, body: string, headers: Headers, head = ""): Response {
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("content-security-policy", STRICT_CSP);
  headers.set("cache-control", "no-store");
  // The callback URL carries the authorization code: never pass it on as a Referer.
  headers.set("referrer-policy", "no-referrer");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>
<body>${body}</body></html>`;
  return new Response(html, { status, headers });
}

/**
 * 200 with a page that navigates to `location` (a path on this appliance).
 * The sign-in's redirect chain started on the provider's site, so a browser
 * does not send a SameSite=Strict cookie on a redirect at its end; a
 * navigation this page starts is same-site, so the first page after sign-in
 * is signed in, and the cookie stays Strict.
 */
export function continuePage(location: string, headers: Headers): Response {
  const target = escapeHtml(location);
  return page(
    200,
    "Signed in",
    `<p>Signed in. <a href="${target}">Continue</a></p>`,
    headers,
    `<meta http-equiv="refresh" content="0;url=${target}">`,
  );
}

/** The problem, as a page a person can act on: status, detail and a link back to the start. */
export function problemPage(status: number, detail: string, headers: Headers): Response {
  const title = `${status} ${statusTitle(status)}`;
  return page(
    status,
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p><p><a href="/">Back to the start page</a></p>`,
    headers,
  );
}
