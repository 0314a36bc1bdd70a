/**
 * The alert fan-out through the real launcher: a NOC's webhook receiver (a
 * plain Node HTTP server here) gets the exact notification POST
 * /api/v1/alarms/test answers with, authenticated with the sink's credential,
 * and the appliance logs the delivery.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x"; // well-formed: the checksum is CRC-32 in base62
const CREDENTIAL = "noc-webhook-credential";

let fleet: RunningFleet;
let receiver: Server;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [
    PORT_BASE,
  ]);
}, 120_000);

afterAll(async () => {
  receiver?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const api = (path: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${path}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

describe("webhook sinks", () => {
  it("receive the test alert as it is answered, with the sink's credential, and the delivery is logged", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/bng`;
    const put = await api(
      "/api/v1/config",
      {
        listOps: [
          {
            listPath: "alarms.sinks",
            key: "noc",
            fields: { kind: "webhook", url, severityFloor: "major", credential: CREDENTIAL },
          },
        ],
      },
      "PUT",
    );
    expect(put.status, put.text).toBe(200);

    const answered = await api("/api/v1/alarms/test", { severity: "critical", text: "webhook check" });
    expect(answered.status).toBe(200);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [hook] = received;
    expect(hook!.path).toBe("/hooks/bng");
    expect(hook!.headers).toMatchObject({
      "content-type": "application/json",
      authorization: `Bearer ${CREDENTIAL}`,
      "x-bng-notification": "test",
    });
    expect(JSON.parse(hook!.body)).toEqual(answered.json());

    await expect
      .poll(
        async () =>
          (await api("/api/v1/logs/tail?count=50"))
            .json<{ entries: { msgId: string; fields: Record<string, unknown> }[] }>()
            .entries.find((e) => e.msgId === "alarm.sink.delivered")?.fields,
        { timeout: 10_000 },
      )
      .toEqual({ sink: "noc", kind: "webhook", notification: "test", alarmId: "alert.test", status: 204, attempts: 1 });
  });
});
