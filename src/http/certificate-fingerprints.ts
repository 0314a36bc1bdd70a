/**
 * What the local launcher's certificate watch (launcher/certificate-watch.ts)
 * polls every few seconds: the SHA-256 of the web UI certificate each
 * appliance of this process serves (null: the launcher's self-signed one), in
 * one request. The watch had asked every appliance through Miniflare's proxy
 * each time, one call per appliance at some 40 ms of the launcher's CPU on a
 * slow machine: most of an idle HTTPS fleet's CPU, and for a fleet of a
 * hundred more than the three seconds between polls. The pair itself is
 * still read through Miniflare, for an appliance whose fingerprint changed.
 * Not an API path: it answers only a GET bearing the watch's token (derived
 * from the fleet secret, which only the launcher and its processes hold),
 * as 404 to anyone else, and it never shows a key.
 */
import type { Env } from "../env.ts";
import { deploymentOf } from "../fleet/deployment.ts";
import { loadFleet } from "../fleet/definition.ts";
import { otherShard } from "../fleet/shards.ts";
import { sha256Hex } from "../trust/encoding.ts";
import { presentsToken } from "../trust/tokens.ts";
import { certificateWatchToken } from "../fleet/certificate-fingerprints.ts";

/**
 * Each appliance of this process → the SHA-256 (hex) of its configured web UI certificate's PEM, or null; null when the
 * request is not the watch's.
 */
export async function serveCertificateFingerprints(request: Request, env: Env): Promise<Response | null> {
  if (deploymentOf(env) !== "local" || !env.BNG_FLEET_SECRET || request.method !== "GET") return null;
  if (!presentsToken(request.headers.get("authorization"), await certificateWatchToken(env.BNG_FLEET_SECRET)))
    return null;
  const names = loadFleet(env)
    .appliances.map((a) => a.name)
    .filter((name) => otherShard(env, name) === null);
  const fingerprints = await Promise.all(
    names.map(async (name) => {
      const pair = await env.Appliance.getByName(name).webUiCertificate();
      return [name, pair === null ? null : await sha256Hex(pair.certificatePem)] as const;
    }),
  );
  return Response.json(Object.fromEntries(fingerprints));
}
