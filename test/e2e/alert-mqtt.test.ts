/**
 * Issue #25: a bus sink through the real launcher, to Debian's mosquitto
 * (its own configuration file, unprivileged, on ports the OS picks) with a
 * password file; Debian's mosquitto_sub, subscribed at QoS 2, receives what
 * the appliance publishes at the QoS it published with (the lower of the two).
 * TLS with a throw-away CA the appliance trusts through NODE_EXTRA_CA_CERTS.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlertNotification } from "../../src/schemas/alarms.ts";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { makeTestCa } from "./test-ca.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x"; // well-formed: the checksum is CRC-32 in base62
const PUBLISHER = { user: "bng-edge", password: "broker-password-never-logged" };
const SUBSCRIBER = { user: "noc", password: "noc-password" };
const PREFIX = "isp/bng";
/** Debian installs the broker in /usr/sbin, which an unprivileged PATH may not hold. */
const MOSQUITTO = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto";

let dir: string;
let fleet: RunningFleet;
let broker: ChildProcess;
let subscriber: ChildProcess;
let brokerOutput = "";
const ports = { plain: 0, tls: 0 };
/** What mosquitto_sub printed, one `<qos> <topic> <payload>` per message. */
const messages: { qos: number; topic: string; payload: string }[] = [];
const closers: (() => void)[] = [];

/** A port free right now on loopback (the kernel's pick). */
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

/** Waits (10 s at most) until `ready` holds; `what` names it in the failure. */
async function until(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what} not ready:\n${brokerOutput}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const run = (command: string, ...args: string[]) =>
  execFileSync(command, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });

const api = (p: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${p}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

async function sink(name: string, url: string, credential: string | null, severityFloor = "major") {
  const put = await api(
    "/api/v1/config",
    { listOps: [{ listPath: "alarms.sinks", key: name, fields: { kind: "bus", url, severityFloor, credential } }] },
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
const outcomesOf = async (name: string) =>
  (await api("/api/v1/logs/tail?count=500"))
    .json<{ entries: Entry[] }>()
    .entries.filter(
      (e) => (e.msgId === "alarm.sink.delivered" || e.msgId === "alarm.sink.failed") && e.fields.sink === name,
    );
const scenario = async (body: Record<string, unknown>) =>
  expect((await api("/twin/v1/scenario", body)).status).toBe(200);
const carrying = (alarmId: string) =>
  messages.filter((m) => (JSON.parse(m.payload) as AlertNotification).alarm.id === alarmId);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-mqtt-"));
  ports.plain = await freePort();
  ports.tls = await freePort();
  makeTestCa(dir, "bngfleet test broker CA").issue("broker", "127.0.0.1");
  run("mosquitto_passwd", "-b", "-c", "passwd", PUBLISHER.user, PUBLISHER.password);
  run("mosquitto_passwd", "-b", "passwd", SUBSCRIBER.user, SUBSCRIBER.password);
  await writeFile(
    path.join(dir, "mosquitto.conf"),
    [
      // Run as root (a container), mosquitto would switch to its own user, who cannot read this directory.
      `user ${userInfo().username}`,
      "persistence false",
      "log_dest stderr", // unbuffered: its lines say when it listens and when the subscriber's subscription is in place
      ...["error", "warning", "notice", "information", "subscribe"].map((type) => `log_type ${type}`),
      "allow_anonymous false",
      `password_file ${path.join(dir, "passwd")}`,
      `listener ${ports.plain} 127.0.0.1`,
      `listener ${ports.tls} 127.0.0.1`,
      `certfile ${path.join(dir, "broker.pem")}`,
      `keyfile ${path.join(dir, "broker.key")}`,
      "",
    ].join("\n"),
  );
  broker = spawn(MOSQUITTO, ["-c", path.join(dir, "mosquitto.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  broker.stdout!.on("data", (chunk) => (brokerOutput += chunk));
  broker.stderr!.on("data", (chunk) => (brokerOutput += chunk));
  await until("mosquitto", () => brokerOutput.includes(`Opening ipv4 listen socket on port ${ports.tls}`));

  // -F: one line per message; stdbuf (coreutils): a line as soon as it is printed, not when a pipe's buffer fills.
  subscriber = spawn(
    "stdbuf",
    [
      "-oL",
      "mosquitto_sub",
      "-i",
      "noc-subscriber",
      "-h",
      "127.0.0.1",
      "-p",
      String(ports.plain),
      "-u",
      SUBSCRIBER.user,
      "-P",
      SUBSCRIBER.password,
      "-q",
      "2",
      "-t",
      `${PREFIX}/#`,
      "-F",
      "MSG %q %t %p",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let pending = "";
  subscriber.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const match = /^MSG (\d) (\S+) (.*)$/.exec(line);
      if (match) messages.push({ qos: Number(match[1]), topic: match[2]!, payload: match[3]! });
    }
  });
  await until("mosquitto_sub", () => brokerOutput.includes(`noc-subscriber 2 ${PREFIX}/#`));

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
  for (const close of closers) close();
  subscriber?.kill("SIGTERM");
  broker?.kill("SIGTERM");
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("MQTT bus sinks", () => {
  it(
    "publish the test alert at QoS 1 on <prefix>/<appliance>/<severity>, the payload " + "the notification answered",
    async () => {
      await sink("bus", `mqtt://${PUBLISHER.user}@127.0.0.1:${ports.plain}/${PREFIX}`, PUBLISHER.password);
      const answered = await api("/api/v1/alarms/test", { severity: "critical", text: "mqtt check" });
      expect(answered.status).toBe(200);
      const notification = answered.json<AlertNotification>();
      await expect.poll(() => carrying("alert.test").length, { timeout: 20_000 }).toBe(1);
      const [message] = carrying("alert.test");
      expect(message!.topic).toBe(`${PREFIX}/${notification.appliance}/critical`);
      expect(message!.qos).toBe(1);
      expect(AlertNotification.parse(JSON.parse(message!.payload))).toEqual(notification);
      await expect
        .poll(() => outcomesOf("bus"), { timeout: 10_000 })
        .toMatchObject([
          {
            msgId: "alarm.sink.delivered",
            fields: { sink: "bus", kind: "bus", notification: "test", alarmId: "alert.test", attempts: 1 },
          },
        ]);
    },
  );

  it("publish a real alarm as it is raised and as it is cleared, in that order", async () => {
    await scenario({ action: "advance-clock", seconds: 600 });
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    await scenario({ action: "advance-clock", seconds: 60 });
    await scenario({ action: "drain-cgn-group", group: "cgn-1" });
    await scenario({ action: "advance-clock", seconds: 60 });
    await expect.poll(() => carrying("cgn.pool.high").length, { timeout: 30_000 }).toBe(2);
    const notes = carrying("cgn.pool.high").map((m) => ({
      topic: m.topic,
      qos: m.qos,
      ...(JSON.parse(m.payload) as AlertNotification),
    }));
    expect(notes.map((n) => [n.kind, n.topic, n.qos, n.alarm.instance])).toEqual([
      ["raised", `${PREFIX}/${notes[0]!.appliance}/major`, 1, "cgn-1"],
      ["cleared", `${PREFIX}/${notes[0]!.appliance}/major`, 1, "cgn-1"],
    ]);
    await removeSink("bus");
  });

  it("publish over TLS on mqtts:", async () => {
    await sink("bus-tls", `mqtts://${PUBLISHER.user}@127.0.0.1:${ports.tls}/${PREFIX}/tls`, PUBLISHER.password);
    const answered = await api("/api/v1/alarms/test", { severity: "major", text: "mqtts check" });
    await expect
      .poll(() => messages.filter((m) => m.topic.startsWith(`${PREFIX}/tls/`)).length, { timeout: 20_000 })
      .toBe(1);
    expect(JSON.parse(messages.find((m) => m.topic.startsWith(`${PREFIX}/tls/`))!.payload)).toEqual(answered.json());
    await removeSink("bus-tls");
  });

  it("log a refused credential as failed after one attempt, and publish nothing", async () => {
    const before = messages.length;
    await sink("bus-wrong", `mqtt://${PUBLISHER.user}@127.0.0.1:${ports.plain}/${PREFIX}/wrong`, "not-the-password");
    await api("/api/v1/alarms/test", { severity: "critical" });
    await expect
      .poll(() => outcomesOf("bus-wrong"), { timeout: 20_000 })
      .toMatchObject([
        {
          msgId: "alarm.sink.failed",
          fields: { sink: "bus-wrong", kind: "bus", notification: "test", reason: "not delivered", attempts: 1 },
        },
      ]);
    expect(messages.length).toBe(before);
    expect((await api("/api/v1/logs/tail?count=500")).text).not.toContain("not-the-password");
    await removeSink("bus-wrong");
  });

  it("try again after a broken connection, and deliver on the second attempt", async () => {
    // A relay in front of the broker that drops the first connection it gets, as a broker restarting would.
    let connections = 0;
    const relay = net.createServer((client) => {
      if (++connections === 1) return client.destroy();
      const upstream = net.connect(ports.plain, "127.0.0.1");
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    closers.push(() => relay.close());
    await sink(
      "bus-retry",
      `mqtt://${PUBLISHER.user}@127.0.0.1:${(relay.address() as AddressInfo).port}/${PREFIX}/retry`,
      PUBLISHER.password,
    );
    await api("/api/v1/alarms/test", { severity: "critical" });
    await expect
      .poll(() => outcomesOf("bus-retry"), { timeout: 20_000 })
      .toMatchObject([{ msgId: "alarm.sink.delivered", fields: { sink: "bus-retry", attempts: 2 } }]);
    // The appliance logs the delivery at the broker's PUBACK; mosquitto_sub prints the message on its own time, so it
    // is awaited as the other tests await theirs.
    await expect
      .poll(() => messages.filter((m) => m.topic.startsWith(`${PREFIX}/retry/`)).length, { timeout: 20_000 })
      .toBe(1);
    await removeSink("bus-retry");
  });
});
