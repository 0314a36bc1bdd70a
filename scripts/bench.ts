/**
 * `npm run bench`: speed and memory figures, printed beside the goals of
 * issue #11 as ratios to two references measured in the same run. Figures,
 * not pass/fail tests: the machine varies.
 *
 *   npm run bench                          two appliances of `large` (scripts/bench/appliance.ts)
 *   npm run bench -- --profile xlarge      the same with another shipped profile
 *   npm run bench -- --scale [--count N] [--profile P] [--shards K]
 *                                          N appliances (100) of P (`large`) under one launcher, over K workerd
 *                                          processes (BNG_SHARDS; one per core unless told), bench-1 peering with all:
 *                                          bring-up, memory, the fleet overview and search (scripts/bench/scale.ts);
 *                                          issue #28's second fleet is `--count 1000 --profile default`
 *   npm run bench -- --streams N           N log-stream subscribers to one `default` appliance: events a second, gaps,
 *                                          and the CPU an event costs workerd and the relay (scripts/bench/streams.ts)
 *   npm run bench -- --package [--rounds R]
 *                                          the packed package: tarball size, npm install into an empty project, and the
 *                                          time from bngfleet start --json and startFleet() to three appliances
 *                                          answering, fresh and again (scripts/bench/package.ts)
 *   --seconds S                            how long wrk loads each endpoint (3)
 *   --listener relay                       the appliances behind the launcher's Node relay instead of workerd's own
 *                                          sockets
 *
 * Needs wrk (apt-get install wrk).
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { applianceBench } from "./bench/appliance.ts";
import { packageBench } from "./bench/package.ts";
import { requireWrk } from "./bench/load.ts";
import { scaleBench } from "./bench/scale.ts";
import { streamsBench } from "./bench/streams.ts";

const { values } = parseArgs({
  options: {
    scale: { type: "boolean", default: false },
    package: { type: "boolean", default: false },
    rounds: { type: "string", default: "5" },
    streams: { type: "string" },
    profile: { type: "string", default: "large" },
    count: { type: "string", default: "100" },
    // One workerd process per core: workerd runs a Worker on one thread, and the fleet goal is this machine's.
    shards: { type: "string", default: String(availableParallelism()) },
    seconds: { type: "string", default: "3" },
    listener: { type: "string", default: "workerd" },
  },
});

const count = Number(values.count);
const seconds = Number(values.seconds);
if (!Number.isInteger(count) || count < 1)
  throw new Error(`--count must be a positive whole number, not '${values.count}'`);
const shards = Number(values.shards);
if (!Number.isInteger(shards) || shards < 1)
  throw new Error(`--shards must be a positive whole number, not '${values.shards}'`);
if (!Number.isInteger(seconds) || seconds < 1)
  throw new Error(`--seconds must be a positive whole number, not '${values.seconds}'`);
const listener = values.listener;
if (listener !== "workerd" && listener !== "relay")
  throw new Error(`--listener must be workerd or relay, not '${values.listener}'`);

const streams = values.streams === undefined ? undefined : Number(values.streams);
if (streams !== undefined && (!Number.isInteger(streams) || streams < 1))
  throw new Error(`--streams must be a positive whole number, not '${values.streams}'`);

const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a positive whole number, not '${values.rounds}'`);

if (values.package) {
  await packageBench({ rounds });
} else if (streams !== undefined) {
  await streamsBench({ streams, listener });
} else if (values.scale) {
  await scaleBench({ profile: values.profile, count, shards });
} else {
  await requireWrk();
  await applianceBench({ profile: values.profile, seconds, listener });
}
