/**
 * The API's self-description, the wire contract: the OpenAPI document and the interactive reference (listed under
 * System).
 */
import { z } from "zod";
import { operation } from "./contract.ts";

/** The reference page's static files (src/routes/reference.ts serves each). */
export const REFERENCE_ASSETS = ["swagger-ui-bundle.js", "swagger-ui.css", "init.js"] as const;
export type ReferenceAsset = (typeof REFERENCE_ASSETS)[number];

/** The section's operations. */
export const reference = {
  document: operation({
    method: "GET",
    path: "/api/v1/openapi/v1.json",
    section: "System",
    summary: "This API's OpenAPI 3.1 document",
    description:
      "The OpenAPI 3.1 document of this API (spec: the service describes itself; " +
      "authentication required), generated from the same schemas the server validates " +
      "with: request bodies in their input form, written in each operation, answers in " +
      "their output form under `components.schemas`, each operation's role floor as " +
      "`x-role-floor` and fleet-proxy mark as `x-fleet-proxy`.",
    response: { description: "the OpenAPI document", schema: z.object({ openapi: z.string() }).loose() },
    examples: {
      response: { openapi: "3.1.0", info: { title: "Broadband Gateway Management API", version: "v1" }, paths: {} },
    },
  }),
  page: operation({
    method: "GET",
    path: "/api/v1/docs",
    section: "System",
    summary: "Interactive API reference (HTML)",
    description:
      "Swagger UI over GET /api/v1/openapi/v1.json, served from the appliance itself " +
      "(no CDN, a strict Content-Security-Policy); authentication required, as for the document.",
    response: { description: "an HTML page", contentType: "text/html; charset=utf-8" },
    examples: {
      response:
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Broadband ' +
        'Gateway API reference</title>\n<link rel="stylesheet" ' +
        'href="/api/v1/docs/swagger-ui.css"></head>\n<body><div ' +
        'id="reference"></div>\n<script ' +
        'src="/api/v1/docs/swagger-ui-bundle.js"></script><script ' +
        'src="/api/v1/docs/init.js"></script></body></html>',
    },
  }),
  asset: operation({
    method: "GET",
    path: "/api/v1/docs/{asset}",
    section: "System",
    summary: "Static files of the interactive reference",
    hidden: true,
    params: z.object({ asset: z.enum(REFERENCE_ASSETS) }),
    response: { description: "a static file" },
    errors: [404],
  }),
};
