/**
 * Debian's rsyslogd as a test fixture: unprivileged, in the foreground, with
 * its own configuration in a temporary folder. `imtcp` listens on a loopback
 * port the caller chose (below the ephemeral range, so a restart gets it back)
 * and `omfile` writes each message as received (`%rawmsg%`, JSON-escaped so
 * one message is one line whatever it holds), for the test to parse itself.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { daemon } from "../../scripts/harness/daemon.ts";

export const RSYSLOGD = "/usr/sbin/rsyslogd";

export interface Rsyslog {
  port: number;
  /** The raw messages received so far, oldest first. */
  messages: () => Promise<string[]>;
  start: () => Promise<void>;
  /** SIGTERM, resolved once the process has exited (its connections closed). */
  stop: () => Promise<void>;
}

/** TLS (RFC 5425) with GnuTLS: the server's certificate and key, no client authentication. */
export interface RsyslogTls {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Writes the configuration and starts rsyslogd listening on 127.0.0.1:`port`. */
export async function startRsyslog(port: number, tls?: RsyslogTls): Promise<Rsyslog> {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-rsyslog-"));
  const file = path.join(dir, "received.log");
  const driver = tls
    ? `global(defaultNetstreamDriver="gtls" defaultNetstreamDriverCAFile="${tls.caFile}" \
defaultNetstreamDriverCertFile="${tls.certFile}" defaultNetstreamDriverKeyFile="${tls.keyFile}")
module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")`
    : `module(load="imtcp")`;
  await writeFile(
    path.join(dir, "rsyslog.conf"),
    `global(workDirectory="${dir}" parser.escapeControlCharactersOnReceive="off")
${driver}
template(name="raw" type="string" string="%rawmsg:::json%\\n")
input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="received")
ruleset(name="received") { action(type="omfile" file="${file}" template="raw") }
`,
  );
  const { start, stop } = daemon(
    "rsyslogd",
    RSYSLOGD,
    ["-n", "-f", path.join(dir, "rsyslog.conf"), "-i", path.join(dir, "rsyslogd.pid")],
    [port],
  );
  const messages = async () => {
    const text = await readFile(file, "utf8").catch(() => "");
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(`"${line}"`) as string);
  };
  await start();
  return { port, messages, start, stop };
}
