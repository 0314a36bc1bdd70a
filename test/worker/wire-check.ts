/**
 * Every successful answer the worker tests receive is parsed against its
 * route's response schema, so each test also checks the OpenAPI document
 * (which is generated from the same schemas).
 */
import type { z } from "zod";
import type { Route } from "../../src/http/route.ts";
import { routeMatcher } from "../../src/http/matcher.ts";
import { routes } from "../../src/routes/index.ts";

/**
 * The route the pipeline would run for a method and a raw (percent-encoded) path, as the router matches them: first in
 * the table wins.
 */
export function routeFor(method: string, pathname: string): Route | undefined {
  return routeMatcher(routes).match(method, pathname)?.route;
}

/** Pointers to members of `raw` that parsing dropped: fields the schema does not document. */
function undocumented(raw: unknown, parsed: unknown, pointer = "#"): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed))
    return raw.flatMap((item, i) => undocumented(item, parsed[i], `${pointer}/${i}`));
  if (raw === null || typeof raw !== "object" || parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return [];
  return Object.entries(raw).flatMap(([key, value]) =>
    key in parsed
      ? undocumented(value, (parsed as Record<string, unknown>)[key], `${pointer}/${key}`)
      : [`${pointer}/${key}`],
  );
}

/**
 * Throws when a successful JSON answer does not match its route's schema, or carries a member the schema leaves out.
 */
export async function expectDocumented(method: string, url: string, response: Response): Promise<void> {
  const route = routeFor(method, new URL(url).pathname);
  const schema = route?.response.schema as z.ZodType | undefined;
  const json = (route?.response.contentType ?? "application/json") === "application/json";
  const success = response.status === (route?.response.status ?? 200);
  if (!route || !schema || !json || !success || method === "HEAD") return;
  const where = `${method} ${route.path}`;
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("application/json"))
    throw new Error(`${where} is documented as JSON but answered ${contentType || "no content type"}`);
  const raw: unknown = await response.clone().json();
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `#/${i.path.join("/")}: ${i.message}`).join("; ");
    throw new Error(`${where} answered a body its documented schema refuses: ${issues}`);
  }
  const extra = undocumented(raw, result.data);
  if (extra.length > 0)
    throw new Error(`${where} answered members its documented schema does not list: ${extra.slice(0, 10).join(", ")}`);
}
