/**
 * Prometheus text exposition format 0.0.4: `# HELP`, `# TYPE`, then one line
 * per sample. Label values are escaped as the format requires (backslash,
 * double quote, newline), so any VRF or pool name is safe.
 */

export interface MetricFamily {
  name: string;
  type: "counter" | "gauge";
  help: string;
  samples: { labels?: Record<string, string>; value: number }[];
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** Renders metric families as one exposition document. */
export function renderExposition(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {});
      const labelText = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
      lines.push(`${family.name}${labelText} ${formatValue(sample.value)}`);
    }
  }
  return lines.join("\n") + "\n";
}
