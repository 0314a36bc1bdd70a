/** Helpers for the configuration tests: the document, change sets, and the answers they get. */
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { expect } from "vitest";
import type { z } from "zod";
import type { ConfigCommitResult as Commit } from "../../src/schemas/commit.ts";
import type { page, ProblemDetails } from "../../src/schemas/common.ts";
import type { ConfigHistoryEntry, ConfigValues } from "../../src/schemas/config.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { LOCAL_WEBHOOK_ALLOWLIST } from "../../src/config/seed.ts";

export const admin = bearer(BOOTSTRAP_TOKEN);

export interface ChangeSet {
  fields?: Record<string, string | null>;
  listOps?: { listPath: string; key: string; delete?: boolean; fields?: Record<string, string | null> }[];
  comment?: string;
}
/** One rejected field of a problem's `errors`. */
export type FieldError = NonNullable<z.output<typeof ProblemDetails>["errors"]>[number];

/** GET /config. */
export async function getConfig(appliance = "edge-1"): Promise<ConfigValues> {
  const response = await call("/api/v1/config", { headers: admin, appliance });
  expect(response.status).toBe(200);
  return response.json<ConfigValues>();
}

/** PUT /config. */
export const putConfig = (change: ChangeSet, appliance = "edge-1") =>
  call("/api/v1/config", { appliance, ...json("PUT", change, admin) });

/** A PUT that must commit. */
export async function commit(change: ChangeSet, appliance = "edge-1"): Promise<Commit> {
  const response = await putConfig(change, appliance);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<Commit>();
}

/** The outbound allowlist the local fleet seeds (loopback): the tests' receivers, CAs and providers listen there. */
export const LOOPBACK_ALLOWED = { "alarms.webhookAllowlist": LOCAL_WEBHOOK_ALLOWLIST.join(",") };

/**
 * Lets the appliance reach loopback, as the local fleet does (the worker tests run as a deployment, whose allowlist
 * starts empty).
 */
export const allowLoopback = (appliance = "edge-1") => commit({ fields: LOOPBACK_ALLOWED }, appliance);

/** The `errors` of a 422 problem. */
export async function rejection(response: Response): Promise<FieldError[]> {
  expect(response.status, await response.clone().text()).toBe(422);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json<z.output<typeof ProblemDetails>>()).errors!;
}

/** The pointers of a 422's errors, sorted. */
export const pointersOf = (errors: FieldError[]) => errors.map((e) => e.pointer).sort();

/** A page of the history. */
export async function history(query = ""): Promise<z.output<ReturnType<typeof page<typeof ConfigHistoryEntry>>>> {
  const response = await call(`/api/v1/config/history${query}`, { headers: admin });
  expect(response.status).toBe(200);
  return response.json();
}

/** One keyed-list item of a ConfigValues document. */
export const itemOf = (config: ConfigValues, list: string, key: string) =>
  config.lists[list]?.find((item) => item.key === key);

/** The stored (unredacted) document, read inside the object. */
export function storedDocument(appliance = "edge-1"): Promise<{
  fields: Record<string, unknown>;
  lists: Record<string, { key: string; values: Record<string, unknown> }[]>;
}> {
  return runInDurableObject(env.Appliance.getByName(appliance), (_instance, state) => {
    const row = state.storage.sql.exec<{ document: string }>("SELECT document FROM config_active").one();
    return JSON.parse(row.document);
  });
}

/** The log ring's entries with a msgId. */
export function logEntries(msgId: string, appliance = "edge-1") {
  // The whole ring, a tail page at a time: a busy simulation soon pushes an entry out of the newest thousand.
  return runInDurableObject(env.Appliance.getByName(appliance), (instance) => {
    const found = [];
    for (let cursor = 0; ; ) {
      const page = Appliance.coreOf(instance).dataPlane().model.logs.tail({ count: 1000, sinceSeq: cursor }).entries;
      found.push(...page.filter((e) => e.msgId === msgId));
      if (page.length < 1000) return found;
      cursor = page[page.length - 1]!.seq;
    }
  });
}
