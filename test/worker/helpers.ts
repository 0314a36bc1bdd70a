/** Helpers of the data-plane tests: reads as the bootstrap super-user, scenario actions, and scrapes. */
import { expect } from "vitest";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { parseExposition, type Sample } from "../exposition.ts";

export const admin = bearer(BOOTSTRAP_TOKEN);

/** GETs a path as the bootstrap super-user, expecting 200. */
export async function get<T>(path: string, appliance = "edge-1"): Promise<T> {
  const response = await call(path, { headers: admin, appliance });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return response.json<T>();
}

/** Sends a JSON request as the bootstrap super-user (or with the given headers). */
export const send = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = admin,
  appliance = "edge-1",
) => call(path, { appliance, ...(body === undefined ? { method, headers } : json(method, body, headers)) });

/** Applies a scenario action, expecting success. */
export async function scenario(action: Record<string, unknown>, appliance = "edge-1"): Promise<void> {
  const response = await send("POST", "/twin/v1/scenario", action, admin, appliance);
  expect(response.status, `${JSON.stringify(action)}: ${response.status}`).toBe(200);
}

/** Advances the simulated clock. */
export const advance = (seconds: number, appliance = "edge-1") =>
  scenario({ action: "advance-clock", seconds }, appliance);

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The value of the one sample of `name` whose labels include `labels`. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name}${JSON.stringify(labels)}`);
  return found[0]!.value;
}

/** Scrapes an appliance's Prometheus endpoint with the bootstrap token. */
export async function scrape(appliance = "edge-1"): Promise<Sample[]> {
  const response = await call("/api/v1/metrics", { headers: admin, appliance });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}
