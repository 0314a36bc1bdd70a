/**
 * An operator's act is logged at its own instant (issue #50), the one its reply names: a commit's entry
 * carries its `committedUtc`, a test alert's entry its `sentUtc`, to the millisecond. On the manual clock
 * of these tests, an act happens at the instant the clock was advanced to (BNG_CLOCK_START, pinned by
 * vitest.config.ts, plus the advances), not at the last 10 s step.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LogTail } from "../../src/schemas/logs.ts";
import { advance, get, send } from "./helpers.ts";

const pinned = Date.parse(env.BNG_CLOCK_START!);
const newest = async (msgId: string) =>
  (await get<LogTail>("/api/v1/logs/tail?count=200")).entries.filter((e) => e.msgId === msgId).at(-1);

describe("the instant an act is logged at", () => {
  it("is its reply's: a commit's entry carries its committedUtc, to the millisecond", async () => {
    const response = await send("PUT", "/api/v1/config", {
      listOps: [{ listPath: "vrfs", key: "cust-i", fields: { tableId: "4242" } }],
      comment: "instant",
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { committedUtc, version } = await response.json<{ committedUtc: string; version: number }>();
    const entry = await newest("config.commit");
    expect(entry?.fields).toMatchObject({ version, comment: "instant" });
    expect(entry?.timestamp).toBe(committedUtc);
  });

  it(
    "is the manual clock's: advanced 15 s from its start, a test alert is sent at " + "start + 15 s, and logged then",
    async () => {
      await advance(15);
      const sent = await (await send("POST", "/api/v1/alarms/test", { severity: "major" })).json<{ sentUtc: string }>();
      // The model starts at the pinned instant's 10 s step (00 s here): one step run, 5 s carried past it.
      const start = Math.floor(pinned / 10_000) * 10_000;
      expect(sent.sentUtc).toBe(new Date(start + 15_000).toISOString());
      expect((await newest("audit.alarm.test"))?.timestamp).toBe(sent.sentUtc);
    },
  );

  it("never goes back as seq goes up, across steps and acts", async () => {
    await advance(95);
    await send("POST", "/api/v1/alarms/test", { severity: "minor" });
    await advance(40);
    const times = (await get<LogTail>("/api/v1/logs/tail?count=1000")).entries.map((e) => Date.parse(e.timestamp));
    expect(times.length).toBeGreaterThan(20);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
