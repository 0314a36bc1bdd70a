/**
 * When a fleet is ready: every appliance answers `GET /api/v1/system/health` on its own public port, as a client
 * will reach it. workerd's sockets accept connections before an appliance's object has opened, so being bound
 * says nothing; the first answer of each object does.
 */
import http from "node:http";
import https from "node:https";
import { LaunchError } from "./config.ts";

/** Appliances asked at once: each first answer opens an object, and a thousand at once would queue in workerd. */
const PARALLEL = 8;
/** Between two tries of one appliance: short, since a start's readiness is what a test runner waits for. */
const RETRY_MS = 50;

/** How often a large fleet's progress is told (`progress`), while its objects open. */
const PROGRESS_MS = 2000;

/**
 * Resolves once every origin's health answers 200; rejects when `signal` aborts. Tells `progress` how many answer,
 * every 2 s.
 */
export async function untilAnswering(
  origins: readonly string[],
  signal: AbortSignal,
  progress: (answering: number) => void = () => {},
): Promise<void> {
  let next = 0;
  let answering = 0;
  const timer = setInterval(() => progress(answering), PROGRESS_MS);
  const worker = async () => {
    while (next < origins.length) {
      const origin = origins[next++]!;
      while (!(await answers(origin))) {
        if (signal.aborted) throw new LaunchError("Start interrupted");
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
      answering++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, origins.length) }, worker));
  } finally {
    clearInterval(timer);
  }
}

/** One health request; false on any failure (not listening yet, reset, a 5xx while the object opens). */
function answers(origin: string): Promise<boolean> {
  const url = `${origin}/api/v1/system/health`;
  return new Promise((resolve) => {
    const done = (ok: boolean) => resolve(ok);
    // The fleet's own self-signed certificates, on loopback: this asks whether it answers, not whom to trust.
    const request = url.startsWith("https:")
      ? https.get(url, { rejectUnauthorized: false, agent: false, timeout: 10_000 }, (response) => finish(response))
      : http.get(url, { agent: false, timeout: 10_000 }, (response) => finish(response));
    const finish = (response: http.IncomingMessage) => {
      response.resume();
      response.on("end", () => done(response.statusCode === 200));
      response.on("error", () => done(false));
    };
    request.on("timeout", () => request.destroy());
    request.on("error", () => done(false));
  });
}
