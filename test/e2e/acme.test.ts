/**
 * ACME end to end against Pebble (Debian `pebble`, Let's Encrypt's test CA),
 * everything on loopback with ephemeral ports: the operator enables ACME
 * through the API, Pebble validates HTTP-01 by fetching the challenge from
 * the appliance's listener port, and the listener then serves the
 * certificate Pebble issued, chained to Pebble's root, without a restart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect, type PeerCertificate } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSigned } from "../worker/certificates.ts";
import { fetchJson, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { newToken } from "../../src/trust/tokens.ts";
import { makeTestCa } from "./test-ca.ts";

const TOKEN = newToken();
const auth = { authorization: `Bearer ${TOKEN}` };
let fleet: RunningFleet | undefined;
let pebble: ChildProcess | undefined;
let pebbleOutput = "";
let dir = "";
/** The private CA Pebble's own HTTPS API is served under (the appliance trusts it through NODE_EXTRA_CA_CERTS). */
let apiCa = "";
const ports = { fleet: 0, pebble: 0, management: 0, tlsAlpn: 0 };
/** Pebble's root (made at its start) and the first certificate it issued to the appliance. */
let root = "";
let firstIssued = "";

/** A port free right now on loopback (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The certificate a listener presents, verified against `ca` for the name 127.0.0.1. */
function servedCertificate(port: number, ca: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ca, rejectUnauthorized: true }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on("error", reject);
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, withinMs = 90_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(
        `${what} not within ${withinMs / 1000} s\nlauncher:\n${fleet?.output()}\npebble:\n${pebbleOutput}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Entry = { msgId: string; fields: Record<string, unknown> };
/** Every retained log entry of the appliance with an `acme.` msgId, oldest first. */
async function acmeLog(): Promise<Entry[]> {
  const found: Entry[] = [];
  for (let since = 0; ; ) {
    const page = (
      await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/logs/tail?count=1000&sinceSeq=${since}`, {
        insecure: true,
        headers: auth,
      })
    ).json<{ entries: (Entry & { seq: number })[] }>();
    found.push(...page.entries.filter((e) => e.msgId.startsWith("acme.")));
    if (page.entries.length < 1000) return found;
    since = page.entries.at(-1)!.seq;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-acme-"));
  for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
  // Pebble's API needs a certificate; the Debian package ships none, so a throw-away CA makes one.
  makeTestCa(dir, "bngfleet test ACME API CA").issue("api", "127.0.0.1");
  apiCa = await readFile(path.join(dir, "ca.pem"), "utf8");
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${ports.pebble}`,
      managementListenAddress: `127.0.0.1:${ports.management}`,
      certificate: path.join(dir, "api.pem"),
      privateKey: path.join(dir, "api.key"),
      // HTTP-01 is fetched from the appliance's own listener port: the real challenge path, no shortcut.
      httpPort: ports.fleet,
      tlsPort: ports.tlsAlpn,
      ocspResponderURL: "",
      externalAccountBindingRequired: false,
    },
  };
  await writeFile(path.join(dir, "pebble.json"), JSON.stringify(config));
  // No random sleep before validating, and no random badNonce refusals: the test's timing stays predictable.
  pebble = spawn("pebble", ["-config", path.join(dir, "pebble.json")], {
    env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  pebble.stdout!.on("data", (chunk) => (pebbleOutput += chunk));
  pebble.stderr!.on("data", (chunk) => (pebbleOutput += chunk));
  await waitFor(
    "pebble's directory",
    async () =>
      (await fetchJson(`https://127.0.0.1:${ports.pebble}/dir`, { ca: apiCa })).status === 200 ? true : undefined,
    30_000,
  );

  // One appliance, on the port Pebble validates against.
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: ports.fleet,
      appliances: [
        {
          name: "edge-1",
          seed: 1001,
          profile: "small",
          webUi: { listener: { address: "127.0.0.1", port: ports.fleet }, hostname: "edge-1.bng.localhost" },
        },
      ],
    }),
  );
  fleet = await launchFleet(
    { BNG_FLEET: fleetFile, BNG_FRESH: "1", BNG_BOOTSTRAP_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem") },
    [ports.fleet],
    path.join(dir, "data"),
  );
});

afterAll(async () => {
  await fleet?.stop();
  pebble?.kill("SIGTERM");
});

describe("ACME against Pebble", () => {
  it("issues a certificate over HTTP-01 on the listener and serves it without a restart", async () => {
    const factory = (await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/system/health`, { insecure: true }))
      .peerCertificateFingerprint;
    const enable = await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/config`, {
      method: "PUT",
      insecure: true,
      headers: auth,
      body: {
        fields: {
          "acme.directoryUrl": `https://127.0.0.1:${ports.pebble}/dir`,
          "acme.contact": "noc@bng.example",
          "acme.names": "127.0.0.1",
          "acme.enabled": "true",
        },
        comment: "ACME from the test CA",
      },
    });
    expect(enable.status, enable.text).toBe(200);
    expect(enable.json()).toMatchObject({ restartRequired: false });

    // Pebble's roots are made at its start; its management API hands them out.
    root = (await fetchJson(`https://127.0.0.1:${ports.management}/roots/0`, { ca: apiCa })).text;
    const served = await waitFor("the issued certificate on the listener", () => servedCertificate(ports.fleet, root));
    firstIssued = served.fingerprint256;
    expect(served.fingerprint256).not.toBe(factory);
    expect(served.issuer.CN).toMatch(/^Pebble Intermediate CA /);
    expect(served.subjectaltname).toBe("IP Address:127.0.0.1");

    const details = (
      await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/config/webui/certificate`, {
        insecure: true,
        headers: auth,
      })
    ).json<Record<string, unknown>>();
    expect(details).toMatchObject({
      source: "acme",
      sha256Fingerprint: served.fingerprint256,
      subjectAltNames: ["IP:127.0.0.1"],
      chainLength: 2,
      selfSigned: false,
    });
    expect(details.acme).toMatchObject({
      enabled: true,
      state: "issued",
      names: ["127.0.0.1"],
      lastError: null,
      accountUrl: expect.stringContaining(`https://127.0.0.1:${ports.pebble}/`),
    });
    // Pebble issues for five years; renewal falls 30 days (acme.renewBeforeDays) before the end.
    const { notAfter, acme } = details as { notAfter: string; acme: { renewalUtc: string } };
    expect(Date.parse(notAfter) - Date.parse(acme.renewalUtc)).toBe(30 * 86_400_000);

    const log = await acmeLog();
    // Pebble fetches the answer more than once (as Let's Encrypt does from several vantage points): served is logged
    // each time.
    expect([...new Set(log.map((e) => e.msgId))]).toEqual([
      "acme.order.started",
      "acme.account.registered",
      "acme.challenge.ready",
      "acme.challenge.served",
      "acme.certificate.issued",
    ]);
    // Pebble fetched the token over plain HTTP from the listener's port.
    expect(pebbleOutput).toContain(
      `Attempting to validate w/ HTTP: ` +
        `http://127.0.0.1:${ports.fleet}/.well-known/acme-challenge/${log[2]!.fields.token}`,
    );

    const history = (
      await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/config/history?limit=1`, {
        insecure: true,
        headers: auth,
      })
    ).json<{ items: { operation: string; actor: string }[] }>();
    expect(history.items[0]).toMatchObject({ operation: "acme", actor: "system" });
    // The same launcher process served both certificates: one start-up banner.
    expect(fleet!.output().match(/ready in/g)).toHaveLength(1);
    expect(fleet!.output()).toContain("edge-1 serves its new certificate");
  }, 150_000);

  it("replaces an uploaded certificate with a new one from the CA, on the account it already has", async () => {
    const uploaded = await selfSigned({ name: "edge-1.bng.localhost" });
    const upload = await fetchJson(`https://127.0.0.1:${ports.fleet}/api/v1/config/webui/certificate`, {
      insecure: true,
      headers: auth,
      body: { certificatePem: uploaded.certificatePem, privateKeyPem: uploaded.privateKeyPem },
    });
    expect(upload.status, upload.text).toBe(200);
    expect(upload.json<{ warnings: string[] }>().warnings).toEqual([expect.stringContaining("acme.enabled is true")]);
    // The alarm (every 10 s) finds the upload in ACME's place and orders anew; only a Pebble-issued certificate
    // verifies.
    const served = await waitFor("a second issued certificate on the listener", async () => {
      const peer = await servedCertificate(ports.fleet, root);
      return peer.fingerprint256 !== firstIssued ? peer : undefined;
    });
    expect(served.fingerprint256).not.toBe(uploaded.fingerprint);
    const ids = (await acmeLog()).map((e) => e.msgId);
    expect(ids.filter((id) => id === "acme.certificate.issued")).toHaveLength(2);
    expect(ids.filter((id) => id === "acme.account.registered")).toHaveLength(1);
  }, 120_000);

  it("redirects every other plain-HTTP request on the listener port to https", async () => {
    const response = await fetch(`http://127.0.0.1:${ports.fleet}/api/v1/system/health`, { redirect: "manual" });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe(`https://127.0.0.1:${ports.fleet}/api/v1/system/health`);
  });
});
