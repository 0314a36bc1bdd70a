/**
 * The OpenAPI 3.1 document, generated from the route table and the same zod
 * schemas the handlers validate with: version `v1`, the spec's 20 sections
 * as tags, the two security schemes, each operation's role floor
 * (`x-role-floor`) and fleet-proxy mark (`x-fleet-proxy`).
 */
import { z } from "zod";
import { floorOf } from "../auth/authorize.ts";
import { ProblemDetails } from "../schemas/common.ts";
import { statusTitle } from "../http/problem.ts";
import type { Route } from "../http/route.ts";
import { PROXIED_OPERATION, proxiedReads } from "./fleet-proxy.ts";
import { SECTIONS, TWIN_SECTIONS, UNCOUNTED_SECTIONS, type Section } from "../schemas/contract.ts";

type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

// Every tag carries a description: generated clients and reference viewers show it as the section's introduction.
const SECTION_NOTES: Record<Section, string> = {
  "Address pools":
    "The IPv4, IPv6 WAN and IPv6 prefix-delegation pools (configured under " +
    "`addressPools`) with their utilisation, and the allocations each holds; the " +
    "counts equal the sessions that hold them.",
  Alarms:
    "The active alarm set (most severe first), the operator clear, and a synthetic " +
    "alert through the push fan-out to the `alarms.sinks` receivers.",
  CGN:
    "Carrier-grade NAT: the bindings of private subscriber addresses to public " +
    "address and port blocks, the groups' utilisation, identification of the " +
    "subscriber behind a public address and port at an instant, and the CGN IP " +
    "groups and settings.",
  Captures:
    "Per-session packet captures mirrored to a collector; the destination must be on " +
    "the fleet's mirror allowlist when one is configured.",
  "GRE Circuits":
    "GRE tunnels to business customers in their VRFs, with optional BGP peering over " +
    "the tunnel; state, counters and configuration.",
  L2TP: "L2TP tunnels towards LNS peers (the appliance as LAC) and the sessions each carries.",
  Licensing:
    "The licence state (`Dev`, `Licensed`, `Grace`, `Lapsed`), its session meter and " +
    "band, online activation and offline leases. A lapsed licence freezes " +
    "configuration commits (409).",
  LocalSubscribers:
    "Subscribers authenticated locally rather than by RADIUS, with optional static " +
    "addresses, and the settings of local authentication.",
  Logs: "The appliance's log ring, filtered and paged, and a live Server-Sent Events stream of new entries.",
  Metrics:
    "The metrics history (per-port and appliance-wide series over time) as JSON; the " +
    "Prometheus scrape of the same numbers is `GET /api/v1/metrics` under System.",
  RADIUS: "The RADIUS servers with their state and request counters by result.",
  Sessions:
    "Subscriber sessions (IPoE, PPPoE, L2TP LAC): the filtered list, the summary by " +
    "encapsulation, port and state, one session's detail and live rates, and the " +
    "forced disconnect.",
  "Source VRF Rules":
    "Rules that steer a subscriber's traffic from its ingest VRF into a target VRF, " +
    "matched in order by the data plane and the session detail's `steering`.",
  System:
    "Health, status, hardware inventory, the interface table, this document and its " +
    "interactive reference, the Prometheus scrape, and the diagnostics (frame " +
    "injection, ping).",
  SystemUpgrade:
    "Staging a signed software package and applying it, with or without draining " +
    "subscribers first, and the upgrade's state and history.",
  VRFs:
    "Virtual routing and forwarding instances: route distinguishers, import and " +
    "export route targets, and their routing tables.",
  Authentication:
    "Roles are `read-only` < `operator` < `super-user` (the spec's `admin` is " +
    "`super-user` and is accepted as input). Lockout: 5 consecutive failures per " +
    "account and source IP lock that pair for 15 minutes (423 with Retry-After); " +
    "wrong username, password or code all answer 401 alike. Sessions: `bng_session` " +
    "cookie, 256 random bits, HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS, " +
    "ending after 30 minutes idle or 12 hours; enrolment tokens last 10 minutes.",
  Configuration:
    "Every configuration change (PUT /config, rollback, the certificate upload, and " +
    "the VRF and source-VRF-rule writes) runs one pipeline: exclusive candidate " +
    "edit, semantic validation, atomic persist with a history entry keeping the " +
    "previous document for rollback, then the hot-apply event. " +
    ("Secrets are never returned: they read `********`, and a write that sends " +
      "`********` leaves the secret as it is, except that a change moving an item's " +
      "destination (an alarm sink's `url` or `kind`, a peer's `url`, an IPsec peer's " +
      "`remoteAddress`) drops its secret unless the same change sets it again. URLs " +
      "read with any `user:password@` part as `********@`; sent back unchanged they " +
      "keep the stored URL. ") +
    ('A 422 lists every rejected value in `errors` as `{in: "config", pointer, ' +
      "detail}`, `pointer` being a JSON Pointer into the document as GET /config shows " +
      "it, with keyed-list items addressed by key: `#/fields/webUi.hostname`, " +
      "`#/lists/vrfs/cust-a/tableId`. ") +
    ("A fresh appliance's version 1 is seeded from its fleet definition " +
      "(webUi.listeners, webUi.hostname, webUi.peers, captures.mirrorAllowlist) and " +
      "its simulation profile (vrfs other than `default`, addressPools, " +
      "radius.servers, cgn.maxBindings, cgn.maxFlows); the rest takes the schema defaults. ") +
    ("Address pools are the keyed list `addressPools` (key: the pool name; children " +
      "`family` (`ipv4`, `ipv6-wan`, `ipv6-pd`; fixed once created), `vrf`, " +
      "`delegationLength`, `description`, `subnets` and `exclude`), hot-applied: GET " +
      "/address-pools follows at once. ") +
    ("`subnets` is list-mode in preference order, one element per subnet, `<prefix>` " +
      "or `<prefix> announce` for an announced one (e.g. `198.18.0.0/22 announce`). ") +
    ("Validation refuses prefixes that do not fit the family or the delegation " +
      "length, overlaps within a pool or with a pool of the same VRF, excludes outside " +
      "the pool's subnets, and a change that would refuse a local subscriber's static " +
      "address (an exclude over it), naming the subscriber. ") +
    ("A new subnet is offered from at once; a removed subnet (or pool) disconnects " +
      "the dynamic sessions holding blocks in it, cause `pool-reconfigured`, while a " +
      "static allocation is kept, not disconnected: its local subscriber keeps its " +
      "session and address, outside the pools until a subnet holding it returns. ") +
    ("A new exclude disconnects a session holding an excluded block and the block is " +
      "never offered again; a changed VRF or delegation length rebuilds the pool. ") +
    ("`radius.servers` is hot-applied too: GET /radius/servers follows at once, an " +
      "added server takes requests by weight, a removed one none (its alarms clear), a " +
      "kept one keeps its counters."),
  Routing:
    "Derived at the simulated instant from the configuration (`bgp.*`, `routing.*`, " +
    "`igp.*`, VRFs, address pools, GRE circuits, local subscribers), the live " +
    "sessions and the seed, so every number agrees across endpoints. " +
    ("The spec shows the three BGP reads; the IGP status, the VRF route tables and " +
      "the routing configuration operations are designed here. Mutations under " +
      "`/routing/config` are super-user and run the configuration pipeline. An " +
      "unreachable routing daemon is not an error: 200 with `reachable` false."),
  "Single sign-on":
    "What a sign-in page may show before anyone signs in: the enabled OIDC " +
    "providers' names and labels, one button each. Not in the spec's section table " +
    "(the spec shows no such listing); the providers' settings stay under " +
    "Authentication, super-user only.",
  IPsec:
    "Listed by the spec's endpoint tables but counted in none of its 20 sections. " +
    "Driven by `ipsec.enabled` and `ipsec.peers`, hot-applied; pre-shared keys are " +
    "never returned; an unreachable daemon answers 200 with `reachable` false and " +
    "every state `UNKNOWN`.",
  "Alert sinks":
    'The push sinks\' delivery, where the spec says "not shown": each sink of `alarms.sinks` queues ' +
    "its notifications and retries them through a receiver's outage; its state and counts are read here.",
  Fleet:
    "Mutations are always local; GET operations marked `x-fleet-proxy: true` are " +
    "readable on a peer through the fleet proxy.",
  "Fleet fan-out":
    "Twin only, not part of the appliance API: one fleet-proxy read of many " +
    "appliances in one request, for a fleet-wide view (the web UI's fleet overview " +
    "and subscriber search) that would otherwise be one request per appliance.",
  "Scenario control":
    "Twin only, not part of the appliance API: script faults reproducibly from a CI " +
    "pipeline (advance the clock, churn, RADIUS failures, pool and CGN fill, mass " +
    "disconnects, reseed). Super-user only; every action is logged.",
};

/**
 * The document's components. Responses use each schema's output form (a field
 * with a default is always answered, so required), named in `schemas`.
 * Requests use the input form (a field with a default may be left out), written
 * out in full in the operation's request body (or the parameter) with no reference into
 * `schemas`: a generator such as openapi-typescript marks a `schemas` property
 * that has a `default` as required (its default `defaultNonNullable`, meant for
 * answers) but not one under a request body or parameter, so a client built
 * from the document with default settings need not send what the server fills in.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** A response schema: named parts in `schemas`, referenced. */
  output(schema: z.ZodType): JsonSchema {
    const json = convert(schema, "output");
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    for (const [id, def] of Object.entries(defs)) this.schemas[id] = toComponents(def);
    return toComponents(json);
  }

  /**
   * A request body, written in place (Dredd's OpenAPI 3 reader does not follow a reference into
   * `components.requestBodies`, and sent nothing).
   */
  requestBody(
    schema: z.ZodType,
    required: boolean,
    octetStream?: { description: string },
    example?: unknown,
  ): JsonSchema {
    return {
      required,
      description: JSON_BODY,
      content: {
        // One media type for JSON: a tool reading the document makes a request (Dredd a transaction, a fuzzer a
        // case) per media type, and text/json is the same body under another name (docs/decisions.md).
        "application/json": { schema: input(schema), ...exampleOf(example) },
        ...(octetStream
          ? {
              "application/octet-stream": {
                schema: {
                  type: "string",
                  contentMediaType: "application/octet-stream",
                  description: octetStream.description,
                },
              },
            }
          : {}),
      },
    };
  }
}

const convert = (schema: z.ZodType, io: Io) => {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
};

const toComponents = (value: JsonSchema): JsonSchema =>
  JSON.parse(
    JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_, id: string) =>
      JSON.stringify(`#/components/schemas/${id}`),
    ),
  ) as JsonSchema;

/** A request schema's input form with every named part written in place (request schemas are not recursive). */
function input(schema: z.ZodType): JsonSchema {
  const json = convert(schema, "input");
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  const inline = (value: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => inline(v, seen));
    if (value === null || typeof value !== "object") return value;
    const { $ref, ...rest } = value as JsonSchema;
    if (typeof $ref === "string" && $ref.startsWith("#/$defs/")) {
      const id = $ref.slice("#/$defs/".length);
      if (seen.includes(id)) throw new Error(`request schema ${id} refers to itself`);
      return { ...(inline(defs[id], [...seen, id]) as JsonSchema), ...(inline(rest, seen) as JsonSchema) };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, seen)]));
  };
  return inline(json, []) as JsonSchema;
}

/**
 * A request body's note on media types: the spec accepts three spellings of JSON, the document declares one
 * (tools make a request per declared type, and `application/*+json` has no media type key).
 */
const JSON_BODY =
  "JSON, declared as `application/json`; the server takes the same body as `text/json` " +
  "or any `application/*+json` type too (spec)";

/**
 * An operation's path or query parameters. A parameter the example call sends carries that value as its
 * `example` (what Dredd and mock servers send); any other carries the value its schema names
 * (`.meta({ examples })`) as a named example, which shows how it is written without joining the example call.
 */
function parameters(schema: z.ZodType | undefined, where: "path" | "query", examples: Record<string, unknown> = {}) {
  if (!schema) return [];
  const json = input(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, examples: inJson, ...rest } = property as JsonSchema & { examples?: unknown[] };
    // zod leaves a codec's examples (a query boolean's) out of its input form: read from its metadata then.
    const own = inJson ?? (shape[name]?.meta()?.examples as unknown[] | undefined);
    const named = examples[name] === undefined && own?.length ? { examples: { [name]: { value: own[0] } } } : {};
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(examples[name] !== undefined ? { example: examples[name] } : named),
    };
  });
}

/** Statuses whose answer says when to try again (src/http/refusal.ts). */
const RETRY_AFTER = {
  "retry-after": {
    description: "seconds to wait before trying again (RFC 9110 §10.2.3)",
    schema: { type: "integer", minimum: 0, maximum: 86400 },
    example: 42,
  },
};

function problemResponse(description: string, example?: unknown, status?: number) {
  return {
    description,
    ...(status === 423 || status === 429 ? { headers: RETRY_AFTER } : {}),
    content: {
      "application/problem+json": {
        schema: { $ref: "#/components/schemas/ProblemDetails" },
        ...(example ? { example } : {}),
      },
    },
  };
}

/**
 * What each error status's example says when the operation's examples name no detail of their own: the server's own
 * wording.
 */
const ERROR_EXAMPLE: Record<number, string> = {
  401: "a bearer token or session cookie is required",
  403: "this operation needs the super-user role; the caller has read-only",
  404: "no such resource",
  409: "conflicts with the current state",
  412: 'the configuration is at version 7 ("v7"), not "v6": read it again',
  413: "request body exceeds 1048576 bytes",
  415: "request bodies must be application/json, text/json or application/*+json",
  422: "the change was refused: `errors` names every rejected value",
  423: "too many failed logins for this account from 192.0.2.10; try again after 2026-11-26T21:05:00.000Z",
  429: "too many login attempts from 192.0.2.10; retry in 42 s",
  502: "peer 'edge-2' is unreachable: connection refused",
  504: "peer 'edge-2' did not answer within 10000 ms",
};

/** A problem document as the server writes it (src/http/problem.ts) for an error of this operation. */
function problemExample(status: number, route: Route, instance: string) {
  const own = route.examples?.errors?.[status];
  if (status === 400) {
    // The field named is the first the example call sends, where the validator would name it.
    const [where, sent] = route.body
      ? ["body", route.examples?.body]
      : route.query
        ? ["query", route.examples?.query]
        : ["path", route.examples?.params];
    const field = Object.keys(sent && typeof sent === "object" ? sent : {})[0] ?? "name";
    const errors = [{ in: where, pointer: `#/${field}`, detail: "Invalid input" }];
    return {
      type: "about:blank",
      title: statusTitle(status),
      status,
      detail: own ?? `invalid request: ${where} ${field}: Invalid input`,
      instance,
      errors,
    };
  }
  return {
    type: "about:blank",
    title: statusTitle(status),
    status,
    detail: own ?? ERROR_EXAMPLE[status] ?? statusTitle(status),
    instance,
  };
}

/**
 * The example call's path, its parameters filled in from the examples (the request path a problem's `instance` names).
 */
function examplePath(route: Route): string {
  const params = route.examples?.params ?? {};
  return route.path.replace(/\{(\w+)\+?\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

const ERROR_TEXT: Record<number, string> = {
  400: "invalid input; `errors` names each rejected field",
  401: "no valid session cookie or bearer token",
  403:
    "role below the floor, a cookie-authenticated change without X-CSRF-Token, or a " +
    "session that must first change the development default password",
  404: "unknown resource",
  405: "method not allowed here (see Allow)",
  409: "conflicts with the current state (a lapsed licence also refuses configuration commits with 409)",
  412:
    "If-Match names another configuration version than the current one (given in the " +
    "detail and the ETag header): read it again; nothing was changed",
  413:
    "request body too large: over 1 MiB (the operation's own cap where smaller), " +
    "counted as it arrives, Content-Length or not",
  415: "request body is not JSON (nor application/octet-stream where the operation takes it)",
  422: "configuration validation rejected the change, or the licensing service refused a token or lease",
  423: "account locked out (from this source address, or everywhere); see Retry-After",
  429: "too many login attempts (from this source address, or for the whole appliance); see Retry-After",
  502: "a peer or identity provider could not be reached, or answered wrongly",
  503: "appliance unavailable",
  504: "peer did not answer in time",
};

/**
 * What a configuration write (one that can answer 412) takes and answers besides its body: the version it expects and
 * the one it left (src/http/config-version.ts).
 */
const IF_MATCH = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    "the configuration version the change expects, as the `ETag` of a configuration " +
    'read (`"v7"`); `*` matches any, a list any member, a weak tag never; absent: no ' +
    "precondition",
  schema: { type: "string" },
  // Named, so Dredd (which sends a parameter's `example`) makes its calls unconditionally, as their examples are
  // written.
  examples: {
    version: { summary: "the ETag a configuration read gave", value: '"v7"' },
    any: { summary: "whatever version is active", value: "*" },
  },
};
const ETAG = {
  etag: {
    description: 'the configuration version now active (`"v8"`), for the next write\'s `If-Match`',
    schema: { type: "string" },
  },
};

/** `getSystemStatus` for GET /api/v1/system/status. */
const operationIdOf = (route: Route) =>
  `${route.method.toLowerCase()}${route.path
    .replace(/^\/api\/v1/, "")
    .replace(/[{}+]/g, "")
    .replace(/[/.-]+(\w)/g, (_, c: string) => c.toUpperCase())}`;

const exampleOf = (value: unknown) => (value === undefined ? {} : { example: value });
// A text answer (a page, the scrape) differs at every read, and Dredd compares a text `example` byte for
// byte, while a named example is shown by reference viewers and mock servers and left alone by Dredd.
const textExampleOf = (value: unknown) =>
  value === undefined ? {} : { examples: { live: { summary: "as a fresh fleet answers", value } } };

function operation(route: Route, components: Components) {
  const floor = floorOf(route);
  const errors = new Set<number>(route.errors ?? []);
  if (route.params || route.query || route.body) errors.add(400);
  if (route.body) [413, 415].forEach((s) => errors.add(s));
  if (floor !== "anonymous") [401, 403].forEach((s) => errors.add(s));
  const status = route.response.status ?? 200;
  const operationId = operationIdOf(route);
  const versioned = errors.has(412);
  const examples = route.examples ?? {};
  const instance = examplePath(route);
  const json = (route.response.contentType ?? "application/json").includes("json");
  const headers =
    status >= 300 && status < 400
      ? { headers: { location: { description: "where the browser goes next", schema: { type: "string" } } } }
      : versioned
        ? { headers: ETAG }
        : {};
  const responses: Record<string, unknown> = {
    [String(status)]: {
      ...headers,
      description: route.response.description,
      ...(route.response.schema
        ? {
            content: {
              [route.response.contentType ?? "application/json"]: {
                schema: components.output(route.response.schema),
                ...(json ? exampleOf : textExampleOf)(examples.response),
              },
            },
          }
        : route.response.contentType
          ? { content: { [route.response.contentType]: textExampleOf(examples.response) } }
          : {}),
    },
  };
  for (const status of [...errors].sort()) {
    const text = route.errorText?.[status] ?? ERROR_TEXT[status] ?? "error";
    responses[String(status)] = problemResponse(text, problemExample(status, route, instance), status);
  }
  // Every error this API answers is a problem document, including statuses an
  // operation does not list (405 for another method, 404 for a hostname no
  // appliance answers to); a redirecting operation has no 2xx, and this is
  // what a client gets instead of the redirect.
  responses.default = problemResponse("any other error status");
  return {
    tags: [route.section],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    operationId,
    security:
      floor === "anonymous"
        ? []
        : route.credentials === "bearer"
          ? [{ bearerToken: [] }]
          : route.credentials === "session"
            ? [{ sessionCookie: [] }]
            : [{ bearerToken: [] }, { sessionCookie: [] }],
    "x-role-floor": floor,
    "x-fleet-proxy": route.fp === true,
    parameters: [
      ...parameters(route.params, "path", examples.params),
      ...parameters(route.query, "query", examples.query),
      ...(versioned ? [IF_MATCH] : []),
    ],
    ...(route.body
      ? { requestBody: components.requestBody(route.body, !route.bodyOptional, route.octetStream, examples.body) }
      : {}),
    responses,
  };
}

/** Builds the document for a route table. */
export function openApiDocument(routes: Route[]) {
  const components = new Components();
  components.output(ProblemDetails);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((r) => !r.hidden)) {
    const path = route.path.replace(/\{(\w+)\+\}/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, components);
  }
  for (const { twin, target } of proxiedReads(routes)) {
    (paths[twin.path] ??= {}).get = { ...operation(twin, components), [PROXIED_OPERATION]: operationIdOf(target) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Broadband Gateway Management API",
      version: "v1",
      description:
        "The management REST API of one subscriber-edge broadband gateway appliance, as " +
        "served by the bngfleet twin. All paths are relative to the listener root. " +
        "Errors are RFC 9457 problem details. " +
        ("Every answer carries `X-Content-Type-Options: nosniff` and, unless noted, " +
          "`Cache-Control: no-store`; over HTTPS `Strict-Transport-Security: " +
          "max-age=31536000`; HTML pages a strict `Content-Security-Policy`."),
      // The package is private and names no open licence; an SPDX LicenseRef
      // says so rather than claiming one (OpenAPI 3.1 wants a url or an identifier).
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // Relative to wherever the document was fetched from: the same document
    // serves the local fleet (https://127.0.0.1:8443) and a deployed hostname,
    // and every path already starts with its /api/v1 or /twin/v1 prefix.
    servers: [{ url: "/", description: "the appliance that served this document" }],
    tags: [...SECTIONS, ...UNCOUNTED_SECTIONS, ...TWIN_SECTIONS].map((name) => ({
      name,
      description: SECTION_NOTES[name],
    })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "a named API token, `bngtok_…`" },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "bng_session",
          description: "browser session from POST /api/v1/auth/login; changes also need X-CSRF-Token",
        },
      },
    },
  };
}
