/**
 * Certificate and key checks (src/trust/x509.ts, through @peculiar/x509) in
 * Node, on a certificate and keys made by OpenSSL 3.0 and the values OpenSSL
 * reads from them:
 *
 *   openssl ecparam -name prime256v1 -genkey -noout -out ec-sec1.pem
 *   openssl pkcs8 -topk8 -nocrypt -in ec-sec1.pem -out ec-pkcs8.pem
 *   openssl req -new -x509 -key ec-pkcs8.pem -subj "/C=DE/O=bngfleet test/CN=edge-1.bng.example" -set_serial 0xff01 \
 *     -addext "subjectAltName=DNS:edge-1.bng.example,IP:2001:db8:0:0::1,IP:192.0.2.1" -days 365 -out ec-cert.pem
 *   openssl x509 -in ec-cert.pem -noout -serial -subject -nameopt RFC2253 -fingerprint -sha256 -dates \
 *     -ext subjectAltName
 *    serial=FF01 (DER 00 FF 01: the sign byte is not part of the number)
 *    subject=CN=edge-1.bng.example,O=bngfleet test,C=DE
 *    sha256 Fingerprint=D8:8E:DA:1F:42:4C:E9:EC:08:DE:C4:63:89:29:53:FD:AB:38:2E:52:97:88:A2:FF:0C:06:FD:C1:92:AD:58:64
 *    notBefore=Nov 24 00:38:32 2026 GMT, notAfter=Nov 24 00:38:32 2027 GMT
 *    DNS:edge-1.bng.example, IP Address:2001:DB8:0:0:0:0:0:1, IP Address:192.0.2.1
 *   openssl genrsa -out rsa1024.pem 1024; openssl req -new -x509 -key rsa1024.pem -subj "/CN=weak.example" -days 365
 *
 * The keys were made for this file only and protect nothing.
 *
 * The workerd side (upload through the API, ACME) is test/worker/config-certificate.test.ts and acme.test.ts.
 */
import { describe, expect, it } from "vitest";
import { checkCertificatePair, inspectCertificate } from "../../src/trust/x509.ts";

const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIICATCCAaegAwIBAgIDAP8BMAoGCCqGSM49BAMCMEIxCzAJBgNVBAYTAkRFMRYw
FAYDVQQKDA1ibmdmbGVldCB0ZXN0MRswGQYDVQQDDBJlZGdlLTEuYm5nLmV4YW1w
bGUwHhcNMjYxMTI0MDAzODMyWhcNMjcxMTI0MDAzODMyWjBCMQswCQYDVQQGEwJE
RTEWMBQGA1UECgwNYm5nZmxlZXQgdGVzdDEbMBkGA1UEAwwSZWRnZS0xLmJuZy5l
eGFtcGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGv1Kt7kUHaOt2289Cd8q
gTHiZHQz1nVtKN3yIFYb2QWo0C5UzcHpbfjUIPP7GTx4yedWJXN8/VbwE/tTeFRa
maOBizCBiDAdBgNVHQ4EFgQUXNBEqEcB5fuJv8yv2ycbBJX17qMwHwYDVR0jBBgw
FoAUXNBEqEcB5fuJv8yv2ycbBJX17qMwDwYDVR0TAQH/BAUwAwEB/zA1BgNVHREE
LjAsghJlZGdlLTEuYm5nLmV4YW1wbGWHECABDbgAAAAAAAAAAAAAAAGHBMAAAgEw
CgYIKoZIzj0EAwIDSAAwRQIgQDx0i4GuaMldFqAm/p4S/xNk5JLoummJ+qg1sHFU
XBECIQCFSYt6wlgLk4fYnTeRJx3maDhAdzzbzA3GfnxdrHlYCA==
-----END CERTIFICATE-----
`;
const KEY_PKCS8 = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsWMVC3WoQ2K/DMXn
86/jyUzsDSHY+FXBOl4XrWw3WmqhRANCAAQa/Uq3uRQdo63bbz0J3yqBMeJkdDPW
dW0o3fIgVhvZBajQLlTNwelt+NQg8/sZPHjJ51Ylc3z9VvAT+1N4VFqZ
-----END PRIVATE KEY-----
`;
const KEY_SEC1 = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEILFjFQt1qENivwzF5/Ov48lM7A0h2PhVwTpeF61sN1pqoAoGCCqGSM49
AwEHoUQDQgAEGv1Kt7kUHaOt2289Cd8qgTHiZHQz1nVtKN3yIFYb2QWo0C5UzcHp
bfjUIPP7GTx4yedWJXN8/VbwE/tTeFRamQ==
-----END EC PRIVATE KEY-----
`;
const OTHER_KEY_SEC1 = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIOFAyJX/Jy4kO5oruvnXexFnvVN2dRS66jxEkO0OcCOIoAoGCCqGSM49
AwEHoUQDQgAE6KtmBgMN2Xn+D0V8ucizuV0fSvcKuSfFk21n/E0ALakP6uunUuOG
DROxDpZRxtZvYKUS/8Go2e7olZLBoHYLtQ==
-----END EC PRIVATE KEY-----
`;
const WEAK_RSA_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIICCjCCAXOgAwIBAgIUT6krjgZdKANOxN23++NXkwkXCt8wDQYJKoZIhvcNAQEL
BQAwFzEVMBMGA1UEAwwMd2Vhay5leGFtcGxlMB4XDTI2MTEyNDAwMzgzMloXDTI3
MTEyNDAwMzgzMlowFzEVMBMGA1UEAwwMd2Vhay5leGFtcGxlMIGfMA0GCSqGSIb3
DQEBAQUAA4GNADCBiQKBgQClhNMlRhK1VikixX+Cy0uyJ6JJgbdwXLcNrImYlmVe
RXWvJ0P3rIiw2ajFgDpUbFq/9oMpHjHIuii5k0jA5CzI3PJB7423YJWS867EVWI5
Z6DxxuPNBv/x2TkJETTu+lowg7YBWBYrKECCnV411K5DdifpESS0ZhRaeeSXk3sb
CwIDAQABo1MwUTAdBgNVHQ4EFgQUZsMv9yt7FHhkPaFxcCtOcMNpzQEwHwYDVR0j
BBgwFoAUZsMv9yt7FHhkPaFxcCtOcMNpzQEwDwYDVR0TAQH/BAUwAwEB/zANBgkq
hkiG9w0BAQsFAAOBgQCQr0MJtIPc1tYept2yxrJe7TM3cG/V+1rQjMbqCMdQc0qK
hOMHNWt0b2YeJgj1gkXZPbTUVgAccSGTPr7fKWp5CGpGNJypqmrd1+EJQMb+jB1N
WfHS/i6hfeGJFNi1ARVI6/5NCZCN2eGHHSYYfSVPBp/ERvi/YRjdaI/CDMbgkA==
-----END CERTIFICATE-----
`;
const WEAK_RSA_KEY = `-----BEGIN PRIVATE KEY-----
MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAKWE0yVGErVWKSLF
f4LLS7InokmBt3Bctw2siZiWZV5Fda8nQ/esiLDZqMWAOlRsWr/2gykeMci6KLmT
SMDkLMjc8kHvjbdglZLzrsRVYjlnoPHG480G//HZOQkRNO76WjCDtgFYFisoQIKd
XjXUrkN2J+kRJLRmFFp55JeTexsLAgMBAAECgYBjZjHa94rypWyMuihKJsYtlgmq
tSCxdKxlpND49pCnnXUAG8eAbHemJQBqowfkfTG+iE7aGYzyK4GbeGy/kgemHVYi
pVyfWr0t5sT8kXxiHuI3J3WPFDpAzJ6kUAa0Uw/etcFOVyUxl0bOb9MKge1d20Rd
YXJrTEGJJxnPXDoBuQJBANRacQ7Wk6uMsPDsB3RcC3MC+QKW94q90zqHtpUAtFmH
10HsNi8mvG5j8EJW5z/q/SOZfG6x/zd93XVXxVhyNfUCQQDHig8T4pDWnUEU72cF
sM9JUuOstBV1iXLNgMxyphHOnnhCmemzz4ku+urW6vU6aKQ82w6PcWvnWdmlJDSS
pGz/AkA651eDGSxfIqiWO7KZqUqXvZRbDotd1ef4zVptHIPqbc7c/2vMSn9sU5Z6
oGaHCWTscg/dGMzFlMlQWmdocE3dAkAr4HzeR4TH3H5yJw6FXtLF8dcko9jQJrA6
5iaO01u5DnmtU4DjTDCDRyOarMHN3TK4OwchnbQ3hDdqq+JvmH5rAkEAitrJ4lgX
HDHOrTKaBfuUqlfxPOdXok9M7BWu4Cnk1xVTgUiTvaeADuDa1DLCOUre4l9vW4MY
8Y3G5C1v790fTQ==
-----END PRIVATE KEY-----
`;

/** Inside the certificate's validity. */
const NOW = Date.UTC(2027, 0, 1);

describe("reading a certificate", () => {
  it("shows what OpenSSL reads from it", async () => {
    expect(await inspectCertificate(CERTIFICATE)).toEqual({
      // RFC 4514 order, as OpenSSL's RFC2253 output, with a space after each comma.
      subject: "CN=edge-1.bng.example, O=bngfleet test, C=DE",
      issuer: "CN=edge-1.bng.example, O=bngfleet test, C=DE",
      serialNumber: "ff01",
      // IPv6 in RFC 5952 form: 2001:DB8:0:0:0:0:0:1 is 2001:db8::1.
      subjectAltNames: ["DNS:edge-1.bng.example", "IP:2001:db8::1", "IP:192.0.2.1"],
      notBefore: "2026-11-24T00:38:32.000Z",
      notAfter: "2027-11-24T00:38:32.000Z",
      sha256Fingerprint:
        "D8:8E:DA:1F:42:4C:E9:EC:08:DE:C4:63:89:29:53:FD:AB:38:2E:52:97:88:A2:FF:0C:06:FD:C1:92:AD:58:64",
      publicKey: "ECDSA P-256",
      selfSigned: true,
      chainLength: 1,
    });
  });

  it("counts the certificates of a chain", async () => {
    expect((await inspectCertificate(`${CERTIFICATE}${WEAK_RSA_CERTIFICATE}`))?.chainLength).toBe(2);
  });

  it("reads nothing from a key or from text without a certificate", async () => {
    expect(await inspectCertificate(KEY_PKCS8)).toBeNull();
    expect(await inspectCertificate("not a certificate")).toBeNull();
  });
});

describe("checking a certificate and its key", () => {
  it("accepts the certificate's key as PKCS#8", async () => {
    expect(await checkCertificatePair(CERTIFICATE, KEY_PKCS8, NOW)).toMatchObject({
      ok: true,
      warnings: [],
      details: { serialNumber: "ff01" },
    });
  });

  it("accepts the same key as SEC1 (EC PRIVATE KEY)", async () => {
    expect(await checkCertificatePair(CERTIFICATE, KEY_SEC1, NOW)).toMatchObject({ ok: true, warnings: [] });
  });

  it("refuses another key of the same curve, naming privateKeyPem", async () => {
    expect(await checkCertificatePair(CERTIFICATE, OTHER_KEY_SEC1, NOW)).toEqual({
      ok: false,
      errors: [{ pointer: "#/privateKeyPem", detail: "the private key does not match the certificate's public key" }],
    });
  });

  it("refuses a key of another algorithm", async () => {
    expect(await checkCertificatePair(CERTIFICATE, WEAK_RSA_KEY, NOW)).toEqual({
      ok: false,
      errors: [
        {
          pointer: "#/privateKeyPem",
          detail: "the key is of another algorithm or curve than the certificate's public key",
        },
      ],
    });
  });

  it("refuses the certificate from its notAfter on", async () => {
    expect(await checkCertificatePair(CERTIFICATE, KEY_PKCS8, Date.UTC(2027, 10, 24, 0, 38, 32))).toEqual({
      ok: false,
      errors: [{ pointer: "#/certificatePem", detail: "the certificate expired at 2027-11-24T00:38:32.000Z" }],
    });
  });

  it("accepts it before its notBefore, with a warning", async () => {
    expect(await checkCertificatePair(CERTIFICATE, KEY_PKCS8, Date.UTC(2026, 10, 24))).toMatchObject({
      ok: true,
      warnings: ["the certificate is not valid before 2026-11-24T00:38:32.000Z"],
    });
  });

  it("refuses a 1024-bit RSA key, however well it matches", async () => {
    expect(await checkCertificatePair(WEAK_RSA_CERTIFICATE, WEAK_RSA_KEY, NOW)).toEqual({
      ok: false,
      errors: [{ pointer: "#/certificatePem", detail: "RSA keys under 2048 bits are refused (this one has 1024)" }],
    });
  });

  it("refuses the key in the certificate field and the certificate in the key field, naming both", async () => {
    expect(await checkCertificatePair(KEY_PKCS8, CERTIFICATE, NOW)).toEqual({
      ok: false,
      errors: [
        {
          pointer: "#/certificatePem",
          detail: "holds a PRIVATE KEY block; only CERTIFICATE blocks belong here (the key goes in privateKeyPem)",
        },
        {
          pointer: "#/privateKeyPem",
          detail: "a CERTIFICATE block is not a private key (expected PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)",
        },
      ],
    });
  });

  it("refuses an encrypted key", async () => {
    const encrypted = KEY_SEC1.replace(
      "-----BEGIN EC PRIVATE KEY-----\n",
      "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: " +
        "AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n",
    );
    expect(await checkCertificatePair(CERTIFICATE, encrypted, NOW)).toEqual({
      ok: false,
      errors: [
        {
          pointer: "#/privateKeyPem",
          detail: "the key is encrypted; upload it decrypted (it is stored as a secret and never returned)",
        },
      ],
    });
  });
});
