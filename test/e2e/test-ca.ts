/**
 * A throw-away certificate authority for the receivers the appliance reaches over TLS in the e2e tests (rsyslog,
 * an SMTP server, mosquitto, Pebble's API), made by OpenSSL in the test's own folder: P-256 keys, valid two days.
 * The files keep OpenSSL's names (`ca.pem`, `<stem>.pem`, `<stem>.key`), so a receiver's configuration names them.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";

export interface TestCa {
  /** The CA's certificate, for NODE_EXTRA_CA_CERTS or a client's `ca`. */
  caFile: string;
  /** Issues `<stem>.pem` and `<stem>.key` for one name: an IP address or a DNS name, as subject and SAN. */
  issue(stem: string, name: string): { certFile: string; keyFile: string };
}

const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

export function makeTestCa(dir: string, commonName: string): TestCa {
  const openssl = (...args: string[]) =>
    execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  openssl("req", "-x509", ...P256, "-keyout", "ca.key", "-out", "ca.pem", "-subj", `/CN=${commonName}`, "-days", "2");
  return {
    caFile: path.join(dir, "ca.pem"),
    issue(stem, name) {
      openssl("req", ...P256, "-keyout", `${stem}.key`, "-out", `${stem}.csr`, "-subj", `/CN=${name}`);
      writeFileSync(path.join(dir, `${stem}.ext`), `subjectAltName=${isIP(name) ? "IP" : "DNS"}:${name}\n`);
      openssl(
        ...["x509", "-req", "-in", `${stem}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"],
        ...["-out", `${stem}.pem`, "-days", "2", "-extfile", `${stem}.ext`],
      );
      return { certFile: path.join(dir, `${stem}.pem`), keyFile: path.join(dir, `${stem}.key`) };
    },
  };
}
