/**
 * `bngfleet scenario FILE --url URL --token T`: runs a scenario file against running appliances, as
 * POST /twin/v1/scenario/run would (the file is checked here first, naming every bad field). FILE may name a
 * shipped scenario (radius-outage for scenarios/radius-outage.json).
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { LaunchError, UsageError, scenarioPathOf } from "./config.ts";
import { loadScenarioFile } from "./scenario.ts";
import { parseCommand } from "./cli-args.ts";

export const SCENARIO_USAGE = `\
Usage: bngfleet scenario FILE --url URL [--url URL …] --token TOKEN [--insecure | --ca FILE]

Runs a scenario file (a timeline of faults and clock steps; docs/simulation.md) on each appliance named,
one after another, and prints where it left each. FILE may be the name of a shipped scenario:
bgp-flap-storm, licence-lapse, pool-cgn-exhaustion, radius-outage, soak-hour, upgrade-with-drain.

Options:
  --url URL       an appliance's origin, e.g. https://127.0.0.1:8443 (repeat for several)
  --token TOKEN   an API token of an operator or above (bngfleet start --json prints the fleet's)
  --insecure, -k  accept the appliance's certificate unchecked (the local fleet's are self-signed)
  --ca FILE       trust this CA or certificate (PEM), e.g. .bngfleet/data/certs/edge-1.crt`;

export async function scenarioCommand(args: string[]): Promise<number> {
  const { positionals, values } = parseCommand("scenario", {
    args,
    allowPositionals: true,
    options: {
      url: { type: "string", multiple: true },
      token: { type: "string" },
      insecure: { type: "boolean", short: "k" },
      ca: { type: "string" },
    },
  });
  const [file, extra] = positionals;
  if (file === undefined || extra !== undefined)
    throw new UsageError("bngfleet scenario takes one FILE (see bngfleet scenario --help)");
  if (!values.url?.length) throw new UsageError("bngfleet scenario needs --url (an appliance's origin)");
  if (!values.token) throw new UsageError("bngfleet scenario needs --token");
  const urls = values.url.map((text) => {
    try {
      const url = new URL(text);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http or https");
      return url.origin;
    } catch {
      throw new UsageError(
        `bngfleet scenario: --url must be an http or https origin such as https://127.0.0.1:8443, not '${text}'`,
      );
    }
  });
  const scenarioPath = scenarioPathOf(file);
  const scenario = await loadScenarioFile(scenarioPath, "bngfleet scenario");
  const ca =
    values.ca === undefined
      ? undefined
      : await readFile(values.ca, "utf8").catch((error: Error) => {
          throw new UsageError(`bngfleet scenario: cannot read --ca ${values.ca}: ${error.message}`);
        });
  const label = path.relative(process.cwd(), scenarioPath);
  for (const origin of urls) {
    const answer = await post(`${origin}/twin/v1/scenario/run`, values.token, JSON.stringify(scenario), {
      insecure: values.insecure === true,
      ca,
    });
    const body = JSON.parse(answer.text || "{}") as {
      detail?: string;
      steps?: number;
      state?: { simulatedTimeUtc?: string; sessions?: number };
    };
    if (answer.status !== 200)
      throw new LaunchError(`${origin}: scenario ${label} refused (${answer.status}): ${body.detail ?? answer.text}`);
    console.log(
      `${origin}: ran scenario ${label} (${body.steps} steps), ` +
        `now ${body.state?.simulatedTimeUtc} with ${body.state?.sessions} sessions`,
    );
  }
  return 0;
}

/**
 * One POST with a JSON body and a bearer token, over node's own client (fetch cannot take a CA or skip checks per
 * request).
 */
function post(
  url: string,
  token: string,
  body: string,
  tls: { insecure: boolean; ca: string | undefined },
): Promise<{ status: number; text: string }> {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
        ...(url.startsWith("https:") ? { rejectUnauthorized: !tls.insecure, ...(tls.ca ? { ca: tls.ca } : {}) } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", (error) => reject(new LaunchError(`${new URL(url).origin}: ${error.message}`)));
    request.end(body);
  });
}
