/**
 * The appliance's bundled web UI (spec: "The appliance's bundled web UI is
 * built on the same API"): a single-page app built from `ui/` by
 * scripts/build-ui.ts and bundled into the Worker as two text modules, so
 * every appliance serves it from its own origin, locally and deployed, with
 * no CDN. Every path outside `/api/`, `/twin/` and `/.well-known/` is the app (deep links
 * included); the app itself only calls the public `/api/v1`.
 */
import appScript from "../../ui/dist/app.js";
import appStyles from "../../ui/dist/app.css";

// Nothing but this origin: the UI works on a closed management network.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: " +
    "blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri " +
    "'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Broadband gateway</title><link rel="stylesheet" href="/ui/app.css"></head>
<body><div id="app"></div><script type="module" src="/ui/app.js"></script></body></html>`;

const FILES: Record<string, { body: string; type: string }> = {
  "/ui/app.js": { body: appScript, type: "text/javascript; charset=utf-8" },
  "/ui/app.css": { body: appStyles, type: "text/css; charset=utf-8" },
};

/** Whether a request is for the web UI rather than the API or the twin's control surface. */
export function isWebUiRequest(method: string, pathname: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  // The route table's own prefixes: the API, the twin's control surface and the ACME challenge answer.
  return (
    !pathname.startsWith("/api/") &&
    pathname !== "/api" &&
    !pathname.startsWith("/twin/") &&
    !pathname.startsWith("/.well-known/")
  );
}

/** The UI's files, or its page for any other path (the app routes on the client). */
export function webUiResponse(pathname: string): Response {
  const file = FILES[pathname];
  if (file)
    return new Response(file.body, {
      headers: { "content-type": file.type, "cache-control": "no-cache", ...SECURITY_HEADERS },
    });
  return new Response(PAGE, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...SECURITY_HEADERS },
  });
}
