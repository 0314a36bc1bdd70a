/**
 * Issue #25: an SMTP sink through the real launcher. A mail server (the npm
 * smtp-server, which requires AUTH, only over TLS) with a certificate from a
 * throw-away CA the appliance trusts through NODE_EXTRA_CA_CERTS, as Pebble's
 * is in acme.test.ts. The message a test alert sends parses with mailparser,
 * and its JSON part is the exact notification POST /api/v1/alarms/test answers.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlertNotification } from "../../src/schemas/alarms.ts";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { makeTestCa } from "./test-ca.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x"; // well-formed: the checksum is CRC-32 in base62
const USER = "bng-alerts";
const PASSWORD = "relay-password-never-logged";

/** A message accepted, with what its session showed: TLS, the authenticated user and the envelope. */
interface Received {
  mail: ParsedMail;
  secure: boolean;
  user: unknown;
  from: string | null;
  to: string[];
}

let dir: string;
let fleet: RunningFleet;
const servers: SMTPServer[] = [];
const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });

/**
 * A mail server on a port the OS picks that requires AUTH (over TLS only, smtp-server's default) and keeps what it
 * accepts.
 */
async function mailServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const logins: { username: string | undefined; secure: boolean }[] = [];
  const server = new SMTPServer({
    key: await readFile(path.join(dir, "mail.key")),
    cert: await readFile(path.join(dir, "mail.pem")),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ username: auth.username, secure: session.secure });
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const { secure, user, envelope } = session;
          received.push({
            mail,
            secure,
            user,
            from: envelope.mailFrom ? envelope.mailFrom.address : null,
            to: envelope.rcptTo.map((r) => r.address),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, logins };
}

const api = (p: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${p}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

async function sink(name: string, url: string, credential: string | null) {
  const put = await api(
    "/api/v1/config",
    {
      listOps: [
        { listPath: "alarms.sinks", key: name, fields: { kind: "smtp", url, severityFloor: "major", credential } },
      ],
    },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
}

async function removeSink(name: string) {
  expect(
    (await api("/api/v1/config", { listOps: [{ listPath: "alarms.sinks", key: name, delete: true }] }, "PUT")).status,
  ).toBe(200);
}

type Entry = { msgId: string; fields: Record<string, unknown> };
const outcomeOf = async (name: string) => {
  const entries = (await api("/api/v1/logs/tail?count=200")).json<{ entries: Entry[] }>().entries;
  return entries.find(
    (e) =>
      ["alarm.sink.delivered", "alarm.sink.failed", "alarm.sink.retrying"].includes(e.msgId) && e.fields.sink === name,
  );
};

const ENVELOPE = "?from=bng@isp.example&to=noc@isp.example,oncall@isp.example";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-smtp-"));
  makeTestCa(dir, "bngfleet test mail CA").issue("mail", "127.0.0.1");
  // A certificate for the same address that no CA the appliance trusts has signed.
  openssl(
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "rogue.key",
    "-out",
    "rogue.pem",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-days",
    "2",
  );
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(PORT_BASE),
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_FRESH: "1",
      NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem"),
    },
    [PORT_BASE],
  );
}, 120_000);

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("SMTP sinks", () => {
  it(
    "submit the test alert over STARTTLS with the sink's credential, as a message " +
      "whose JSON part is the notification answered",
    async () => {
      const server = await mailServer();
      await sink("mail", `smtp://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, PASSWORD);
      const answered = await api("/api/v1/alarms/test", {
        severity: "critical",
        text: "smtp check: ünïcode and a line\n.starting with a dot",
      });
      expect(answered.status).toBe(200);
      const notification = answered.json<AlertNotification>();

      await expect.poll(() => server.received.length, { timeout: 20_000 }).toBe(1);
      const { mail, ...session } = server.received[0]!;
      expect(session).toEqual({
        secure: true,
        user: USER,
        from: "bng@isp.example",
        to: ["noc@isp.example", "oncall@isp.example"],
      });
      expect(server.logins).toEqual([{ username: USER, secure: true }]);

      expect(mail.from?.text).toBe("bng@isp.example");
      expect([mail.to].flat().map((a) => a?.text)).toEqual(["noc@isp.example, oncall@isp.example"]);
      expect(mail.subject).toBe(`[${notification.appliance}] CRITICAL alert.test test`);
      expect(mail.date?.getTime()).toBe(Math.floor(Date.parse(notification.sentUtc) / 1000) * 1000);
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@bngfleet\.invalid>$/);
      expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/mixed" });
      expect(mail.text).toContain(`A test alert was sent on ${notification.appliance}.`);
      expect(mail.text).toContain("smtp check: ünïcode and a line\n.starting with a dot");
      expect(mail.attachments.map((a) => [a.contentType, a.filename])).toEqual([
        ["application/json", "alert-notification.json"],
      ]);
      const attached = JSON.parse(mail.attachments[0]!.content.toString("utf8"));
      expect(AlertNotification.parse(attached)).toEqual(notification);
      expect(attached).toEqual(notification);

      await expect
        .poll(() => outcomeOf("mail"), { timeout: 10_000 })
        .toMatchObject({
          msgId: "alarm.sink.delivered",
          fields: { sink: "mail", kind: "smtp", notification: "test", alarmId: "alert.test", attempts: 1 },
        });
      await removeSink("mail");
    },
  );

  it("submit over TLS from the first byte on smtps:", async () => {
    const server = await mailServer({ secure: true });
    await sink("mail-tls", `smtps://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, PASSWORD);
    const answered = await api("/api/v1/alarms/test", { severity: "major" });
    await expect.poll(() => server.received.length, { timeout: 20_000 }).toBe(1);
    expect(server.received[0]!.secure).toBe(true);
    expect(JSON.parse(server.received[0]!.mail.attachments[0]!.content.toString("utf8"))).toEqual(answered.json());
    await removeSink("mail-tls");
  });

  it("log in with AUTH LOGIN where the server offers no PLAIN", async () => {
    const server = await mailServer({ authMethods: ["LOGIN"] });
    await sink("mail-login", `smtp://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, PASSWORD);
    await api("/api/v1/alarms/test", { severity: "major" });
    await expect.poll(() => server.received.length, { timeout: 20_000 }).toBe(1);
    expect(server.logins).toEqual([{ username: USER, secure: true }]);
    await removeSink("mail-login");
  });

  it("log a refused credential as failed after one attempt (a 535 does not pass), and send nothing", async () => {
    const server = await mailServer();
    await sink("wrong-password", `smtp://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, "not-the-password");
    await api("/api/v1/alarms/test", { severity: "critical" });
    await expect
      .poll(() => outcomeOf("wrong-password"), { timeout: 20_000 })
      .toMatchObject({
        msgId: "alarm.sink.failed",
        fields: { sink: "wrong-password", kind: "smtp", notification: "test", reason: "not delivered", attempts: 1 },
      });
    expect(server.logins).toEqual([{ username: USER, secure: true }]);
    expect(server.received).toEqual([]);
    expect((await api("/api/v1/logs/tail?count=200")).text).not.toContain("not-the-password");
    await removeSink("wrong-password");
  });

  it(
    "never send the password or the message in the clear: a server offering no " + "STARTTLS is left before AUTH",
    async () => {
      const server = await mailServer({ hideSTARTTLS: true, allowInsecureAuth: true });
      await sink("cleartext", `smtp://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, PASSWORD);
      await api("/api/v1/alarms/test", { severity: "critical" });
      await expect
        .poll(() => outcomeOf("cleartext"), { timeout: 20_000 })
        .toMatchObject({
          msgId: "alarm.sink.failed",
          fields: { sink: "cleartext", reason: "not delivered", attempts: 1 },
        });
      expect(server.logins).toEqual([]);
      expect(server.received).toEqual([]);
      await removeSink("cleartext");
    },
  );

  it(
    "verify the server's certificate: one no trusted CA signed is left before AUTH " +
      "(and tried again, as a server being replaced may be)",
    async () => {
      const server = await mailServer({
        key: await readFile(path.join(dir, "rogue.key")),
        cert: await readFile(path.join(dir, "rogue.pem")),
      });
      await sink("rogue", `smtp://${USER}@127.0.0.1:${server.port}/${ENVELOPE}`, PASSWORD);
      await api("/api/v1/alarms/test", { severity: "critical" });
      await expect
        .poll(() => outcomeOf("rogue"), { timeout: 30_000 })
        .toMatchObject({ msgId: "alarm.sink.retrying", fields: { sink: "rogue", reason: "not delivered" } });
      expect(server.logins).toEqual([]);
      expect(server.received).toEqual([]);
      await removeSink("rogue");
    },
  );

  it("hold queueSize notifications for a sink that does not answer, and count each one dropped past them", async () => {
    // A server that takes the connection and never says a word: the first delivery waits out its attempt meanwhile.
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const put = await api(
      "/api/v1/config",
      {
        listOps: [
          {
            listPath: "alarms.sinks",
            key: "silent",
            fields: {
              kind: "smtp",
              url: `smtp://${USER}@127.0.0.1:${(silent.address() as AddressInfo).port}/${ENVELOPE}`,
              credential: PASSWORD,
              queueSize: "3",
            },
          },
        ],
      },
      "PUT",
    );
    expect(put.status, put.text).toBe(200);
    for (let i = 0; i < 5; i++) expect((await api("/api/v1/alarms/test", { severity: "critical" })).status).toBe(200);
    const state = (await api("/api/v1/alarms/sinks"))
      .json<{ sinks: { name: string; queued: number; dropped: number }[] }>()
      .sinks.find((s) => s.name === "silent");
    expect(state).toMatchObject({ queued: 3, dropped: 2 });
    expect((await api("/api/v1/metrics")).text).toContain(
      'bng_alert_notifications_total{sink="silent",outcome="dropped"} 2\n',
    );
    await removeSink("silent");
    for (const socket of held) socket.destroy();
    silent.close();
  });
});
