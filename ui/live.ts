/**
 * What every page shows of the appliance at once (the header strip's alarms,
 * pending restart, licence and upgrade; the dashboard's and the system page's
 * status; the fleet overview's own row): GET /system/status's answer, pushed
 * by the appliance's object over the live channel (LIVE_PATH, docs/web-ui.md,
 * Live) whenever it changes. Polling is only the fallback, and there is one
 * poller: while the socket cannot open or has dropped, the status is read
 * every POLL_MS and the socket tried again after a back-off that doubles up
 * to RETRY_MAX_MS. A close because the session ended signs the page out.
 */
import { signal } from "@preact/signals";
import { contract } from "bngfleet:contract";
import { LIVE_PATH, LIVE_SESSION_ENDED, type LiveMessage } from "../src/schemas/live.ts";
import { call, sessionLost, type Answer } from "./api.ts";

const POLL_MS = 5_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;

export const applianceStatus = signal<Answer<typeof contract.system.status> | null>(null);
/** Whether the status arrives over the live channel now (pages that follow it then keep no timer of their own). */
export const liveConnected = signal(false);

let following = false;
let socket: WebSocket | undefined;
let poller: ReturnType<typeof setInterval> | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;
let retryMs = RETRY_FIRST_MS;

async function read(): Promise<void> {
  try {
    applianceStatus.value = await call(contract.system.status);
  } catch {
    // The page the person is on says what failed; the strip keeps its last reading.
  }
}

const onVisible = () => document.visibilityState === "visible" && !liveConnected.value && void read();

function poll(on: boolean): void {
  clearInterval(poller);
  poller = on ? setInterval(() => document.visibilityState === "visible" && void read(), POLL_MS) : undefined;
}

function connect(): void {
  const url = new URL(LIVE_PATH, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    liveConnected.value = true;
    retryMs = RETRY_FIRST_MS;
    poll(false);
  };
  ws.onmessage = (event) => {
    applianceStatus.value = (JSON.parse(String(event.data)) as LiveMessage).status;
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = undefined;
    liveConnected.value = false;
    if (!following) return;
    if (event.code === LIVE_SESSION_ENDED) {
      sessionLost.value = true;
      return;
    }
    // Dropped, or never opened: the fallback poller reads now and then; the socket is tried again later.
    void read();
    poll(true);
    retry = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
}

/** Starts following the status (idempotent); `stopLive` ends it at sign-out. */
export function startLive(): void {
  if (following) return;
  following = true;
  retryMs = RETRY_FIRST_MS;
  connect();
  document.addEventListener("visibilitychange", onVisible);
}

export function stopLive(): void {
  following = false;
  clearTimeout(retry);
  poll(false);
  socket?.close(1000, "signed out");
  socket = undefined;
  liveConnected.value = false;
  document.removeEventListener("visibilitychange", onVisible);
  applianceStatus.value = null;
}
