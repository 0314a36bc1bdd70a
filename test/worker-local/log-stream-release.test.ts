/**
 * A closed log stream frees its place at once in the local fleet (issue #25). workerd tells the object of a
 * client's cancel only at the stream's next write, so the launcher's listener, which sees the client leave,
 * frees the place with the handle the stream's answer gave it (Appliance.releaseLogStream, through Miniflare).
 * Here the test is the listener; test/e2e/scrape.test.ts has the whole path with the npm eventsource package.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bearer, call, tokenWithRole } from "../worker/client.ts";
import { readUntil } from "../worker/event-stream.ts";
import { scenario } from "../worker/helpers.ts";

describe("a log stream's place in the local fleet", () => {
  it("is freed by the launcher's release call: four released, four reopened at once are all admitted", async () => {
    const headers = bearer(await tokenWithRole("read-only", "restarting"));
    const openFour = () => Promise.all(Array.from({ length: 4 }, () => call("/api/v1/logs/stream", { headers })));
    const first = await openFour();
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const handles = first.map((r) => r.headers.get("x-bng-stream"));
    for (const handle of handles) expect(handle).toMatch(/^[0-9a-f-]{36}$/);
    const appliance = env.Appliance.getByName("edge-1");
    for (const handle of handles) await appliance.releaseLogStream(handle!);
    const again = await openFour();
    try {
      expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      // The released streams have ended: their readers see the end now, not at a keepalive.
      for (const response of first)
        await expect(readUntil(response.body!.getReader(), () => false)).rejects.toThrow(/ended early/);
    } finally {
      await Promise.all(again.map((r) => r.body?.cancel()));
    }
  });

  it("ignores a handle it did not give", async () => {
    const headers = bearer(await tokenWithRole("read-only", "steady"));
    const response = await call("/api/v1/logs/stream", { headers });
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.includes(": connected\n\n"));
    await env.Appliance.getByName("edge-1").releaseLogStream(crypto.randomUUID());
    // Still open: a new entry arrives on it.
    await scenario({ action: "set-churn-multiplier", multiplier: 2 });
    expect(await readUntil(reader, (text) => text.includes('"msgId":"audit.scenario"'))).toContain("event: log");
    await reader.cancel();
  });
});
