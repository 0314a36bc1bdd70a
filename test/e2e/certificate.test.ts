/**
 * An uploaded web UI certificate is what the appliance's HTTPS port serves, from the upload on and after the
 * fleet restarts: behind the relay (the default) without a restart, on workerd's own sockets
 * (BNG_LISTENER=workerd) once the launcher has restarted their process.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { selfSigned } from "../worker/certificates.ts";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const TOKEN = "bngtok_" + "Cert".repeat(7) + "Ce" + "388ujy"; // well-formed: the checksum is CRC-32 in base62
const fleets: RunningFleet[] = [];

afterAll(async () => {
  await Promise.all(fleets.map((f) => f.stop()));
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

/**
 * Polls the port until it presents `fingerprint` (the launcher reads the certificate every 3 s; workerd's socket is
 * gone while it restarts).
 */
async function servedSoon(port: number, fingerprint: string, withinMs = 30_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  const read = () => servedFingerprint(port).catch((error: Error) => `unreachable: ${error.message}`);
  let served = await read();
  while (served !== fingerprint && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    served = await read();
  }
  return served;
}

describe.each(["relay", "workerd"] as const)("uploaded web UI certificate, %s serving the port", (listener) => {
  it("is served from the upload on, and still after the fleet restarts", async () => {
    // The shipped fleet: three appliances from the base, every port bound.
    const port = await freePortBase(3);
    const env = { BNG_PORT_BASE: String(port), BNG_BOOTSTRAP_TOKEN: TOKEN, BNG_LISTENER: listener };
    const dataDir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-cert-"));
    let fleet = await launchFleet({ ...env, BNG_FRESH: "1" }, [port], dataDir);
    fleets.push(fleet);
    const factory = await servedFingerprint(port);
    const uploaded = await selfSigned({ name: "edge-1.bng.localhost" });
    expect(uploaded.fingerprint).not.toBe(factory);
    const response = await fetchJson(`https://127.0.0.1:${port}/api/v1/config/webui/certificate`, {
      insecure: true,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { certificatePem: uploaded.certificatePem, privateKeyPem: uploaded.privateKeyPem },
    });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ restartRequired: false });
    expect(await servedSoon(port, uploaded.fingerprint)).toBe(uploaded.fingerprint);
    // Said once it is served: workerd's new process may take the first connection before the launcher says so.
    for (let i = 0; i < 40 && !fleet.output().includes("edge-1 serves its new certificate"); i++)
      await new Promise((r) => setTimeout(r, 250));
    expect(fleet.output()).toContain("edge-1 serves its new certificate");

    expect(await fleet.stop()).toBe(0);
    fleet = await launchFleet(env, [port], dataDir);
    fleets.push(fleet);
    expect(await servedFingerprint(port)).toBe(uploaded.fingerprint);
    expect(fleet.output()).toContain("edge-1 serves its configured certificate");

    // The path the watch polls (src/http/certificate-fingerprints.ts) is no API path: to a client, even a super-user,
    // it is
    // answered as a path that is not there (the web UI's page), and never with the fingerprints.
    const absent = await fetchJson(`https://127.0.0.1:${port}/_bngfleet/nothing-here`, { insecure: true });
    for (const headers of [
      { authorization: `Bearer ${TOKEN}` },
      { authorization: "Bearer not-the-watch-token" },
      {},
    ] as Record<string, string>[]) {
      const probe = await fetchJson(`https://127.0.0.1:${port}/_bngfleet/certificate-fingerprints`, {
        insecure: true,
        headers,
      });
      expect({ status: probe.status, type: probe.headers["content-type"] }).toEqual({
        status: absent.status,
        type: absent.headers["content-type"],
      });
      expect(probe.text).not.toContain("edge-1");
    }
  }, 180_000);
});
