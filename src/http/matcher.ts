/**
 * The one route matcher: which route of the table a method and a raw (still
 * percent-encoded) path reach, with its path parameters. It is itty-router's:
 * each route is registered on an itty `Router`, which compiles its template
 * and keeps the table's order, and a request reaches the first route of its
 * method whose pattern itty compiled matches (HEAD by the GET routes), as
 * itty's own `fetch` picks one. The router (./pipeline.ts), the fleet proxy's
 * in-process relay and its allowlist (a relayed path is relayed only when the
 * route it reaches is marked FP) all ask this one, so they cannot disagree.
 */
import { Router } from "itty-router";

/**
 * What the matcher reads of a route: its method and its path template (`/api/v1/sessions/{id}`, `{path+}` for the
 * rest).
 */
export interface Matchable {
  method: string;
  path: string;
}

/** A route found, with its path parameters as sent (still percent-encoded). */
export interface Match<R> {
  route: R;
  params: Record<string, string>;
}

export interface RouteMatcher<R> {
  /** The route a request reaches, or null when none of its method matches. */
  match(method: string, pathname: string): Match<R> | null;
  /** The methods a path answers to, for 405's `Allow` and OPTIONS (HEAD with GET, OPTIONS with any). */
  methodsAt(pathname: string): string[];
}

/** A path template in itty's words: `{id}` is `:id`, `{path+}` (the rest of the path) is `:path+`. */
export const ittyPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, ":$1+").replace(/\{(\w+)\}/g, ":$1");

/** An entry of itty's route table: method, the pattern it compiled, what was registered, the template. */
type IttyEntry = [method: string, pattern: RegExp, registered: unknown[], path: string];

/**
 * What a path must start with for itty's pattern of a template to match it: the template up to its first
 * parameter, when that part is plain (itty copies letters, digits, `-`, `_` and `/` into its pattern as they are,
 * and escapes `.`). Tested before the pattern, it spares a path most of the table's regular expressions. Empty
 * (no test) for anything else.
 */
function literalPrefix(path: string): string {
  const open = path.indexOf("{");
  // itty collapses repeated slashes and drops a trailing one before it compiles; a parameter's group holds the slash
  // before it.
  const literal = (open < 0 ? path : path.slice(0, open)).replace(/\/+(\/|$)/g, "$1").replace(/\/$/, "");
  return /^[\w\-./]*$/.test(literal) ? literal : "";
}

/** itty's compiled table of routes, in table order, each entry holding the route it was registered with. */
function ittyTable<R extends Matchable>(routes: readonly R[]): { route: R; pattern: RegExp; literal: string }[] {
  const itty = Router();
  const register = itty as unknown as Record<string, (path: string, route: R) => unknown>;
  for (const route of routes) register[route.method.toLowerCase()]!(ittyPath(route.path), route);
  return (itty.routes as unknown as IttyEntry[]).map(([, pattern, [route]]) => ({
    route: route as R,
    pattern,
    literal: literalPrefix((route as R).path),
  }));
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

/** The one matcher of each table, built once (the router and the proxy's allowlist share it). */
const built = new WeakMap<readonly Matchable[], RouteMatcher<Matchable>>();

/**
 * The matcher of a route table. A path without parameters (health, the
 * sessions summary, most reads) is found with one lookup; the rest are tried
 * in table order among their method's routes only, by the patterns itty
 * compiled once, here.
 */
export function routeMatcher<R extends Matchable>(routes: readonly R[]): RouteMatcher<R> {
  const known = built.get(routes);
  if (known) return known as RouteMatcher<R>;
  const compiled = ittyTable(routes);
  const byMethod = new Map<string, { route: R; pattern: RegExp; literal: string }[]>();
  for (const entry of compiled) byMethod.set(entry.route.method, [...(byMethod.get(entry.route.method) ?? []), entry]);
  // A parameterless route is a lookup only when no earlier route of its method also matches its path: itty would take
  // that one.
  const exact = new Map<string, R>();
  compiled.forEach(({ route }, i) => {
    if (route.path.includes("{")) return;
    const shadowed = compiled
      .slice(0, i)
      .some((earlier) => earlier.route.method === route.method && earlier.pattern.test(route.path));
    if (!shadowed) exact.set(`${route.method} ${route.path}`, route);
  });
  const matcher: RouteMatcher<R> = {
    match(method, pathname) {
      const wanted = method === "HEAD" ? "GET" : method;
      const route = exact.get(`${wanted} ${pathname}`);
      if (route !== undefined) return { route, params: NO_PARAMS };
      for (const entry of byMethod.get(wanted) ?? []) {
        if (!pathname.startsWith(entry.literal)) continue;
        const found = entry.pattern.exec(pathname);
        if (found) return { route: entry.route, params: found.groups ? { ...found.groups } : NO_PARAMS };
      }
      return null;
    },
    methodsAt(pathname) {
      const methods = new Set(
        compiled.filter(({ pattern }) => pattern.test(pathname)).map(({ route }) => route.method),
      );
      if (methods.has("GET")) methods.add("HEAD");
      if (methods.size > 0) methods.add("OPTIONS");
      return [...methods].sort();
    },
  };
  built.set(routes, matcher);
  return matcher;
}
