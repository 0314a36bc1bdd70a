/** Fleet: the appliances this one knows, read-only access to its peers, and one read of many of them at once. */
import { Encoded, inWorker, type Route } from "../http/route.ts";
import { routeMatcher } from "../http/matcher.ts";
import { problemBody, StatusError } from "../http/problem.ts";
import { fleet, type FanOutAnswer } from "../schemas/fleet.ts";
import { askPeer, normalisePeerPath, planRelay, relayToPeer, type Relayable, type RelayFacts } from "../fleet/proxy.ts";
import { peerAnswerText, resolvePeer, type PeerAnswer } from "../fleet/definition.ts";
import { redactUserinfo } from "../config/document.ts";
import type { ApplianceTarget } from "../fleet/context.ts";
import type { JsonText } from "../../simulator/row-texts.ts";

/**
 * The FP flag as the proxy's allowlist: a path is relayed when the GET route it reaches (the router's own matcher) is
 * marked `fp`.
 */
export const fpAllowlist =
  (table: () => Route[]): Relayable =>
  (apiPath) =>
    routeMatcher(table()).match("GET", apiPath)?.route.fp === true;

/** The fleet routes, given the whole table whose FP flags the proxy follows. */
export const fleetRoutes = (table: () => Route[]): Route[] => {
  const relayable = fpAllowlist(table);
  return [
    inWorker(fleet.appliances, async (ctx) => [
      { name: ctx.appliance.name, self: true, url: null },
      ...(await ctx.port.fleet.appliances()).map((p) => ({
        name: p.name,
        self: false,
        url: redactUserinfo(resolvePeer(ctx.appliance.env, p).url),
      })),
    ]),
    inWorker(fleet.read, async (ctx) => {
      // The raw, still-encoded path: decoding happens once, in normalisePeerPath.
      const rawPath = ctx.pathname.slice("/api/v1/fleet/".length).split("/").slice(1).join("/");
      // The addressed appliance is asked once (its peer and policy); a peer is another object, asked by the relay.
      const known = await ctx.port.fleet.read(ctx.params.appliance);
      const plan = await planRelay(ctx.appliance, known, ctx.params.appliance, rawPath, ctx.search, relayable);
      return relayToPeer(ctx.appliance, plan, ctx.headers.get("accept") ?? "*/*");
    }),
    inWorker(fleet.fanOut, async (ctx) => {
      const names = ctx.query.appliances;
      // The addressed appliance is asked once for every name; each peer is then asked as the proxy asks it, all at
      // once.
      const known = await ctx.port.fleet.fanOut(names);
      const query = ctx.query.path.indexOf("?");
      const rawPath = query < 0 ? ctx.query.path : ctx.query.path.slice(0, query);
      const search = query < 0 ? "" : ctx.query.path.slice(query);
      // A path refused for one is refused for all: the request's own answer, as the proxy's.
      normalisePeerPath(rawPath, relayable);
      const { timeoutMs } = ctx.query;
      const rows = await Promise.all(
        names.map((name, i) => {
          const row = fanOutRow(
            ctx.appliance,
            name,
            { configured: known.configured[i] ?? null, allowlist: known.allowlist },
            rawPath,
            search,
            relayable,
          );
          return timeoutMs === undefined ? row : withDeadline(row, timeoutMs, name, rawPath);
        }),
      );
      return new Encoded<FanOutAnswer[]>(`[${rows.join(",")}]` as JsonText<FanOutAnswer[]>);
    }),
  ];
};

/** A fan-out row's JSON text, its body JSON text already. */
const rowText = (name: string, status: number, body: string): string =>
  `{"appliance":${JSON.stringify(name)},"status":${status},"body":${body}}`;

/** A fan-out row holding the problem the proxy would have answered for `name`. */
const problemRow = (name: string, status: number, detail: string, rawPath: string): string =>
  rowText(
    name,
    status,
    JSON.stringify(problemBody(status, detail, `/api/v1/fleet/${encodeURIComponent(name)}/${rawPath}`)),
  );

/** A row, or a 504 row once `ms` have passed without it: the relay goes on to its own deadline, unwaited for. */
function withDeadline(row: Promise<string>, ms: number, name: string, rawPath: string): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(problemRow(name, 504, `'${name}' did not answer within ${ms} ms`, rawPath)), ms);
  });
  return Promise.race([row, late]).finally(() => clearTimeout(timer));
}

/** JSON content types, whose bodies a fan-out row carries as JSON rather than as text. */
const JSON_TYPES = /^application\/(problem\+)?json\s*(;|$)/i;

/**
 * One appliance's row of a fan-out read, as JSON text: what the proxy would have relayed (its status and body), or
 * the proxy's refusal as a problem document. A body produced in this isolate (a member served in-process) is our
 * own serialiser's JSON and goes in as it is; any other is parsed first, so a peer's text can never break the array.
 */
async function fanOutRow(
  appliance: ApplianceTarget,
  name: string,
  known: RelayFacts,
  rawPath: string,
  search: string,
  relayable: Relayable,
): Promise<string> {
  let answer: PeerAnswer;
  try {
    const plan = await planRelay(appliance, known, name, rawPath, search, relayable);
    answer = await askPeer(appliance, plan, "application/json");
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return problemRow(name, error.status, error.message, rawPath);
  }
  const { status, contentType, body } = answer;
  if (body === null || !contentType) {
    if (body instanceof ReadableStream) await body.cancel();
    return rowText(name, status, "null");
  }
  if (body instanceof ReadableStream && /^text\/event-stream/i.test(contentType)) {
    // A stream has no end to wait for: the proxy relays it, a fan-out cannot.
    await body.cancel();
    return problemRow(
      name,
      502,
      `peer '${name}' answered with an event stream, which the proxy relays but a fan-out read cannot`,
      rawPath,
    );
  }
  const text = await peerAnswerText(body);
  if (!text) return rowText(name, status, "null");
  if (!JSON_TYPES.test(contentType)) return rowText(name, status, JSON.stringify(text));
  if (typeof body === "string") return rowText(name, status, text);
  try {
    return rowText(name, status, JSON.stringify(JSON.parse(text)));
  } catch {
    return rowText(name, status, JSON.stringify(text));
  }
}
