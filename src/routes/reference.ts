/**
 * Self-description: the OpenAPI document and an interactive reference
 * (Swagger UI, bundled into the Worker: no CDN, works offline). Both need
 * authentication, as the spec says.
 */
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js";
import swaggerCss from "swagger-ui-dist/swagger-ui.css";
import { inWorker, type Route } from "../http/route.ts";
import { openApiDocument } from "../openapi/document.ts";
import { reference, type ReferenceAsset } from "../schemas/reference.ts";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Broadband Gateway API reference</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css"></head>
<body><div id="reference"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script><script src="/api/v1/docs/init.js"></script></body></html>`;

// "Try it out" from a logged-in browser: send the session's CSRF token on changes.
const INIT = `(async () => {
  const who = await fetch("/api/v1/auth/whoami").then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi/v1.json", dom_id: "#reference", deepLinking: true,
    requestInterceptor: (req) => { if (who.csrfToken) req.headers["X-CSRF-Token"] = who.csrfToken; return req; },
  });
})();`;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
    "base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

const ASSETS: Record<ReferenceAsset, { body: string; type: string }> = {
  "swagger-ui-bundle.js": { body: swaggerBundle, type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { body: swaggerCss, type: "text/css; charset=utf-8" },
  "init.js": { body: INIT, type: "text/javascript; charset=utf-8" },
};

let cachedDocument: string | undefined;

/**
 * The reference routes, given the whole table they describe: served by the Worker, their one call into the appliance
 * the caller's authorization.
 */
export function referenceRoutes(table: () => Route[]): Route[] {
  return [
    inWorker(reference.document, () => {
      cachedDocument ??= JSON.stringify(openApiDocument(table()));
      return new Response(cachedDocument, { headers: { "content-type": "application/json" } });
    }),
    inWorker(
      reference.page,
      () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS } }),
    ),
    inWorker(reference.asset, (ctx) => {
      const asset = ASSETS[ctx.params.asset];
      return new Response(asset.body, {
        headers: { "content-type": asset.type, "cache-control": "private, max-age=3600", ...SECURITY_HEADERS },
      });
    }),
  ];
}
