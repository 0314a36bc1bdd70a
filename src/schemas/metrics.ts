/** The metrics history's wire shape: appliance-wide and per-port series over time. */
import { z } from "zod";

const int32 = z.int32();
const series = z.array(int32);

export const MetricsHistory = z
  .object({
    intervalSeconds: int32.meta({ description: "spacing of the points: 10 s for 1h, 60 s for 6h, 240 s for 24h" }),
    times: z.array(z.string()).meta({ description: "date-time of each point, oldest first; every other array aligns to it" }),
    totalSessions: series.meta({ description: "sessions at the point's instant" }),
    byEncap: z.object({ ipoe: series, pppoeLocal: series, pppoeLac: series, l2tp: series }).meta({ description: "sums to totalSessions point by point" }),
    sessionsUp: series.meta({ description: "sessions established during the interval" }),
    sessionsDown: series.meta({ description: "sessions torn down during the interval" }),
    ports: z.array(
      z
        .object({ portId: z.int(), label: z.string(), rxBps: z.array(z.number()), txBps: z.array(z.number()) })
        .meta({ id: "PortMetrics", description: "rates in bits/second, averaged over each interval" }),
    ),
  })
  .meta({ id: "MetricsHistory" });
export type MetricsHistory = z.output<typeof MetricsHistory>;
