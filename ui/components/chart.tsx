/**
 * A time-series chart (uPlot): one x axis of instants, in UTC and 24-hour
 * time as every time the UI shows, one or more series whose values show in
 * the legend as the pointer moves over them; it follows its box's width.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "preact/hooks";
import { bitRate, count, utc, utcClock } from "../format.ts";

export interface Series {
  label: string;
  values: number[];
  color: string;
}

const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777"];
export const colour = (i: number) => PALETTE[i % PALETTE.length]!;

export function TimeChart({
  title,
  times,
  series,
  unit,
}: {
  title: string;
  times: string[];
  series: Series[];
  unit?: "bps" | "count";
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const x = times.map((t) => Date.parse(t) / 1000);
    const data: uPlot.AlignedData = [x, ...series.map((s) => s.values)];
    const width = Math.max(300, box.current.clientWidth || 480);
    const format = unit === "bps" ? bitRate : count;
    plot.current?.destroy();
    plot.current = new uPlot(
      {
        width,
        height: 220,
        series: [
          {
            label: "UTC",
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : utc(new Date(v * 1000).toISOString())),
          },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 1.5,
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)),
          })),
        ],
        // Ticks closer than a minute apart (a young history) need their seconds to tell them apart.
        axes: [
          {
            values: (_u: uPlot, ticks: number[], _axis: number, _space: number, step: number) =>
              ticks.map((t) => utcClock(t, step < 60)),
          },
          { size: 84, values: (_u: uPlot, ticks: number[]) => ticks.map(format) },
        ],
      },
      data,
      box.current,
    );
    // A window resized (or a sidebar collapsed) resizes the chart with its box.
    const resize = new ResizeObserver(() => {
      const w = box.current?.clientWidth;
      if (w && plot.current && Math.abs(plot.current.width - w) > 1)
        plot.current.setSize({ width: Math.max(300, w), height: 220 });
    });
    resize.observe(box.current);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [times, series, unit]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} role="img" aria-label={`${title}: chart over ${times.length} points`} />
    </figure>
  );
}
