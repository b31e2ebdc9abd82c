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

/**
 * The rows of one Node's start-up table: the first case is the baseline (bare node), each other its median against
 * the baseline's, with its goal (a ratio) met or MISSED; a missed goal is added to `missed` with the Node's version.
 */
export function goalRows(cases, version, missed) {
  const base = median(cases[0].samples);
  return cases.map((c, i) => {
    const figure = median(c.samples);
    if (i === 0) return [c.label, figure, undefined, "ms"];
    if (c.goal === undefined) return [c.label, figure, base, "ms"];
    const met = figure / base <= c.goal;
    if (!met) missed.push(`${c.label.trim()} on node ${version}`);
    return [c.label, figure, base, "ms", `<= ${c.goal}x ${met ? "met" : "MISSED"}`];
  });
}

function fmt(n) {
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/**
 * Splits a CLI run into phases: the second argument holds the performance marks the CLI set (ms since its start) and
 * when it exited; `marks` lists [mark, label] in order; the rest of the parent's wall time is spawn and teardown.
 */
export function phasesOf(marks, { marks: at, exit }, wallMs) {
  const times = { ...at, exit };
  const out = {};
  let from = 0;
  for (const [mark, label] of marks) {
    if (times[mark] === undefined) continue;
    out[label] = times[mark] - from;
    from = times[mark];
  }
  out["process spawn and teardown (seen by the parent)"] = wallMs - exit;
  return out;
}

/** Prints each phase's median over the runs, with its range. */
export function printPhases(title, runs) {
  const labels = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  const width = Math.max(...labels.map((l) => l.length));
  console.log(`\n${title}`);
  for (const label of labels) {
    const values = runs.map((r) => r[label]).filter((v) => v !== undefined);
    console.log(`  ${label.padEnd(width)}  ${median(values).toFixed(0).padStart(5)} ms  (${Math.min(...values).toFixed(0)}..${Math.max(...values).toFixed(0)})`);
  }
}
