/** The launcher's ready banner (`bngfleet start` prints it once every appliance answers, unless --json). */
import path from "node:path";
import type { Settings } from "./config.ts";
import { DEFAULT_ADMIN_PASSWORD } from "../src/auth/bootstrap.ts";
import { browserOrigin } from "../fleet-config/schema.ts";

/**
 * The ready banner: URLs, how to log in, where state lives, start-up time (`seconds`). Secrets are named by where
 * they come from, never shown: the password's variable, the token's file (`tokenFile`, when the launcher made it).
 */
export function banner(settings: Settings, seconds: number, tokenFile?: string): string {
  const { appliances, dataDir, http, fleet, portBase } = settings;
  const width = Math.max(...appliances.map((a) => a.name.length));
  // Each appliance at its own *.localhost name in a browser, so no appliance's session cookie reaches another
  // (fleet-config/schema.ts, browserOrigin); API clients at the address, which Node and Python can resolve.
  const browser = appliances.map((a, i) => browserOrigin(fleet, fleet.appliances[i]!, { portBase, http }));
  const column = Math.max(...browser.map((origin) => origin.length));
  const named = browser.some((origin, i) => origin !== appliances[i]!.origin);
  const lines = [
    "",
    `bngfleet: ${appliances.length} appliance${appliances.length === 1 ? "" : "s"} ready in ${seconds.toFixed(1)} s`,
    ...appliances.map((a, i) => {
      const api = browser[i] === a.origin ? "" : `  API clients: ${a.origin}`;
      return `  ${a.name.padEnd(width)}  ${browser[i]!.padEnd(column)}${api}`;
    }),
    "",
    `Open the web UI in a browser: ${browser[0]!}/`,
    ...(named
      ? [
          "Each appliance has a *.localhost name of its own, so its session cookie reaches no other appliance;",
          "Node and Python do not resolve those names: API clients use the addresses",
        ]
      : []),
    // The configured password is a secret: the banner says where it comes from, never what it is.
    settings.adminPassword !== undefined
      ? "Log in as admin with the password set in BNG_ADMIN_PASSWORD or --admin-password"
      : `Log in as admin, password ${DEFAULT_ADMIN_PASSWORD} (development default, to be ` +
        `changed at first sign-in; --admin-password or BNG_ADMIN_PASSWORD chooses one)`,
    "First login requires TOTP enrolment: add the secret it returns to an authenticator app,",
    "or compute codes with: oathtool --totp -b <secret>",
    tokenFile !== undefined
      ? `API token (super-user): in ${tokenFile}; send it as Authorization: Bearer <token>`
      : "API token (super-user): the one given (--bootstrap-token or BNG_BOOTSTRAP_TOKEN)",
    http
      ? "Plain HTTP (--http)"
      : `Self-signed certificates in ${path.join(dataDir, "certs")}: use curl -k, or trust the .crt`,
    `Data dir: ${dataDir}`,
    "Ctrl-C to stop.",
    "",
  ];
  return lines.join("\n");
}
