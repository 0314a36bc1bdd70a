/** An uploaded web UI certificate is what the listener serves, from the upload on and after the fleet restarts. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { selfSigned } from "../worker/certificates.ts";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "./launcher.ts";

const PORT_BASE = await freePortBase(1);
const TOKEN = "bngtok_" + "Cert".repeat(7) + "Ce" + "388ujy"; // well-formed: the checksum is CRC-32 in base62
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

/** Polls the listener until it presents `fingerprint` (the launcher reads the certificate every 3 s). */
async function servedSoon(port: number, fingerprint: string, withinMs = 15_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  let served = await servedFingerprint(port);
  while (served !== fingerprint && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    served = await servedFingerprint(port);
  }
  return served;
}

describe("uploaded web UI certificate", () => {
  it("is served by the listener without a restart, and still after one", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-cert-"));
    fleet = await launchFleet({ ...env, BNG_FRESH: "1" }, [PORT_BASE], dataDir);
    const factory = await servedFingerprint(PORT_BASE);
    const uploaded = await selfSigned({ name: "edge-1.bng.localhost" });
    expect(uploaded.fingerprint).not.toBe(factory);
    const response = await fetchJson(`https://127.0.0.1:${PORT_BASE}/api/v1/config/webui/certificate`, {
      insecure: true,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { certificatePem: uploaded.certificatePem, privateKeyPem: uploaded.privateKeyPem },
    });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ restartRequired: false });
    expect(await servedSoon(PORT_BASE, uploaded.fingerprint)).toBe(uploaded.fingerprint);
    expect(fleet.output()).toContain("edge-1 serves its new certificate");

    expect(await fleet.stop()).toBe(0);
    fleet = await launchFleet(env, [PORT_BASE], dataDir);
    expect(await servedFingerprint(PORT_BASE)).toBe(uploaded.fingerprint);
    expect(fleet.output()).toContain("edge-1 serves its configured certificate");
  }, 180_000);
});
