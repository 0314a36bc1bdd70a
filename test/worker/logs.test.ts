import { SELF, env, runInDurableObject } from "cloudflare:test";
import { EventSource } from "eventsource";
import { describe, expect, it, vi } from "vitest";
import { Appliance } from "../../durable-objects/appliance.ts";
import { ADMIN_PASSWORD, call, enrolAndLogin, json, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario } from "./helpers.ts";
import type { z } from "zod";
import type { TokenPage } from "../../src/schemas/auth.ts";
import type { LogEntry as Entry, LogTail as Tail } from "../../src/schemas/logs.ts";
import { readToEnd, readUntil } from "./event-stream.ts";

const seqs = (tail: Tail) => tail.entries.map((e) => e.seq);

/** Reads SSE frames from a stream until `done` says the text so far is enough. */
const logEvents = (text: string): Entry[] =>
  [...text.matchAll(/^event: log\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as Entry);

describe("log tail", () => {
  it("returns the newest 100 entries oldest first, lastSeq the newest", async () => {
    // A churn surge: more than a hundred session events in ten minutes.
    await scenario({ action: "set-churn-multiplier", multiplier: 100 });
    await advance(600);
    const tail = await get<Tail>("/api/v1/logs/tail");
    expect(tail.entries).toHaveLength(100);
    expect(seqs(tail)).toEqual(Array.from({ length: 100 }, (_, i) => tail.lastSeq - 99 + i));
    const entry = tail.entries.at(-1)!;
    expect(Object.keys(entry).sort()).toEqual(["fields", "msgId", "seq", "severity", "timestamp"]);
    expect(entry.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("returns up to count entries after sinceSeq, so echoing lastSeq polls", async () => {
    await advance(600);
    const first = await get<Tail>("/api/v1/logs/tail?count=5&sinceSeq=10");
    expect(seqs(first)).toEqual([11, 12, 13, 14, 15]);
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    expect((await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries).toEqual([]);
    await scenario({ action: "set-churn-multiplier", multiplier: 1 });
    const next = await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`);
    expect(next.entries.map((e) => e.msgId)).toEqual(["audit.scenario", "scenario.action"]);
    expect(next.entries[0]!.fields).toMatchObject({ action: "set-churn-multiplier", actor: "token:bootstrap" });
    expect(next.lastSeq).toBe(lastSeq + 2);
  });

  it("clamps count to 1-1000 and refuses a malformed sinceSeq", async () => {
    // Heavy churn logs session events at the sampling budget, well over 1,000 entries.
    await scenario({ action: "set-churn-multiplier", multiplier: 1000 });
    await advance(1200);
    expect((await get<Tail>("/api/v1/logs/tail?count=1")).lastSeq).toBeGreaterThan(1000);
    expect((await get<Tail>("/api/v1/logs/tail?count=0")).entries).toHaveLength(1);
    expect((await get<Tail>("/api/v1/logs/tail?count=-5")).entries).toHaveLength(1);
    expect((await get<Tail>("/api/v1/logs/tail?count=50000")).entries).toHaveLength(1000);
    expect((await call("/api/v1/logs/tail?sinceSeq=abc", { headers: admin })).status).toBe(400);
    expect((await call("/api/v1/logs/tail?sinceSeq=-1", { headers: admin })).status).toBe(400);
  });

  it("records token creation with the creator", async () => {
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    await tokenWithRole("read-only", "grafana");
    const [created] = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries;
    expect(created).toMatchObject({
      msgId: "auth.token.created",
      severity: "notice",
      fields: { name: "grafana", role: "read-only" },
    });
  });

  it("documents the msgId catalogue and the ring's capacity in the API description", async () => {
    const doc = await (await call("/api/v1/openapi/v1.json", { headers: admin })).json<{
      paths: Record<string, Record<string, { description: string }>>;
    }>();
    const description = doc.paths["/api/v1/logs/tail"]!.get!.description;
    expect(description).toContain("10,000");
    for (const msgId of [
      "session.up",
      "radius.server.dead",
      "cgn.identify",
      "audit.capture.start",
      "auth.token.created",
    ])
      expect(description).toContain(`\`${msgId}\``);
    expect(doc.paths["/api/v1/logs/stream"]!.get!.description).toContain("/api/v1/logs/tail");
  });
});

describe("log stream", () => {
  it("replays the entries after sinceSeq as log events, then delivers new ones live", async () => {
    await advance(60);
    const tail = await get<Tail>("/api/v1/logs/tail?count=1000");
    const since = tail.lastSeq - 20;
    const response = await call(`/api/v1/logs/stream?sinceSeq=${since}`, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const reader = response.body!.getReader();
    try {
      const replay = await readUntil(reader, (text) => text.includes(": connected\n\n"));
      const replayed = logEvents(replay);
      expect(replayed.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => since + 1 + i));
      expect(replayed).toEqual(tail.entries.slice(-20));
      expect(replay).toContain(`id: ${since + 1}\nevent: log\n`);

      // The stream is open: an action taken now arrives on it.
      await call("/api/v1/auth/tokens", json("POST", { name: "live-watcher", role: "read-only" }, admin));
      const live = await readUntil(
        reader,
        (text) => logEvents(text).some((e) => e.msgId === "auth.token.created"),
        replay,
      );
      const created = logEvents(live).find((e) => e.msgId === "auth.token.created")!;
      expect(created.seq).toBe(tail.lastSeq + 1);
      expect(created.fields).toMatchObject({ name: "live-watcher", by: "token:bootstrap" });
    } finally {
      await reader.cancel();
    }
  });

  it("starts with only new entries when no sinceSeq is given", async () => {
    await advance(60);
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    const response = await call("/api/v1/logs/stream", { headers: admin });
    const reader = response.body!.getReader();
    try {
      const start = await readUntil(reader, (text) => text.includes(": connected\n\n"));
      expect(logEvents(start)).toEqual([]);
      await scenario({ action: "advance-clock", seconds: 10 });
      const text = await readUntil(reader, (t) => logEvents(t).some((e) => e.msgId === "scenario.action"), start);
      const events = logEvents(text);
      expect(events[0]!.seq).toBe(lastSeq + 1);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => lastSeq + 1 + i));
    } finally {
      await reader.cancel();
    }
  });

  it("sends a `: keepalive` comment 15 seconds after the last frame while nothing happens", async () => {
    // Real time: the interval runs inside the appliance's object, where the test's fake timers cannot reach.
    // Too early (before 15 s) fails; how late a loaded machine delivers it is no behaviour of the appliance.
    const response = await call("/api/v1/logs/stream", { headers: admin });
    const reader = response.body!.getReader();
    try {
      const start = await readUntil(reader, (text) => text.includes(": connected\n\n"));
      const connectedAt = Date.now();
      expect(start).not.toContain(": keepalive");
      const text = await readUntil(reader, (t) => t.includes(": keepalive\n\n"), start);
      const waited = Date.now() - connectedAt;
      expect(waited).toBeGreaterThanOrEqual(14_900);
      expect(text.slice(start.length)).toBe(": keepalive\n\n");
    } finally {
      await reader.cancel();
    }
  });

  it("answers HEAD with the stream's headers and no stream", async () => {
    const response = await call("/api/v1/logs/stream", { method: "HEAD", headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("");
  });

  it("is local to its appliance: the fleet proxy refuses it", async () => {
    expect((await call("/api/v1/fleet/edge-2/logs/stream", { headers: admin })).status).toBe(403);
  });
});

describe("log stream lifetime", () => {
  it("ends with `event: closed` when the token that opened it is revoked", async () => {
    const token = await tokenWithRole("read-only", "watcher");
    const response = await call("/api/v1/logs/stream", { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.includes(": connected\n\n"));
    const tokens = await get<z.output<typeof TokenPage>>("/api/v1/auth/tokens");
    const id = tokens.items.find((t) => t.name === "watcher")!.id;
    expect((await call(`/api/v1/auth/tokens/${id}`, { method: "DELETE", headers: admin })).status).toBe(200);
    const rest = await readToEnd(reader);
    expect(rest).toContain("event: closed\n");
  });

  it("ends with `event: closed` at logout of the session that opened it", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const response = await call("/api/v1/logs/stream", { headers: { cookie: session.cookie } });
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.includes(": connected\n\n"));
    expect(
      (
        await call("/api/v1/auth/logout", {
          method: "POST",
          headers: { cookie: session.cookie, "x-csrf-token": session.csrfToken },
        })
      ).status,
    ).toBe(200);
    expect(await readToEnd(reader)).toContain("event: closed\n");
  });

  it(
    "holds 4 open streams per token: a fifth is admitted and ends the oldest, saying " +
      "why, and the other three stay",
    async () => {
      const token = await tokenWithRole("read-only", "greedy");
      const headers = { authorization: `Bearer ${token}` };
      const open: Response[] = [];
      // One after another, so which is oldest is known.
      for (let i = 0; i < 4; i++) open.push(await call("/api/v1/logs/stream", { headers }));
      expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const readers = open.map((r) => r.body!.getReader());
      for (const reader of readers) await readUntil(reader, (text) => text.includes(": connected\n\n"));
      const fifth = await call("/api/v1/logs/stream", { headers });
      expect(fifth.status).toBe(200);
      const ended = await readToEnd(readers[0]!);
      expect(ended).toMatch(
        /^event: closed\ndata: \{"reason":"replaced: token:greedy opened a newer stream, and holds 4 at most"\}$/m,
      );
      // The other three and the fifth still get what is logged now; another caller is not affected.
      const other = await call("/api/v1/logs/stream", { headers: admin });
      expect(other.status).toBe(200);
      const newest = fifth.body!.getReader();
      await readUntil(newest, (text) => text.includes(": connected\n\n"));
      const live = [...readers.slice(1), newest];
      await scenario({ action: "set-churn-multiplier", multiplier: 2 });
      for (const reader of live)
        expect(await readUntil(reader, (text) => text.includes('"msgId":"audit.scenario"'))).toContain("event: log");
      await Promise.all([...live.map((r) => r.cancel()), other.body!.cancel()]);
    },
  );

  it(
    "tells no one a stream's release handle when deployed (only the local fleet's " + "listener uses and strips it)",
    async () => {
      const response = await call("/api/v1/logs/stream", { headers: admin });
      try {
        expect(response.status).toBe(200);
        expect(response.headers.get("x-bng-stream")).toBeNull();
      } finally {
        await response.body!.cancel();
      }
    },
  );

  it(
    "disconnects a reader that stops reading once it falls 1,000 live entries " + "behind, naming where to resume",
    async () => {
      await get<Tail>("/api/v1/logs/tail?count=1");
      // Inside the object, where nothing between the stream and its reader buffers: the queue is the stream's own.
      const text = await runInDurableObject(env.Appliance.getByName("edge-1"), async (instance: Appliance) => {
        const dataPlane = Appliance.coreOf(instance).dataPlane();
        const opened = dataPlane.logStream(null, "token:stalled", () => true);
        if (!opened.ok) throw new Error(opened.detail);
        const reader = opened.stream.getReader();
        // The reader stalls while 1,200 entries are written.
        for (let i = 0; i < 1200; i++) dataPlane.log("info", "auth.logout", { username: `u${i}` });
        const decoder = new TextDecoder();
        let all = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return all;
          all += decoder.decode(value, { stream: true });
        }
      });
      const overflow = /^event: overflow\ndata: (.*)$/m.exec(text);
      expect(overflow).not.toBeNull();
      const { resumeFromSeq } = JSON.parse(overflow![1]!) as { resumeFromSeq: number };
      const delivered = logEvents(text).map((e) => e.seq);
      // Exactly 1,000 live entries were queued for it, then it was cut, naming the last one it got.
      expect(delivered.length).toBe(1000);
      expect(delivered.at(-1)).toBe(resumeFromSeq);
    },
  );
});

describe("an EventSource following the stream (WHATWG reconnection, the npm eventsource package)", () => {
  /** A response whose body breaks, as a dropped network does, once it has carried `events` complete log events. */
  function cutAfter(response: Response, events: number): Response {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let text = "";
    let passed = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        text += decoder.decode(value, { stream: true });
        const ends = [...text.matchAll(/id: \d+\nevent: log\ndata: [^\n]*\n\n/g)];
        if (ends.length < events) {
          controller.enqueue(encoder.encode(text.slice(passed)));
          passed = text.length;
          return;
        }
        const last = ends[events - 1]!;
        controller.enqueue(encoder.encode(text.slice(passed, last.index + last[0].length)));
        await reader.cancel();
        controller.error(new Error("connection reset"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  it(
    "misses nothing and gets nothing twice across a forced disconnect: Last-Event-ID " +
      "resumes where the stream broke",
    async () => {
      const sent: (string | null)[] = [];
      const received: number[] = [];
      const source = new EventSource("https://edge-1.bng.localhost/api/v1/logs/stream", {
        fetch: async (url, init) => {
          const headers = new Headers(init?.headers);
          sent.push(headers.get("last-event-id"));
          headers.set("authorization", admin.authorization);
          const response = await SELF.fetch(String(url), { ...init, headers });
          return sent.length === 1 ? cutAfter(response, 3) : response;
        },
      });
      source.addEventListener("log", (event) => received.push(Number((event as MessageEvent).lastEventId)));
      try {
        await new Promise<void>((resolve, reject) => {
          source.onopen = () => resolve();
          setTimeout(() => reject(new Error("the stream never opened")), 10_000);
        });
        const first = (await get<Tail>("/api/v1/logs/tail?count=1")).lastSeq;
        // Entries logged on both sides of the break: three before it, the rest while the client is away or back.
        for (let i = 0; i < 8; i++) await scenario({ action: "set-churn-multiplier", multiplier: 1 + i });
        const last = (await get<Tail>("/api/v1/logs/tail?count=1")).lastSeq;
        await vi.waitFor(() => expect(received.at(-1)).toBe(last), { timeout: 20_000, interval: 100 });
        const expected = seqs(await get<Tail>(`/api/v1/logs/tail?count=1000&sinceSeq=${first}`));
        expect(received).toEqual(expected);
        // The reconnection named the third event's seq, the last the broken connection delivered.
        expect(sent).toEqual([null, String(expected[2])]);
      } finally {
        source.close();
      }
    },
  );
});

describe("Last-Event-ID on the stream", () => {
  it("wins over sinceSeq, as an EventSource reconnecting to its first URL needs; an empty one is ignored", async () => {
    for (let i = 0; i < 3; i++) await scenario({ action: "set-churn-multiplier", multiplier: 2 + i });
    const tail = await get<Tail>("/api/v1/logs/tail?count=6");
    const [a, b] = [tail.entries[0]!.seq, tail.entries[3]!.seq];
    for (const [headers, after] of [
      [{ "last-event-id": String(b) }, b],
      [{ "last-event-id": "" }, a],
    ] as const) {
      const response = await call(`/api/v1/logs/stream?sinceSeq=${a}`, { headers: { ...admin, ...headers } });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      try {
        const replay = await readUntil(reader, (text) => text.includes(": connected\n\n"));
        expect(logEvents(replay).map((e) => e.seq)[0]).toBe(after + 1);
      } finally {
        await reader.cancel();
      }
    }
  });

  it("answers 400 naming the header for a value that is no seq", async () => {
    const response = await call("/api/v1/logs/stream", { headers: { ...admin, "last-event-id": "abc" } });
    expect(response.status).toBe(400);
    expect((await response.json<{ detail: string }>()).detail).toContain("Last-Event-ID");
  });
});

describe("audit trail", () => {
  it(
    "keeps a token's creation after anonymous failures have pushed it out of the log " + "ring, and holds none of them",
    async () => {
      await call("/api/v1/auth/tokens", json("POST", { name: "audited", role: "read-only" }, admin));
      await runInDurableObject(env.Appliance.getByName("edge-1"), (instance: Appliance) => {
        // What 10,001 failed anonymous logins write to the ring (the ring holds 10,000).
        for (let i = 0; i < 10_001; i++)
          Appliance.coreOf(instance)
            .dataPlane()
            .log("warning", "auth.login.failed", {
              username: `unknown:${i}`,
              sourceIp: "192.0.2.1",
              factor: "password",
              failures: 1,
            });
      });
      const ring = await get<Tail>("/api/v1/logs/tail?count=1000");
      expect(ring.entries.some((e) => e.msgId === "auth.token.created")).toBe(false);
      const audit = await get<Tail>("/api/v1/logs/tail?source=audit&count=1000");
      expect(audit.entries.filter((e) => e.msgId === "auth.token.created").map((e) => e.fields.name)).toEqual([
        "audited",
      ]);
      expect(audit.entries.filter((e) => e.msgId === "auth.login.failed")).toEqual([]);
      expect(audit.lastSeq).toBe(audit.entries.at(-1)!.seq);
    },
  );
});
