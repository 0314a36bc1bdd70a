/**
 * `npm run bench -- --streams N [--listener relay]`: what a log stream's
 * events cost. One `default` appliance with N subscribers to its log stream
 * (npm `eventsource`, as the soak's, four to a read-only token as the API
 * allows), its clock moved a simulated minute every 2.5 s (the soak's pace,
 * bursts of entries as a busy gateway logs them), three windows of 30 s: the
 * events delivered a second, any gap in their seqs, and the CPU each event
 * costs workerd and, behind the relay, the launcher (its Node relay).
 */
import { freePortBase } from "../harness/fleet-process.ts";
import { advance, cpuTotal, fmt, launchBenchFleet, workerdPids } from "./fleet.ts";
import { readLogStream, readOnlyToken, STREAMS_PER_TOKEN, type LogStreamReader } from "./log-streams.ts";

const WINDOWS = 3;
const WINDOW_MS = 30_000;
/** The soak's pace: a simulated minute every 2.5 s of wall clock. */
const STEP_MS = 2_500;

export async function streamsBench(options: { streams: number; listener: "workerd" | "relay" }): Promise<void> {
  const { streams: count, listener } = options;
  console.log(
    `bngfleet log-stream benchmark: ${count} subscribers to one \`default\` ` +
      `appliance, a simulated minute every ${STEP_MS / 1000} s, ${WINDOWS} windows ` +
      `of ${WINDOW_MS / 1000} s, plain HTTP ` +
      `through ${listener === "relay" ? "the launcher's Node relay" : "workerd's own socket"}\n`,
  );
  const bench = await launchBenchFleet("bench-streams", {
    count: 1,
    profile: "default",
    portBase: await freePortBase(1),
    listener,
  });
  const base = bench.bases[0]!;
  const subscribers: LogStreamReader[] = [];
  const events = () => subscribers.reduce((n, r) => n + r.events, 0);
  try {
    // Brought up first (ten simulated minutes), so the windows see a gateway at its steady state.
    for (let i = 0; i < 60; i++) await advance(base, 10);
    const workerd = workerdPids(bench.fleet.pid)[0]!;
    // One window of the clock moving: its wall seconds, the CPU workerd and the launcher spent, the events delivered.
    const window = async () => {
      const [launcher0, workerd0, events0, t0] = [
        cpuTotal(bench.fleet.pid),
        cpuTotal(workerd),
        events(),
        performance.now(),
      ];
      while (performance.now() - t0 < WINDOW_MS) {
        const step = performance.now();
        await advance(base, 60);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, STEP_MS - (performance.now() - step))));
      }
      return {
        seconds: (performance.now() - t0) / 1000,
        launcher: cpuTotal(bench.fleet.pid) - launcher0,
        workerd: cpuTotal(workerd) - workerd0,
        events: events() - events0,
      };
    };
    // The same clock with no one subscribed: what the model's steps and an idle launcher cost a second, which the
    // windows below subtract to give what the events alone cost.
    const idle = await window();
    const baseline = { workerd: idle.workerd / idle.seconds, launcher: idle.launcher / idle.seconds };
    const ms = (cpuSeconds: number) => fmt(cpuSeconds * 1000, 0);
    console.log(
      `  no subscribers   CPU a second: workerd ${ms(baseline.workerd)} ms (the ` +
        `model's steps), the launcher ${ms(baseline.launcher)} ms`,
    );

    const tokens: string[] = [];
    for (let i = 0; i < Math.ceil(count / STREAMS_PER_TOKEN); i++)
      tokens.push(await readOnlyToken(base, `bench-stream-${i}`));
    for (let i = 0; i < count; i++) subscribers.push(readLogStream(base, tokens[Math.floor(i / STREAMS_PER_TOKEN)]!));
    // Every stream open and its replay read before the first window.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (let i = 1; i <= WINDOWS; i++) {
      const w = await window();
      const perEvent = (spent: number, perSecond: number) =>
        `${fmt(((spent - perSecond * w.seconds) * 1e6) / w.events, 1)} µs`;
      const relay = listener === "relay" ? `, the launcher (its relay) ${perEvent(w.launcher, baseline.launcher)}` : "";
      console.log(
        `  window ${i}         ${fmt(w.events / w.seconds, 0)} events/s to ${count} ` +
          `subscribers, ${subscribers.reduce((n, r) => n + r.gaps, 0)} gaps so far; CPU an ` +
          `event beyond the windows without subscribers: ` +
          `workerd ${perEvent(w.workerd, baseline.workerd)}${relay}`,
      );
    }
  } finally {
    for (const r of subscribers) r.es.close();
    await bench.fleet.stop();
  }
}
