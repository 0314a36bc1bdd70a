import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario, send } from "./helpers.ts";
import type { CaptureRecord as Capture, CaptureRow as Row } from "../../src/schemas/captures.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { LogTail as Tail } from "../../src/schemas/logs.ts";
import type { SessionDetail, SessionList } from "../../src/schemas/sessions.ts";

const COLLECTOR = "192.0.2.200";
const sessionIds = async (n: number) => (await get<SessionList>(`/api/v1/sessions?limit=${n}`)).items.map((s) => s.id);
const start = (id: number, body: Record<string, unknown>, headers = admin) =>
  send("POST", `/api/v1/sessions/${id}/capture`, body, headers);
const stop = (id: number, headers = admin) => send("DELETE", `/api/v1/sessions/${id}/capture`, undefined, headers);
const unlimited = { destinationIp: COLLECTOR, maxPackets: null, maxDurationSeconds: null };

describe("starting and stopping a capture", () => {
  it("mirrors a session for an operator, lists it, stops it, and audits both actions with the actor", async () => {
    await advance(600);
    const [id] = await sessionIds(1);
    const operator = await tokenWithRole("operator", "noc-capture");
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");

    const started = await start(
      id!,
      { destinationIp: COLLECTOR, maxPackets: 0, maxDurationSeconds: null },
      bearer(operator),
    );
    expect(started.status).toBe(200);
    const record = await started.json<Capture>();
    expect(record).toMatchObject({ sessionId: id, destinationIp: COLLECTOR, maxPackets: 0, maxDurationSeconds: null });
    expect((await get<SessionDetail>(`/api/v1/sessions/${id}`)).capture).toEqual(record);

    // No churn while the capture is watched: a departure may pick its session (see "ends a capture after
    // maxDurationSeconds").
    await scenario({ action: "set-churn-multiplier", multiplier: 0 });
    await advance(60);
    const [row] = await get<Row[]>("/api/v1/captures");
    expect(row).toMatchObject({ ...record, elapsedSeconds: 60 });
    expect(row!.packetsMirrored).toBeGreaterThan(0);
    await scenario({ action: "set-churn-multiplier", multiplier: 1 });

    const stopped = await stop(id!, bearer(operator));
    expect(await stopped.json()).toEqual({ status: "stopped", sessionId: id });
    expect(await get<Row[]>("/api/v1/captures")).toEqual([]);

    const entries = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries;
    expect(entries.find((e) => e.msgId === "audit.capture.start")!.fields).toEqual({
      sessionId: id,
      destinationIp: COLLECTOR,
      maxPackets: 0,
      maxDurationSeconds: null,
      actor: "token:noc-capture",
    });
    expect(entries.find((e) => e.msgId === "audit.capture.stop")!.fields).toEqual({
      sessionId: id,
      actor: "token:noc-capture",
    });
    expect(entries.find((e) => e.msgId === "capture.stop")!.fields).toMatchObject({
      sessionId: id,
      reason: "operator",
    });
  });

  it("refuses a second capture on a session with 409, unknown sessions and absent captures with 404", async () => {
    await advance(600);
    const [id] = await sessionIds(1);
    expect((await start(id!, unlimited)).status).toBe(200);
    const second = await start(id!, { ...unlimited, destinationIp: "192.0.2.201" });
    expect(second.status).toBe(409);
    expect(second.headers.get("content-type")).toBe("application/problem+json");
    expect((await start(4_000_000_000, unlimited)).status).toBe(404);
    expect((await stop(4_000_000_000)).status).toBe(404);
    expect((await stop(id!)).status).toBe(200);
    expect((await stop(id!)).status).toBe(404);
  });

  it("requires all three keys, limits that are null or non-negative int32, and an IP destination", async () => {
    await advance(300);
    const [id] = await sessionIds(1);
    const pointers = async (body: unknown) =>
      (await (await start(id!, body as Record<string, unknown>)).json<z.output<typeof ProblemDetails>>()).errors?.map(
        (e) => e.pointer,
      );
    expect(await pointers({ destinationIp: COLLECTOR })).toEqual(["#/maxPackets", "#/maxDurationSeconds"]);
    expect(await pointers({ ...unlimited, maxPackets: -1 })).toEqual(["#/maxPackets"]);
    expect(await pointers({ ...unlimited, maxDurationSeconds: 2 ** 31 })).toEqual(["#/maxDurationSeconds"]);
    expect(await pointers({ ...unlimited, destinationIp: "collector.example" })).toEqual(["#/destinationIp"]);
    expect((await start(id!, { ...unlimited, destinationIp: "2001:db8::7" })).status).toBe(200);
  });

  it("is for operators: a read-only token may list but not start or stop", async () => {
    await advance(300);
    const [id] = await sessionIds(1);
    const viewer = await tokenWithRole("read-only");
    expect((await call(`/api/v1/sessions/${id}/capture`, json("POST", unlimited, bearer(viewer)))).status).toBe(403);
    expect((await stop(id!, bearer(viewer))).status).toBe(403);
    expect((await call("/api/v1/captures", { headers: bearer(viewer) })).status).toBe(200);
  });
});

describe("automatic stop", () => {
  it("ends a capture once maxPackets packets are mirrored", async () => {
    await advance(600);
    const [id] = await sessionIds(1);
    await start(id!, { destinationIp: COLLECTOR, maxPackets: 1, maxDurationSeconds: null });
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    await advance(10);
    expect(await get<Row[]>("/api/v1/captures")).toEqual([]);
    const stopEntry = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries.find(
      (e) => e.msgId === "capture.stop",
    )!;
    expect(stopEntry.fields).toMatchObject({ sessionId: id, reason: "max-packets", packets: 1 });
  });

  it("ends a capture after maxDurationSeconds, checked every 10 seconds", async () => {
    await advance(600);
    const [a, b] = await sessionIds(2);
    await start(a!, { destinationIp: COLLECTOR, maxPackets: null, maxDurationSeconds: 30 });
    await start(b!, { destinationIp: COLLECTOR, maxPackets: 0, maxDurationSeconds: 0 });
    await advance(20);
    expect((await get<Row[]>("/api/v1/captures")).map((r) => r.sessionId).sort()).toEqual([a, b].sort());
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    await advance(10);
    expect((await get<Row[]>("/api/v1/captures")).map((r) => r.sessionId)).toEqual([b]);
    const stopEntry = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries.find(
      (e) => e.msgId === "capture.stop",
    )!;
    expect(stopEntry.fields).toMatchObject({ sessionId: a, reason: "max-duration", durationSeconds: 30 });
    // Zero limits are unlimited. No churn meanwhile: a departure may pick this session, and the clock starts at
    // the wall clock's time, so whether one did varied with the hour the suite ran (its capture then ends with it).
    await scenario({ action: "set-churn-multiplier", multiplier: 0 });
    await advance(600);
    expect((await get<Row[]>("/api/v1/captures")).map((r) => r.sessionId)).toEqual([b]);
    await scenario({ action: "set-churn-multiplier", multiplier: 1 });
  });

  it("ends with the session", async () => {
    await advance(600);
    const [id] = await sessionIds(1);
    await start(id!, unlimited);
    expect((await send("DELETE", `/api/v1/sessions/${id}`)).status).toBe(200);
    expect(await get<Row[]>("/api/v1/captures")).toEqual([]);
  });
});
