/**
 * Syslog shipping through the real launcher to Debian's rsyslogd (issue #25):
 * every log entry at or above a destination's floor arrives as an RFC 5424
 * message (parsed here by the test's own parser, from the RFC's ABNF) equal
 * field by field to what GET /logs/tail shows; with the receiver stopped the
 * API still answers, what overflowed the queue is exactly what the counter
 * and the resumption entry say was lost, and shipping resumes.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { parse5424, type Syslog5424 } from "./rfc5424-parse.ts";
import { startRsyslog, type Rsyslog } from "./rsyslog.ts";
import { makeTestCa } from "./test-ca.ts";

// Three appliances' listeners, then the receivers' ports: below the ephemeral range, so rsyslogd gets its port back on
// a restart.
const PORT_BASE = await freePortBase(6);
const RECEIVER_PORT = PORT_BASE + 3;
const TLS_RECEIVER_PORT = PORT_BASE + 4;
const RETENTION_PORT = PORT_BASE + 5;
const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x";
/** RFC 5424 §6.2.1's codes: local3 is 19; severities emergency 0 … debug 7. */
const LOCAL3 = 19;
const SEVERITY_CODES: Record<string, number> = {
  emergency: 0,
  alert: 1,
  critical: 2,
  error: 3,
  warning: 4,
  notice: 5,
  info: 6,
  debug: 7,
};
const FLOOR = SEVERITY_CODES.notice!;

interface Entry {
  seq: number;
  timestamp: string;
  severity: string;
  msgId: string;
  fields: Record<string, string | number | boolean | null>;
}

let fleet: RunningFleet;
let rsyslog: Rsyslog;
let tlsRsyslog: Rsyslog;
let retention: Rsyslog;

/**
 * A private CA the appliance trusts through the launcher's NODE_EXTRA_CA_CERTS, and a receiver certificate for the name
 * `localhost` only.
 */
async function testCa(): Promise<{ caFile: string; certFile: string; keyFile: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-syslog-ca-"));
  const ca = makeTestCa(dir, "bngfleet test syslog CA");
  return { caFile: ca.caFile, ...ca.issue("receiver", "localhost") };
}

beforeAll(async () => {
  const ca = await testCa();
  rsyslog = await startRsyslog(RECEIVER_PORT);
  tlsRsyslog = await startRsyslog(TLS_RECEIVER_PORT, ca);
  retention = await startRsyslog(RETENTION_PORT);
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(PORT_BASE),
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_FRESH: "1",
      NODE_EXTRA_CA_CERTS: ca.caFile,
    },
    [PORT_BASE],
  );
}, 120_000);

afterAll(async () => {
  await rsyslog?.stop();
  await tlsRsyslog?.stop();
  await retention?.stop();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const api = (path: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${path}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

const tail = async (sinceSeq: number): Promise<Entry[]> => {
  const answer = await api(`/api/v1/logs/tail?count=1000&sinceSeq=${sinceSeq}`);
  expect(answer.status).toBe(200);
  return answer.json<{ entries: Entry[] }>().entries;
};
const lastSeq = async () => (await api("/api/v1/logs/tail?count=1")).json<{ lastSeq: number }>().lastSeq;
const received = async (): Promise<Syslog5424[]> => (await rsyslog.messages()).map(parse5424);
const seqOf = (message: Syslog5424) => Number(message.structuredData["entry@32473"]?.seq);
const shipped = (entries: Entry[]) => entries.filter((e) => SEVERITY_CODES[e.severity]! <= FLOOR);
const droppedCounter = async (destination = "siem") => {
  const text = (await api("/api/v1/metrics")).text;
  return Number(new RegExp(`^bng_syslog_dropped_total\\{destination="${destination}"\\} (\\d+)$`, "m").exec(text)?.[1]);
};
/** A commit whose comment (logged in config.commit) holds every character RFC 5424 §6.3.3 escapes in a PARAM-VALUE. */
const configure = async (fields: Record<string, unknown>, key = "siem") => {
  const put = await api(
    "/api/v1/config",
    { comment: 'syslog "siem" \\ [edge] ]', listOps: [{ listPath: "logging.syslog", key, fields }] },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
};
/** A scripted burst of entries: alert tests (notice), a failed login (warning), a configuration commit (notice). */
const script = async (alerts: number) => {
  for (let i = 0; i < alerts; i++)
    expect((await api("/api/v1/alarms/test", { severity: "minor", text: `syslog check ${i}` })).status).toBe(200);
  expect(
    (
      await fetchJson(`https://127.0.0.1:${PORT_BASE}/api/v1/auth/login`, {
        insecure: true,
        body: { username: "admin", password: "not-the-password" },
      })
    ).status,
  ).toBe(401);
};
/** Waits until the receiver holds the entry `seq`. */
const arrived = (seq: number) =>
  expect
    .poll(async () => (await received()).some((m) => seqOf(m) === seq), { timeout: 45_000, interval: 250 })
    .toBe(true);

describe("syslog shipping", () => {
  let start = 0;

  it("delivers every entry at or above the floor as RFC 5424, equal field by field to logs/tail", {
    timeout: 90_000,
  }, async () => {
    start = await lastSeq();
    await configure({
      host: "127.0.0.1",
      port: String(RECEIVER_PORT),
      transport: "tcp",
      severity: "notice",
      facility: "local3",
    });
    await script(3);
    await configure({ queueSize: "5000" });
    const end = await lastSeq();
    const expected = shipped((await tail(start)).filter((e) => e.seq <= end));
    expect(expected.map((e) => e.msgId)).toEqual(
      expect.arrayContaining(["config.commit", "audit.alarm.test", "auth.login.failed"]),
    );
    await arrived(expected.at(-1)!.seq);

    const bySeq = new Map((await received()).map((m) => [seqOf(m), m]));
    for (const entry of expected) {
      const message = bySeq.get(entry.seq);
      expect(message, `seq ${entry.seq} ${entry.msgId}`).toBeDefined();
      const fields = Object.fromEntries(
        Object.entries(entry.fields).flatMap(([key, value]) => (value === null ? [] : [[key, String(value)]])),
      );
      expect(message).toEqual({
        facility: LOCAL3,
        severity: SEVERITY_CODES[entry.severity],
        version: 1,
        timestamp: entry.timestamp,
        hostname: "edge-1",
        appName: "bng",
        procId: null,
        msgId: entry.msgId,
        structuredData: { "entry@32473": { seq: String(entry.seq) }, "fields@32473": fields },
        msg: null,
      });
    }
    // Nothing below the floor was shipped, nothing twice.
    const seqs = (await received()).map(seqOf);
    expect(new Set(seqs).size).toBe(seqs.length);
    const below = (await tail(start)).filter((e) => SEVERITY_CODES[e.severity]! > FLOOR).map((e) => e.seq);
    expect(seqs.filter((s) => below.includes(s))).toEqual([]);
  });

  it("carries an act's own instant: a commit's entry, its syslog message and its " +
    "committedUtc agree to the millisecond, as an alert test's do with sentUtc", {
    timeout: 90_000,
  }, async () => {
    const put = await api(
      "/api/v1/config",
      { comment: "instant check", listOps: [{ listPath: "vrfs", key: "cust-instant", fields: { tableId: "4711" } }] },
      "PUT",
    );
    expect(put.status, put.text).toBe(200);
    const { committedUtc, version } = put.json<{ committedUtc: string; version: number }>();
    const sent = (await api("/api/v1/alarms/test", { severity: "minor", text: "instant check" })).json<{
      sentUtc: string;
    }>();
    const entries = await tail(start);
    const commit = entries.find((e) => e.msgId === "config.commit" && e.fields.version === version)!;
    const test = entries.filter((e) => e.msgId === "audit.alarm.test").at(-1)!;
    // Not a 10 s step's instant: the act's own, to the millisecond.
    expect(commit.timestamp).toBe(committedUtc);
    expect(test.timestamp).toBe(sent.sentUtc);
    await arrived(test.seq);
    const bySeq = new Map((await received()).map((m) => [seqOf(m), m]));
    expect(bySeq.get(commit.seq)?.timestamp).toBe(committedUtc);
    expect(bySeq.get(test.seq)?.timestamp).toBe(sent.sentUtc);
  });

  it("keeps answering while the receiver is down, counts exactly what overflowed the queue, and resumes", {
    timeout: 90_000,
  }, async () => {
    await configure({ queueSize: "3" });
    const before = await lastSeq();
    await arrived(shipped(await tail(before - 1)).at(-1)!.seq);
    expect(await droppedCounter()).toBe(0);

    await rsyslog.stop();
    // Every request is answered while nothing listens: 8 alert tests and a failed login, 10 entries at the floor
    // against a queue of 3.
    await script(8);
    expect(await droppedCounter()).toBeGreaterThanOrEqual(6);

    await rsyslog.start();
    // Shipping resumes at the next reconnection (backoff): it says so first, then what follows arrives.
    await expect
      .poll(async () => (await received()).some((m) => m.msgId === "syslog.entries.lost"), {
        timeout: 45_000,
        interval: 250,
      })
      .toBe(true);
    await script(1);
    const end = await lastSeq();
    await arrived(shipped(await tail(end - 1)).at(-1)!.seq);

    const entries = await tail(before);
    const expected = shipped(entries.filter((e) => e.seq <= end)).map((e) => e.seq);
    const got = new Set((await received()).map(seqOf));
    const missing = expected.filter((seq) => !got.has(seq));
    // Lost is exactly what the counter counted, and the resumption entry says so once.
    expect(missing.length).toBeGreaterThanOrEqual(6);
    expect(await droppedCounter()).toBe(missing.length);
    const reports = entries.filter((e) => e.msgId === "syslog.entries.lost");
    expect(reports.map((e) => e.fields)).toEqual([{ destination: "siem", lost: missing.length }]);
    expect(got.has(reports[0]!.seq)).toBe(true);
  });
});

describe("syslog over TLS (RFC 5425)", () => {
  const tlsReceived = async () => (await tlsRsyslog.messages()).map(parse5424);

  it("delivers to a receiver whose certificate the appliance trusts (a private CA through NODE_EXTRA_CA_CERTS)", {
    timeout: 90_000,
  }, async () => {
    const start = await lastSeq();
    await configure(
      { host: "localhost", port: String(TLS_RECEIVER_PORT), transport: "tls", severity: "notice" },
      "siem-tls",
    );
    await script(1);
    const end = await lastSeq();
    const expected = shipped((await tail(start)).filter((e) => e.seq <= end));
    await expect
      .poll(async () => (await tlsReceived()).some((m) => seqOf(m) === expected.at(-1)!.seq), {
        timeout: 45_000,
        interval: 250,
      })
      .toBe(true);
    const got = new Map((await tlsReceived()).map((m) => [seqOf(m), m]));
    for (const entry of expected) expect(got.get(entry.seq)?.msgId, `seq ${entry.seq}`).toBe(entry.msgId);
  });

  it("never sends to one whose certificate does not name the host: entries wait, then overflow and are counted", {
    timeout: 90_000,
  }, async () => {
    // The same receiver reached as 127.0.0.1: its certificate names only localhost, and verification is never off.
    await configure(
      { host: "127.0.0.1", port: String(TLS_RECEIVER_PORT), transport: "tls", severity: "notice", queueSize: "1" },
      "siem-tls",
    );
    const before = (await tlsReceived()).length;
    await script(3);
    await expect.poll(() => droppedCounter("siem-tls"), { timeout: 45_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    const after = (await tlsReceived()).slice(before).map((m) => m.msgId);
    expect(after).not.toContain("auth.login.failed");
  });
});

describe("CGN compliance logging through the syslog driver", () => {
  interface BindingRow {
    bindingIndex: number;
    group: string;
    insideVrf: string;
    insideIp: string;
    publicIp: string;
    sessionId: number;
    subscriberId: string | null;
    portBlocks: string[];
  }
  const records = async () => (await retention.messages()).map(parse5424).filter((m) => m.msgId?.startsWith("cgn."));
  const bindings = async () => (await api("/api/v1/cgn/bindings?limit=1000")).json<{ items: BindingRow[] }>().items;
  const lostBySyslog = async () =>
    (await api("/api/v1/cgn/status")).json<{ eventsLostByDriver: Record<string, number> | null }>().eventsLostByDriver
      ?.syslog;
  /** A record's fields as a binding row tells them, per port block. */
  const recordOf = (row: BindingRow, portBlock: string) => ({
    bindingIndex: String(row.bindingIndex),
    group: row.group,
    publicIp: row.publicIp,
    portBlock,
    insideVrf: row.insideVrf,
    insideIp: row.insideIp,
    sessionId: String(row.sessionId),
    ...(row.subscriberId === null ? {} : { subscriberId: row.subscriberId }),
  });

  it("ships port-block allocations and releases, each as the bindings list shows the block, to its own destination", {
    timeout: 90_000,
  }, async () => {
    await configure({ host: "127.0.0.1", port: String(RETENTION_PORT), transport: "tcp", stream: "cgn" }, "retention");
    // Sessions come and go on the live clock: an allocation arrives, and it is a block the bindings list shows.
    await expect
      .poll(async () => (await records()).some((m) => m.msgId === "cgn.block.allocated"), {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(true);
    const allocated = (await records())
      .filter((m) => m.msgId === "cgn.block.allocated")
      .map((m) => m.structuredData["fields@32473"]);
    const rows = await bindings();
    const shown = allocated.filter((f) =>
      rows.some((row) => row.bindingIndex === Number(f!.bindingIndex) && row.portBlocks.includes(f!.portBlock!)),
    );
    expect(shown.length).toBeGreaterThan(0);
    const held = rows.find((row) => row.bindingIndex === Number(shown[0]!.bindingIndex))!;
    for (const fields of shown.filter((f) => Number(f!.bindingIndex) === held.bindingIndex))
      expect(fields).toEqual(recordOf(held, fields!.portBlock!));

    // A session disconnected: every block of its binding is released, as the list showed it, at the time the log says.
    const row = (await bindings()).find((b) => b.sessionId > 0)!;
    expect((await api(`/api/v1/sessions/${row.sessionId}`, undefined, "DELETE")).status).toBe(200);
    const released = async () =>
      (await records()).filter(
        (m) =>
          m.msgId === "cgn.block.released" &&
          m.structuredData["fields@32473"]!.bindingIndex === String(row.bindingIndex) &&
          m.structuredData["fields@32473"]!.sessionId === String(row.sessionId),
      );
    await expect
      .poll(async () => (await released()).length, { timeout: 30_000, interval: 250 })
      .toBe(row.portBlocks.length);
    for (const message of await released()) {
      expect(message.structuredData["fields@32473"]).toEqual(
        recordOf(row, message.structuredData["fields@32473"]!.portBlock!),
      );
      expect(message).toMatchObject({
        severity: SEVERITY_CODES.info,
        hostname: "edge-1",
        appName: "bng",
        facility: 16,
      });
      expect(message.structuredData["record@32473"]?.seq).toMatch(/^\d+$/);
    }
  });

  it("counts the driver's losses in eventsLostByDriver while its receiver is down", { timeout: 90_000 }, async () => {
    // Nothing lost while the receiver is up, read before the queue shrinks to one: a single tick's burst of
    // records overflows a queue of one even with the receiver up (a CI run read 6 between the two requests).
    expect(await lostBySyslog()).toBe(0);
    await configure({ queueSize: "1" }, "retention");
    await retention.stop();
    // Disconnecting sessions releases their blocks: more records than a queue of one holds.
    for (const row of (await bindings()).filter((b) => b.sessionId > 0).slice(0, 3))
      expect((await api(`/api/v1/sessions/${row.sessionId}`, undefined, "DELETE")).status).toBe(200);
    await expect.poll(lostBySyslog, { timeout: 60_000, interval: 500 }).toBeGreaterThan(0);
    const metrics = (await api("/api/v1/metrics")).text;
    expect(Number(/^bng_cgn_events_lost_total\{driver="syslog"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    await retention.start();
    await expect
      .poll(
        async () =>
          (await tail(Math.max(0, (await lastSeq()) - 200))).some(
            (e) => e.msgId === "syslog.entries.lost" && e.fields.destination === "retention",
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
  });
});
