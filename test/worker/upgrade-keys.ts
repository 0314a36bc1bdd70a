/**
 * Ed25519 key pairs for the upgrade tests (made with `openssl genpkey -algorithm ed25519`; test keys, public
 * knowledge): the worker project's BNG_UPGRADE_PUBLIC_KEY is the vendor's (vitest.config.ts), packages signed
 * with VENDOR_SIGNING_KEY stage, with OTHER_SIGNING_KEY they do not.
 */
export const VENDOR_PUBLIC_KEY =
  "-----BEGIN PUBLIC " +
  "KEY-----\nMCowBQYDK2VwAyEAtsAEvT6irLOJ/5A6PybApnOw5iYAt7wO9SlemRL+TaA=\n-----END " +
  "PUBLIC KEY-----\n";
export const VENDOR_SIGNING_KEY =
  "-----BEGIN PRIVATE " +
  "KEY-----\nMC4CAQAwBQYDK2VwBCIEIE4eTAV3QSwzgMT1c1lB5duZDidMt7U3jFUMXvWck5+f\n-----END " +
  "PRIVATE KEY-----\n";
export const OTHER_SIGNING_KEY =
  "-----BEGIN PRIVATE " +
  "KEY-----\nMC4CAQAwBQYDK2VwBCIEIIYxBSGXMr/hiRgArJ2T8p3IpYt6z1DVTto0qdHQnnqW\n-----END " +
  "PRIVATE KEY-----\n";
