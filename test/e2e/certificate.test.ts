/** An uploaded web UI certificate is what the listener serves after the fleet restarts (the documented step). */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { selfSigned } from "../worker/certificates.ts";
import { fetchJson, launchFleet, type RunningFleet } from "./launcher.ts";

const PORT_BASE = 22443;
const TOKEN = "bngtok_" + "Cert".repeat(9);
const env = { BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: TOKEN };
let fleet: RunningFleet | undefined;

afterAll(async () => {
  await fleet?.stop();
});

/** The SHA-256 fingerprint of the certificate a listener presents. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on("error", reject);
  });
}

describe("uploaded web UI certificate", () => {
  it("is served by the listener after the fleet restarts", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-cert-"));
    fleet = await launchFleet({ ...env, BNG_FRESH: "1" }, [PORT_BASE], dataDir);
    const factory = await servedFingerprint(PORT_BASE);
    const uploaded = await selfSigned({ name: "edge-1.bng.localhost" });
    const response = await fetchJson(`https://127.0.0.1:${PORT_BASE}/api/v1/config/webui/certificate`, {
      insecure: true,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { certificatePem: uploaded.certificatePem, privateKeyPem: uploaded.privateKeyPem },
    });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ restartRequired: true });
    expect(await servedFingerprint(PORT_BASE)).toBe(factory);

    expect(await fleet.stop()).toBe(0);
    fleet = await launchFleet(env, [PORT_BASE], dataDir);
    expect(await servedFingerprint(PORT_BASE)).toBe(uploaded.fingerprint);
    expect(fleet.output()).toContain("edge-1 serves its uploaded certificate");
    // Two launches, each with a build, run inside this test: the hook budget, not the 30 s test default.
  }, 120_000);
});
