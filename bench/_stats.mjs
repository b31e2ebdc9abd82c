// Small helpers shared by the benchmarks: medians, formatting, a side-by-side table.

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** rows: [label, figure, baseline, unit, goal?]; ratio = figure / baseline. */
export function printTable(title, rows, { ratioLabel = "ratio" } = {}) {
  const head = ["measurement", "figure", "baseline", ratioLabel, "goal"];
  const body = rows.map(([label, figure, baseline, unit, goal = ""]) => [
    label,
    `${fmt(figure)} ${unit}`,
    baseline === undefined ? "" : `${fmt(baseline)} ${unit}`,
    baseline === undefined ? "" : `${(figure / baseline).toFixed(2)}x`,
    goal,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  console.log(title);
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of body) console.log(line(r));
}

function fmt(n) {
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
