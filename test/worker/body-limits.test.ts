import { describe, expect, it } from "vitest";
import { call } from "./client.ts";

/** A body that never ends on its own, counting what the server pulled from it. */
function endlessBody() {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.pulled += chunk.byteLength;
      // A safety stop far past the cap, so a server that reads everything ends instead of hanging the run.
      if (counter.pulled > 64 * 1024 * 1024) return controller.close();
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

describe("request body limits", () => {
  it(
    "answers 413 to a body without Content-Length once it passes 1 MiB, without " +
      "reading the rest (anonymous login)",
    async () => {
      const { stream, counter } = endlessBody();
      const response = await call("/api/v1/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
      });
      expect(response.status).toBe(413);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 413, detail: "request body exceeds 1048576 bytes" });
      // Read up to the cap, then 8 MiB more dropped as it arrives (so a client that sends everything before it
      // reads still gets the answer: src/http/body.ts), plus what the runtime buffers ahead; never the 64 MiB.
      expect(counter.pulled).toBeLessThan(12 * 1024 * 1024);
    },
  );
});
