/**
 * Issue #50: an alarm raised while every receiver is down reaches each of them once they are back, exactly
 * once, and what a sink's queue cannot hold is counted exactly. The receivers are real and nobody here wrote
 * them but the webhook's: a Node HTTP server, a mail server (npm smtp-server, STARTTLS and AUTH, its
 * certificate from a throw-away CA the appliance trusts through NODE_EXTRA_CA_CERTS) and Debian's mosquitto
 * with a persistent session for Debian's mosquitto_sub, so a message the broker took is delivered to the
 * subscriber whenever it reconnects. Each is stopped for 30 s, then started again on the same port.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertNotification } from "../../src/schemas/alarms.ts";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { makeTestCa } from "./test-ca.ts";

const PORT_BASE = await freePortBase(1);
const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x"; // well-formed: the checksum is CRC-32 in base62
const MAIL = { user: "bng-alerts", password: "relay-password" };
const BROKER = { user: "bng-edge", password: "broker-password" };
const NOC = { user: "noc", password: "noc-password" };
const PREFIX = "isp/outage";
const MOSQUITTO = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto";
const OUTAGE_MS = 30_000;

let dir: string;
let fleet: RunningFleet;
const ports = { webhook: 0, smtp: 0, mqtt: 0 };
/** What each receiver got: the notifications, as they arrived. */
const got = { webhook: [] as AlertNotification[], smtp: [] as AlertNotification[], mqtt: [] as AlertNotification[] };
let webhook: Server | null = null;
let mail: SMTPServer | null = null;
let broker: ChildProcess | null = null;
let brokerLog = "";
let subscriber: ChildProcess | null = null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, ready: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what} not ready:\n${brokerLog.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const run = (command: string, ...args: string[]) =>
  execFileSync(command, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });

async function webhookUp(): Promise<void> {
  webhook = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      got.webhook.push(JSON.parse(body) as AlertNotification);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => webhook!.listen(ports.webhook, "127.0.0.1", resolve));
}

async function mailUp(): Promise<void> {
  mail = new SMTPServer({
    key: await readFile(path.join(dir, "receiver.key")),
    cert: await readFile(path.join(dir, "receiver.pem")),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === MAIL.user && auth.password === MAIL.password
        ? callback(null, { user: auth.username })
        : callback(new Error("Invalid username or password")),
    onData: (stream, _session, callback) => {
      simpleParser(stream).then(
        (parsed) => {
          got.smtp.push(JSON.parse(parsed.attachments[0]!.content.toString("utf8")) as AlertNotification);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => mail!.listen(ports.smtp, "127.0.0.1", resolve));
}

async function brokerUp(): Promise<void> {
  const from = brokerLog.length;
  broker = spawn(MOSQUITTO, ["-c", path.join(dir, "mosquitto.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  broker.stdout!.on("data", (chunk) => (brokerLog += chunk));
  broker.stderr!.on("data", (chunk) => (brokerLog += chunk));
  await until("mosquitto", () => brokerLog.slice(from).includes(`Opening ipv4 listen socket on port ${ports.mqtt}`));
}

/**
 * Stops all three: the webhook's open connections cut, the mail server closed, the broker terminated (it saves its
 * sessions).
 */
async function allDown(): Promise<void> {
  await new Promise<void>((resolve) => {
    webhook!.close(() => resolve());
    webhook!.closeAllConnections();
  });
  await new Promise<void>((resolve) => mail!.close(() => resolve()));
  await new Promise<void>((resolve) => {
    broker!.once("exit", () => resolve());
    broker!.kill("SIGTERM");
  });
}

const api = (p: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${p}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });
const scenario = async (body: Record<string, unknown>) =>
  expect((await api("/twin/v1/scenario", body)).status).toBe(200);
type SinkState = { name: string; state: string; queued: number; delivered: number; retried: number; dropped: number };
const sinkStates = async () => (await api("/api/v1/alarms/sinks")).json<{ sinks: SinkState[] }>().sinks;
const byName = <T>(states: SinkState[], pick: (s: SinkState) => T) =>
  Object.fromEntries(states.map((s) => [s.name, pick(s)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
const carrying = (list: AlertNotification[], alarmId: string, kind: string) =>
  list.filter((n) => n.alarm.id === alarmId && n.kind === kind);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-outage-"));
  ports.webhook = await freePort();
  ports.smtp = await freePort();
  ports.mqtt = await freePort();
  makeTestCa(dir, "bngfleet test receivers CA").issue("receiver", "127.0.0.1");
  run("mosquitto_passwd", "-b", "-c", "passwd", BROKER.user, BROKER.password);
  run("mosquitto_passwd", "-b", "passwd", NOC.user, NOC.password);
  await writeFile(
    path.join(dir, "mosquitto.conf"),
    [
      `user ${userInfo().username}`,
      // The subscriber's session (its subscription, and what arrives for it while it is away) survives a restart.
      "persistence true",
      `persistence_location ${dir}/`,
      "log_dest stderr",
      ...["error", "warning", "notice", "information", "subscribe"].map((type) => `log_type ${type}`),
      "allow_anonymous false",
      `password_file ${path.join(dir, "passwd")}`,
      `listener ${ports.mqtt} 127.0.0.1`,
      "",
    ].join("\n"),
  );
  await webhookUp();
  await mailUp();
  await brokerUp();
  // A persistent session (-c, QoS 1): what the broker takes while the subscriber reconnects is kept for it.
  subscriber = spawn(
    "stdbuf",
    [
      "-oL",
      "mosquitto_sub",
      "-c",
      "-i",
      "noc-outage",
      "-h",
      "127.0.0.1",
      "-p",
      String(ports.mqtt),
      "-u",
      NOC.user,
      "-P",
      NOC.password,
      "-q",
      "1",
      "-t",
      `${PREFIX}/#`,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let pending = "";
  subscriber.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.trim()) got.mqtt.push(JSON.parse(line) as AlertNotification);
  });
  await until("mosquitto_sub", () => brokerLog.includes(`noc-outage 1 ${PREFIX}/#`));
  const fleetFile = path.join(dir, "fleet.json");
  const appliance = {
    name: "edge-1",
    seed: 1001,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port: 8443 }, hostname: "edge-1.bng.localhost", peers: [] },
  };
  await writeFile(fleetFile, JSON.stringify({ portBase: 8443, appliances: [appliance] }));
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(PORT_BASE),
      BNG_FLEET: fleetFile,
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_FRESH: "1",
      NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem"),
    },
    [PORT_BASE],
  );
  const put = await api(
    "/api/v1/config",
    {
      listOps: [
        {
          listPath: "alarms.sinks",
          key: "hook",
          fields: { kind: "webhook", url: `http://127.0.0.1:${ports.webhook}/hook` },
        },
        {
          listPath: "alarms.sinks",
          key: "mail",
          fields: {
            kind: "smtp",
            url: `smtp://${MAIL.user}@127.0.0.1:${ports.smtp}/?from=bng@isp.example&to=noc@isp.example`,
            credential: MAIL.password,
          },
        },
        {
          listPath: "alarms.sinks",
          key: "bus",
          fields: {
            kind: "bus",
            url: `mqtt://${BROKER.user}@127.0.0.1:${ports.mqtt}/${PREFIX}`,
            credential: BROKER.password,
          },
        },
      ],
    },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
}, 120_000);

afterAll(async () => {
  webhook?.close();
  mail?.close(() => {});
  subscriber?.kill("SIGTERM");
  broker?.kill("SIGTERM");
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("alert sinks through a 30 s outage of every receiver", () => {
  it("deliver an alarm raised while they are down to each once it is back, exactly once", async () => {
    // The sessions up and a CGN group in use: an alarm to raise.
    await scenario({ action: "advance-clock", seconds: 600 });
    await allDown();
    const downAt = Date.now();
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    // Each sink holds the alarm (and any other raised meanwhile, a BGP flap's) and retries it.
    await expect
      .poll(async () => byName(await sinkStates(), (s) => [s.state, s.queued > 0]), { timeout: 20_000 })
      .toEqual({
        bus: ["retrying", true],
        hook: ["retrying", true],
        mail: ["retrying", true],
      });
    await new Promise((r) => setTimeout(r, Math.max(0, downAt + OUTAGE_MS - Date.now())));
    await webhookUp();
    await mailUp();
    await brokerUp();
    // Back within the backoff's cap (30 s) of the receivers' return.
    await expect
      .poll(() => [got.webhook, got.smtp, got.mqtt].map((list) => carrying(list, "cgn.pool.high", "raised").length), {
        timeout: 60_000,
      })
      .toEqual([1, 1, 1]);
    await expect
      .poll(async () => byName(await sinkStates(), (s) => [s.state, s.queued, s.dropped]), { timeout: 40_000 })
      .toEqual({
        bus: ["idle", 0, 0],
        hook: ["idle", 0, 0],
        mail: ["idle", 0, 0],
      });
    // Nothing twice, a moment later too: each receiver has the one notification the appliance sent, the same one.
    await new Promise((r) => setTimeout(r, 2_000));
    const [hook, smtp, mqtt] = [got.webhook, got.smtp, got.mqtt].map((list) =>
      carrying(list, "cgn.pool.high", "raised"),
    );
    expect([hook!.length, smtp!.length, mqtt!.length]).toEqual([1, 1, 1]);
    expect(smtp![0]).toEqual(hook![0]);
    expect(mqtt![0]).toEqual(hook![0]);
    const retried = (await sinkStates()).map((s) => s.retried);
    for (const count of retried) expect(count).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it("count exactly the notifications dropped by a full queue, in the scrape, and " +
    "name them once delivery resumes", async () => {
    const put = await api(
      "/api/v1/config",
      {
        listOps: [
          {
            listPath: "alarms.sinks",
            key: "hook",
            fields: { kind: "webhook", url: `http://127.0.0.1:${ports.webhook}/hook`, queueSize: "3" },
          },
        ],
      },
      "PUT",
    );
    expect(put.status, put.text).toBe(200);
    const dropped = () =>
      api("/api/v1/metrics").then((r) =>
        Number(/^bng_alert_notifications_total\{sink="hook",outcome="dropped"\} (\d+)$/m.exec(r.text)?.[1]),
      );
    const before = await dropped();
    await new Promise<void>((resolve) => {
      webhook!.close(() => resolve());
      webhook!.closeAllConnections();
    });
    const sent: string[] = [];
    for (let i = 0; i < 7; i++)
      sent.push(
        (await api("/api/v1/alarms/test", { severity: "major", text: `overflow ${i}` })).json<AlertNotification>().alarm
          .text,
      );
    // Three held (the first three: a queue keeps the oldest), four dropped.
    expect((await dropped()) - before).toBe(4);
    await webhookUp();
    await expect
      .poll(() => got.webhook.filter((n) => n.alarm.text.startsWith("overflow")).map((n) => n.alarm.text), {
        timeout: 60_000,
      })
      .toEqual(sent.slice(0, 3));
    await expect
      .poll(
        async () =>
          (await api("/api/v1/logs/tail?count=200"))
            .json<{ entries: { msgId: string; fields: Record<string, unknown> }[] }>()
            .entries.filter((e) => e.msgId === "alarm.notifications.lost")
            .map((e) => e.fields),
        { timeout: 10_000 },
      )
      .toEqual([{ sink: "hook", kind: "webhook", lost: 4 }]);
    expect((await dropped()) - before).toBe(4);
  }, 120_000);
});
