/**
 * The local launcher's certificate watch (launcher/certificate-watch.ts) asks
 * the Worker for every appliance's certificate fingerprint in one request
 * (served by src/http/certificate-fingerprints.ts): its path and credential,
 * shared by both sides. Node imports this file, so it holds nothing more.
 */
import { deriveToken } from "../trust/tokens.ts";

export const CERTIFICATE_FINGERPRINTS_PATH = "/_bngfleet/certificate-fingerprints";

/**
 * The watch's credential: derived from the fleet secret, which only the launcher and its processes hold, so none is
 * configured or stored.
 */
export const certificateWatchToken = (fleetSecret: string): Promise<string> =>
  deriveToken(fleetSecret, "certificate-watch");
