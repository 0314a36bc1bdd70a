/** A time-series chart (uPlot): one x axis of instants, one or more series. */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "preact/hooks";

export interface Series {
  label: string;
  values: number[];
  color: string;
}

const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777"];
export const colour = (i: number) => PALETTE[i % PALETTE.length]!;

/** Bits per second as a short text (kb/s, Mb/s, Gb/s). */
export function bitRate(bps: number): string {
  const units = ["b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"];
  let v = bps;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(v < 10 && u > 0 ? 2 : 0)} ${units[u]}`;
}

export function TimeChart({ title, times, series, unit }: { title: string; times: string[]; series: Series[]; unit?: "bps" | "count" }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const x = times.map((t) => Date.parse(t) / 1000);
    const data: uPlot.AlignedData = [x, ...series.map((s) => s.values)];
    const width = Math.max(300, box.current.clientWidth || 480);
    const format = unit === "bps" ? (v: number) => bitRate(v) : (v: number) => v.toLocaleString("en");
    plot.current?.destroy();
    plot.current = new uPlot(
      {
        width,
        height: 220,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)) }))],
        axes: [{}, { size: 84, values: (_u: uPlot, ticks: number[]) => ticks.map(format) }],
        legend: { live: false },
      },
      data,
      box.current,
    );
    return () => {
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
