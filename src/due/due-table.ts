// `due` for people: one line per thing to do, the time left first, highlighted when under 6 hours (colour only on a
// terminal, as the theme decides), and the command to run last.
import { formatAge, formatDuration } from "../output/time-format.js";
import { renderTable, type Column } from "../output/table.js";
import type { Theme } from "../output/theme.js";
import { describeReportSets } from "../reports/report-sets.js";
import type { DueItem } from "./due-items.js";

/** Under this, a window's time left is highlighted. */
export const URGENT_MS = 6 * 3_600_000;

/** "5h12m left", "23d04h left", "closed 2 d ago", "unknown" (no delivered_at/arrived_at), "" for a draft. */
export function timeLeft(item: DueItem): string {
  if (item.kind === "draft_unpaid") return "";
  if (item.seconds_left === null) return "unknown";
  const ms = item.seconds_left * 1000;
  return ms < 0 ? `closed ${formatAge(-ms)}` : `${formatDuration(ms)} left`;
}

export function whatText(item: DueItem): string {
  if (item.kind === "draft_unpaid") return "draft, not paid";
  if (item.kind === "report_window_closed") return `set ${item.set} window closed, no report`;
  return `set ${item.set} window open`;
}

export function renderDueTable(items: readonly DueItem[], options: { theme: Theme; width?: number }): string {
  const urgent = (i: DueItem) => i.kind === "report_window_open" && i.seconds_left !== null && i.seconds_left * 1000 < URGENT_MS;
  const columns: Column<DueItem>[] = [
    { header: "LEFT", value: (i) => (urgent(i) ? options.theme.error(timeLeft(i)) : timeLeft(i)), keep: true },
    { header: "ID", value: (i) => i.id, align: "right", keep: true },
    { header: "TITLE", value: (i) => i.title },
    { header: "STATUS", value: (i) => i.status_name },
    { header: "WHAT", value: whatText },
    { header: "CLOSES (UTC)", value: (i) => i.closes_at ?? "" },
    { header: "SETS", value: (i) => describeReportSets(i.report_sets) },
    { header: "NEXT", value: (i) => i.next_command ?? "none: the service refuses the set now", keep: true },
  ];
  return renderTable(columns, items, options);
}
