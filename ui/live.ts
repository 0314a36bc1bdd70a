/**
 * What every page shows of the appliance at once (the header strip's alarms,
 * pending restart, licence and upgrade): GET /system/status, read while
 * someone is signed in, every `POLL_MS` and whenever the tab comes back into
 * view, so an alarm a scenario raises reaches the badge without a reload.
 */
import { signal } from "@preact/signals";
import { contract } from "bngfleet:contract";
import { call, type Answer } from "./api.ts";

const POLL_MS = 5_000;

export const applianceStatus = signal<Answer<typeof contract.system.status> | null>(null);

let timer: ReturnType<typeof setInterval> | undefined;

async function read(): Promise<void> {
  try {
    applianceStatus.value = await call(contract.system.status);
  } catch {
    // The page the person is on says what failed; the strip keeps its last reading.
  }
}

const onVisible = () => document.visibilityState === "visible" && void read();

/** Starts following the status (idempotent); `stopLive` ends it at sign-out. */
export function startLive(): void {
  if (timer !== undefined) return;
  void read();
  timer = setInterval(() => document.visibilityState === "visible" && void read(), POLL_MS);
  document.addEventListener("visibilitychange", onVisible);
}

export function stopLive(): void {
  clearInterval(timer);
  timer = undefined;
  document.removeEventListener("visibilitychange", onVisible);
  applianceStatus.value = null;
}

