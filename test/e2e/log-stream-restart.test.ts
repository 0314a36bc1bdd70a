/**
 * A log consumer that is killed and restarted never locks itself out (issue #50). Over workerd's own
 * plain-HTTP sockets, as deployed, the object hears of a stream whose client left only at the stream's
 * next write (a keepalive, up to 15 s later), so a consumer restarted at once finds the streams its
 * earlier selves left still holding their places. Here the consumer is a separate Node process running
 * the npm `eventsource` client (which gives up for good on a 429), killed with SIGKILL five times in a
 * row and restarted each time from the last entry it printed, as a consumer keeping its place would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const BOOTSTRAP = "bngtok_" + "Hok".repeat(10) + "0Ysq9x"; // well-formed: the checksum is CRC-32 in base62
const EVENTSOURCE = pathToFileURL(createRequire(import.meta.url).resolve("eventsource")).href;

let fleet: RunningFleet;
let port: number;
let consumerFile: string;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-stream-"));
  const fleetFile = path.join(dir, "fleet.json");
  const appliance = {
    name: "edge-1",
    seed: 1001,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port: 8443 }, hostname: "edge-1.bng.localhost", peers: [] },
  };
  await writeFile(fleetFile, JSON.stringify({ portBase: 8443, appliances: [appliance] }));
  // The consumer: prints `open`, `log <seq>` per entry and `error <status>`; it never exits by itself.
  consumerFile = path.join(dir, "consumer.mjs");
  await writeFile(
    consumerFile,
    [
      `import { EventSource } from ${JSON.stringify(EVENTSOURCE)};`,
      "const [url, token] = process.argv.slice(2);",
      "const source = new EventSource(url, { fetch: (u, init) => fetch(u, { ...init, " +
        "headers: { ...init.headers, authorization: `Bearer ${token}` } }) });",
      'source.onopen = () => console.log("open");',
      "source.onerror = (event) => console.log(`error ${event.code ?? 0}`);",
      'source.addEventListener("log", (event) => console.log(`log ${event.lastEventId}`));',
      "",
    ].join("\n"),
  );
  port = await freePortBase(1);
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(port),
      BNG_FLEET: fleetFile,
      BNG_HTTP: "1",
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_FRESH: "1",
    },
    [port],
  );
}, 120_000);

afterAll(async () => {
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const api = (p: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${port}${p}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** One run of the consumer: what it printed so far, line by line, and how to wait for a line. */
function startConsumer(sinceSeq: number) {
  const lines: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [consumerFile, `http://127.0.0.1:${port}/api/v1/logs/stream?sinceSeq=${sinceSeq}`, BOOTSTRAP],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop()!;
    lines.push(...parts);
  });
  const until = async (what: string, done: () => boolean) => {
    const deadline = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`consumer: no ${what} in ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      // `close`, not `exit`: what it printed before it died is read to the end first.
      child.once("close", () => resolve());
      child.kill("SIGKILL");
    });
  return { lines, until, kill };
}

describe("a log consumer killed and restarted five times in a row", () => {
  it("is admitted every time (no 429) and, restarting from the last seq it printed, misses no entry", async () => {
    // Something to replay: each scenario action logs two entries (the audit and the action).
    const { lastSeq: start } = (await (await api("/api/v1/logs/tail?count=1")).json()) as { lastSeq: number };
    expect((await api("/twin/v1/scenario", { action: "set-churn-multiplier", multiplier: 2 })).status).toBe(200);
    const seen: number[] = [];
    let from = start;
    // Five runs killed as soon as they are reading, one after another with nothing logged between them (but
    // what the live clock logs): each leaves a stream whose place the object frees only at its next write.
    for (let run = 0; run < 5; run++) {
      const consumer = startConsumer(from);
      await consumer.until("open", () => consumer.lines.includes("open"));
      if (run === 0)
        await consumer.until("the replay", () => consumer.lines.filter((l) => l.startsWith("log ")).length >= 2);
      await consumer.kill();
      expect(
        consumer.lines.filter((l) => l.startsWith("error")),
        `run ${run}`,
      ).toEqual([]);
      const read = consumer.lines.filter((l) => l.startsWith("log ")).map((l) => Number(l.slice(4)));
      seen.push(...read);
      from = read.at(-1) ?? from;
    }
    // The sixth keeps reading what is logged now.
    const consumer = startConsumer(from);
    await consumer.until("open", () => consumer.lines.includes("open"));
    const before = consumer.lines.length;
    expect((await api("/twin/v1/scenario", { action: "set-churn-multiplier", multiplier: 3 })).status).toBe(200);
    await consumer.until(
      "the new entries",
      () => consumer.lines.slice(before).filter((l) => l.startsWith("log ")).length >= 2,
    );
    await consumer.kill();
    expect(consumer.lines.filter((l) => l.startsWith("error"))).toEqual([]);
    seen.push(...consumer.lines.filter((l) => l.startsWith("log ")).map((l) => Number(l.slice(4))));
    // Every entry from the first seq to the last, once: the restarts lost nothing and repeated nothing.
    const last = seen.at(-1)!;
    expect(seen).toEqual(Array.from({ length: last - start }, (_, i) => start + 1 + i));
  }, 120_000);
});
