/**
 * The web UI's live channel (docs/web-ui.md, Live): a WebSocket the
 * appliance's object admits for a session of its own pages only, pushing GET
 * /system/status's answer as it changes and closing when the session ends.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { SystemStatus } from "../../src/schemas/system.ts";
import { ADMIN_PASSWORD, call, createUser, enrolAndLogin } from "./client.ts";
import { advance, get, scenario } from "./helpers.ts";
import { holdWallClock } from "./totp.ts";

const ORIGIN = "https://edge-1.bng.localhost";
const LIVE = `${ORIGIN}/ui/live`;

/** Asks to open the channel as a browser would: GET with Upgrade: websocket, the page's Origin and the cookie. */
const open = (headers: Record<string, string>) => SELF.fetch(LIVE, { headers: { upgrade: "websocket", ...headers } });

/** An open channel: the statuses it was sent, in order, and how it closed. */
async function watch(cookie: string) {
  const response = await open({ origin: ORIGIN, cookie });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const statuses: SystemStatus[] = [];
  let closed: { code: number; reason: string } | null = null;
  let wake = () => {};
  socket.addEventListener("message", (event) => {
    statuses.push((JSON.parse(event.data as string) as { status: SystemStatus }).status);
    wake();
  });
  socket.addEventListener("close", (event) => {
    closed = { code: event.code, reason: event.reason };
    wake();
  });
  socket.accept();
  /** Waits until `done` holds of what arrived (each arrival rechecks it). */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { socket, statuses, closed: () => closed, until };
}

async function expectProblem(response: Response, status: number, detail: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect((await response.json<{ detail: string }>()).detail).toMatch(detail);
}

describe("the live channel", () => {
  it("refuses a request without the session cookie (401), before any socket", async () => {
    await expectProblem(await open({ origin: ORIGIN }), 401, /session cookie/);
  });

  it("refuses a page of another site (403): cross-site WebSocket hijacking", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    await expectProblem(await open({ origin: "https://evil.example", cookie }), 403, /own pages only/);
    await expectProblem(await open({ cookie }), 403, /Origin absent/);
  });

  it("admits the pages of the appliance's configured listener, and refuses a peer's", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    // fleet-config/fleet.json: edge-1 listens on port 8443 under the hostname edge-1.bng.localhost; edge-2 on 8444.
    const listener = await open({ origin: "https://edge-1.bng.localhost:8443", cookie });
    expect(listener.status).toBe(101);
    listener.webSocket!.accept();
    listener.webSocket!.close();
    await expectProblem(await open({ origin: "https://edge-2.bng.localhost:8444", cookie }), 403, /own pages only/);
  });

  it("refuses an ended session (401)", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    expect(
      (
        await call("/api/v1/auth/logout", {
          method: "POST",
          headers: { cookie: session.cookie, "x-csrf-token": session.csrfToken },
        })
      ).status,
    ).toBe(200);
    await expectProblem(await open({ origin: ORIGIN, cookie: session.cookie }), 401, /session has ended/);
  });

  it("refuses anything but a WebSocket upgrade (426)", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    await expectProblem(await SELF.fetch(LIVE, { headers: { origin: ORIGIN, cookie } }), 426, /WebSocket/);
  });

  it("is open to the read-only role, and sends GET /system/status's answer at once", async () => {
    await createUser("noc", "read-only", "noc-password-1");
    const live = await watch((await enrolAndLogin("noc", "noc-password-1")).cookie);
    await live.until(() => live.statuses.length > 0);
    // The simulated clock stands still (BNG_CLOCK=manual): only the control plane's wall-clock uptime may have moved
    // on.
    const now = await get<SystemStatus>("/api/v1/system/status");
    expect({ ...live.statuses[0]!, controlPlane: now.controlPlane }).toEqual(now);
    live.socket.close();
  });

  it("pushes an alarm a scenario raises, its numbers those of GET /system/status", async () => {
    const live = await watch((await enrolAndLogin("admin", ADMIN_PASSWORD)).cookie);
    await live.until(() => live.statuses.length > 0);
    expect(live.statuses[0]!.alarms.count).toBe(0);
    await advance(600);
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    await advance(60);
    await live.until(() => live.statuses.at(-1)!.alarms.count > 0);
    const now = await get<SystemStatus>("/api/v1/system/status");
    expect(now.alarms.countBySeverity).toEqual(live.statuses.at(-1)!.alarms.countBySeverity);
    expect({ ...live.statuses.at(-1)!, controlPlane: now.controlPlane }).toEqual(now);
    live.socket.close();
  });

  it("closes at the next push once its session has idled out (30 minutes unused)", async () => {
    holdWallClock();
    const live = await watch((await enrolAndLogin("admin", ADMIN_PASSWORD)).cookie);
    await live.until(() => live.statuses.length > 0);
    vi.setSystemTime(Date.now() + 31 * 60 * 1000);
    // A model step (driven by the bootstrap token, not the session) is pushed; the push finds the session gone.
    await advance(10);
    await live.until(() => live.closed() !== null);
    expect(live.closed()).toEqual({ code: 4401, reason: "the session has ended" });
  });

  it(
    "holds at most 4 channels per session: the fifth is refused 429 with " +
      "Retry-After, another session is not, and a closed one frees its place",
    async () => {
      const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
      const four = await Promise.all([1, 2, 3, 4].map(() => watch(cookie)));
      const fifth = await open({ origin: ORIGIN, cookie });
      expect(fifth.headers.get("retry-after")).toBe("5");
      await expectProblem(fifth, 429, /already has 4 live channels open/);
      // A burst is held to the same count: none of these gets a place.
      const burst = await Promise.all([1, 2, 3].map(() => open({ origin: ORIGIN, cookie })));
      expect(burst.map((r) => r.status)).toEqual([429, 429, 429]);
      await createUser("noc", "read-only", "noc-password-1");
      const other = await watch((await enrolAndLogin("noc", "noc-password-1")).cookie);
      four[0]!.socket.close();
      await vi.waitFor(async () => {
        const again = await open({ origin: ORIGIN, cookie });
        expect(again.status).toBe(101);
        again.webSocket!.accept();
        again.webSocket!.close();
      });
      for (const live of [...four, other]) live.socket.close();
    },
  );

  it("closes when its session ends (logout)", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const live = await watch(session.cookie);
    await live.until(() => live.statuses.length > 0);
    await call("/api/v1/auth/logout", {
      method: "POST",
      headers: { cookie: session.cookie, "x-csrf-token": session.csrfToken },
    });
    await live.until(() => live.closed() !== null);
    expect(live.closed()).toEqual({ code: 4401, reason: "the session has ended" });
  });
});
