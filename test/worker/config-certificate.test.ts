import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { CertificateCommitResult } from "../../src/schemas/config.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call, json } from "./client.ts";
import { admin, getConfig, history, storedDocument } from "./config-client.ts";
import { selfSigned, traditionalPem } from "./certificates.ts";

const upload = (body: unknown) => call("/api/v1/config/webui/certificate", json("POST", body, admin));
const current = () => call("/api/v1/config/webui/certificate", { headers: admin });
type Details = z.output<typeof CertificateCommitResult>;
type Problem = z.output<typeof ProblemDetails>;

describe("web UI certificate", () => {
  it("answers 404 while the factory self-signed certificate is in use", async () => {
    expect((await current()).status).toBe(404);
  });

  it("installs a matching pair and answers its details, served without a restart", async () => {
    const pair = await selfSigned();
    const response = await upload({ ...pair, comment: "real certificate" });
    expect(response.status, await response.clone().text()).toBe(200);
    const details = await response.json<Details>();
    expect(details).toMatchObject({
      status: "committed",
      version: 2,
      restartRequired: false,
      subject: "O=bngfleet test, CN=edge-1.bng.localhost",
      subjectAltNames: ["DNS:edge-1.bng.localhost", "IP:127.0.0.1"],
      sha256Fingerprint: pair.fingerprint,
      serialNumber: pair.serialNumber,
      publicKey: "ECDSA P-256",
      selfSigned: true,
      chainLength: 1,
      source: "uploaded",
      acme: { enabled: false, state: "idle", issuedUtc: null },
      warnings: [],
    });
    expect(Date.parse(details.notAfter)).toBeGreaterThan(Date.now());
    const {
      status: _status,
      version: _version,
      committedUtc: _at,
      restartRequired: _restart,
      warnings: _warnings,
      ...shown
    } = details;
    expect(await (await current()).json()).toEqual(shown);
    expect((await history()).items[0]).toMatchObject({
      operation: "certificate",
      comment: "real certificate",
      restartRequired: false,
    });
  });

  it("never returns the private key, and keeps it for the launcher", async () => {
    const pair = await selfSigned();
    await upload(pair);
    const body = pair.privateKeyPem.split("\n")[1]!;
    for (const path of ["/api/v1/config", "/api/v1/config/history", "/api/v1/config/webui/certificate"]) {
      expect(await (await call(path, { headers: admin })).text()).not.toContain(body);
    }
    expect((await getConfig()).fields["webUi.privateKey"]).toBe("********");
    expect((await storedDocument()).fields["webUi.privateKey"]).toContain(body);
  });

  it("accepts RSA and Ed25519 keys", async () => {
    for (const [kind, label] of [
      ["rsa", "RSA 2048"],
      ["ed25519", "Ed25519"],
    ] as const) {
      const response = await upload(await selfSigned({ kind }));
      expect(response.status, await response.clone().text()).toBe(200);
      expect((await response.json<Details>()).publicKey).toBe(label);
    }
  });

  it("accepts PKCS#1 RSA and SEC1 EC keys as well as PKCS#8", async () => {
    const [rsa, ec] = await Promise.all([selfSigned({ kind: "rsa" }), selfSigned()]);
    const pkcs1 = await upload({ ...rsa, privateKeyPem: traditionalPem(rsa.privateKeyPem, "RSA PRIVATE KEY") });
    expect(pkcs1.status, await pkcs1.clone().text()).toBe(200);
    const sec1 = await upload({ ...ec, privateKeyPem: traditionalPem(ec.privateKeyPem, "EC PRIVATE KEY") });
    expect(sec1.status, await sec1.clone().text()).toBe(200);
    const other = await selfSigned({ kind: "rsa" });
    expect(
      (await upload({ ...rsa, privateKeyPem: traditionalPem(other.privateKeyPem, "RSA PRIVATE KEY") })).status,
    ).toBe(422);
  });

  it("accepts the certificate followed by its chain", async () => {
    const [leaf, issuer] = await Promise.all([selfSigned(), selfSigned({ name: "ca.example.net" })]);
    const response = await upload({
      certificatePem: `${leaf.certificatePem}\n${issuer.certificatePem}`,
      privateKeyPem: leaf.privateKeyPem,
    });
    expect(await response.json()).toMatchObject({ chainLength: 2, sha256Fingerprint: leaf.fingerprint });
  });

  it("refuses an encrypted key", async () => {
    const pair = await selfSigned();
    const encrypted = pair.privateKeyPem.replace(/PRIVATE KEY/g, "ENCRYPTED PRIVATE KEY");
    const problem = await (await upload({ ...pair, privateKeyPem: encrypted })).json<Problem>();
    expect(problem.errors![0]!.detail).toContain("encrypted");
  });

  it("refuses a key that is not the certificate's, with 422 naming privateKeyPem", async () => {
    const [a, b] = await Promise.all([selfSigned(), selfSigned()]);
    const response = await upload({ certificatePem: a.certificatePem, privateKeyPem: b.privateKeyPem });
    expect(response.status).toBe(422);
    const problem = await response.json<Problem>();
    expect(problem.errors).toEqual([
      { in: "body", pointer: "#/privateKeyPem", detail: "the private key does not match the certificate's public key" },
    ]);
    expect((await current()).status).toBe(404);
    expect((await history()).total).toBe(1);
  });

  it("refuses a key of another algorithm", async () => {
    const [ec, rsa] = await Promise.all([selfSigned(), selfSigned({ kind: "rsa" })]);
    expect((await upload({ certificatePem: ec.certificatePem, privateKeyPem: rsa.privateKeyPem })).status).toBe(422);
  });

  it(
    "refuses a certificate whose public key is not a valid key (issue #9 item 15): " +
      "422 naming certificatePem, not 500",
    async () => {
      const pair = await selfSigned({ kind: "ecdsa" });
      const der = Uint8Array.from(atob(pair.certificatePem.replace(/-----[^-]+-----|\s/g, "")), (c) => c.charCodeAt(0));
      // The P-256 key is BIT STRING { 0x00 unused bits, 0x04 uncompressed point, 64 bytes }: 0x05 names no point
      // encoding
      // (SEC 1 §2.3.3).
      const at = der.findIndex(
        (_, i) => der[i] === 0x03 && der[i + 1] === 0x42 && der[i + 2] === 0x00 && der[i + 3] === 0x04,
      );
      expect(at).toBeGreaterThan(0);
      der[at + 3] = 0x05;
      const base64 = btoa(String.fromCharCode(...der)).replace(/(.{64})/g, "$1\n");
      const response = await upload({
        certificatePem: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`,
        privateKeyPem: pair.privateKeyPem,
      });
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const problem = await response.json<Problem>();
      expect(problem.errors!.map((e) => e.pointer)).toEqual(["#/certificatePem"]);
      expect(problem.errors![0]!.detail).toContain("public key");
    },
  );

  it("refuses PEMs that do not parse, naming both fields", async () => {
    const response = await upload({
      certificatePem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
      privateKeyPem: "not a key",
    });
    expect(response.status).toBe(422);
    const problem = await response.json<Problem>();
    expect(problem.errors!.map((e) => e.pointer)).toEqual(["#/certificatePem", "#/privateKeyPem"]);
  });

  it("refuses an expired certificate and a weak RSA key", async () => {
    const expired = await selfSigned({ notBefore: new Date("2020-01-01"), notAfter: new Date("2021-01-01") });
    const old = await (await upload(expired)).json<Problem>();
    expect(old.errors![0]!.detail).toContain("expired");
    const weak = await upload(await selfSigned({ kind: "rsa-1024" }));
    expect(weak.status).toBe(422);
    expect((await weak.json<Problem>()).errors![0]!.detail).toContain("2048");
  });

  it("refuses the key in the certificate field", async () => {
    const pair = await selfSigned();
    const response = await upload({ certificatePem: pair.privateKeyPem, privateKeyPem: pair.privateKeyPem });
    expect((await response.json<Problem>()).errors!.map((e) => e.pointer)).toContain("#/certificatePem");
  });

  it("warns when the certificate does not name webUi.hostname", async () => {
    const response = await upload(await selfSigned({ name: "elsewhere.example.net" }));
    expect((await response.json<Details>()).warnings).toEqual([expect.stringContaining("edge-1.bng.localhost")]);
  });

  it("is rolled back with the configuration, and cleared back to the factory certificate", async () => {
    await upload(await selfSigned());
    expect((await call("/api/v1/config/rollback", json("POST", { version: 1 }, admin))).status).toBe(200);
    expect((await current()).status).toBe(404);
    await upload(await selfSigned());
    const cleared = await call(
      "/api/v1/config",
      json("PUT", { fields: { "webUi.certificate": null, "webUi.privateKey": null } }, admin),
    );
    expect(await cleared.json()).toMatchObject({ restartRequired: false });
    expect((await current()).status).toBe(404);
  });

  it("refuses clearing only one of the pair", async () => {
    await upload(await selfSigned());
    const response = await call("/api/v1/config", json("PUT", { fields: { "webUi.privateKey": null } }, admin));
    expect(response.status).toBe(422);
  });
});
