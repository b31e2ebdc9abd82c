// The run of `shipctl due`: the shipments read, the report sets the ledger records for them (read-shipments.ts), what needs a person worked
// out on the service's clock (due-items.ts), and printed as a table, one JSON document or NDJSON. The exit code says
// whether a report window is open (closing within --within when given): cron and monitoring alert on it.
import { serviceNow } from "../api/service-clock.js";
import { callOptions, type Deps } from "../deps.js";
import { ExitCode, exitErrorJson } from "../errors.js";
import { ndjsonLine, printJson, withError } from "../output/json.js";
import { tableWidth } from "../output/table.js";
import { readStoredInLedger } from "../reports/report-sets.js";
import { dueItems, serviceTime, type DueItem } from "./due-items.js";
import { renderDueTable } from "./due-table.js";
import { formatDuration } from "../output/time-format.js";
import { counted } from "../output/counted.js";
import { readShipmentsSince } from "./read-shipments.js";

export type DueFormat = "table" | "json" | "ndjson";

/** Which shipments are read: created within the last `ms`, since a moment, or every one. */
export type CreatedAfter = { kind: "ago"; ms: number } | { kind: "at"; at: Date } | { kind: "all" };

export interface DueOptions {
  format: DueFormat;
  withinMs?: number;
  sinceMs: number;
  createdAfter: CreatedAfter;
  photos: string;
  concurrency: number;
  /** The table's rows, most urgent first (JSON and NDJSON carry every item). */
  maxRows?: number;
}

export async function showDue(deps: Deps, o: DueOptions): Promise<ExitCode> {
  const api = await deps.api();
  const now = () => serviceNow(api.serviceClockOffsetMs?.(), deps.clock);
  let since: number | undefined;
  const read = await readShipmentsSince(api, {
    call: callOptions(deps, "Reading shipments"),
    // Asked once page 1 has answered: its Date header places "now" on the service's clock.
    since: () => (since = o.createdAfter.kind === "all" ? undefined : o.createdAfter.kind === "at" ? o.createdAfter.at.getTime() : now().getTime() - o.createdAfter.ms),
    ahead: o.concurrency,
    debug: deps.globals.debug ? (line) => deps.debug(line) : undefined,
  });
  const ledger = await readStoredInLedger(await deps.connection(), deps.env, read.shipments);
  if (ledger.unreadable) deps.io.err(`Note: ledger not read (${ledger.unreadable}); report sets are shown from the status alone.\n`);
  const items = dueItems(read.shipments, { now: now(), sinceMs: o.sinceMs, withinMs: o.withinMs, photos: o.photos, ledger: ledger.stored });
  const open = items.filter((i) => i.kind === "report_window_open");
  const code = open.length > 0 ? ExitCode.Due : ExitCode.Ok;
  const summary = summaryOf(items, o.withinMs);
  const error = code === ExitCode.Ok ? undefined : exitErrorJson(code, summary);
  const about = {
    shipments_read: read.shipments.length,
    pages_read: read.pages,
    created_after: since === undefined ? null : serviceTime(new Date(since)),
  };

  if (o.format === "json") printJson(deps.io, withError({ due: items, ...about }, error));
  else if (o.format === "ndjson") {
    for (const item of items) deps.io.out(ndjsonLine(item));
    if (error) deps.io.out(ndjsonLine({ error }));
  } else if (items.length > 0) {
    const shown = items.slice(0, o.maxRows);
    deps.io.out(renderDueTable(shown, { theme: deps.theme.out, width: tableWidth(deps.io) }));
    const more = items.length - shown.length;
    if (more > 0) deps.io.alert(`… and ${more} more (--max ${items.length} shows every one; --json carries them all).\n`);
  }

  const scope = since === undefined ? "every shipment" : `shipments created since ${about.created_after} UTC`;
  const how = read.fullScan ? `every page: ${read.fullScan}` : `${read.pages} page${read.pages === 1 ? "" : "s"}`;
  deps.io.alert(`${summary} (read ${read.shipments.length} ${scope}, ${how}).\n`);
  return code;
}

/** "2 report windows open (the soonest closes in 5h12m), 1 unpaid draft, 1 window closed with no report." */
export function summaryOf(items: readonly DueItem[], withinMs: number | undefined): string {
  const count = (kind: DueItem["kind"]) => items.filter((i) => i.kind === kind).length;
  const open = items.filter((i) => i.kind === "report_window_open");
  const soonest = open.find((i) => i.seconds_left !== null);
  const parts: string[] = [];
  if (open.length > 0) {
    const when = soonest ? ` (the soonest closes in ${formatDuration(soonest.seconds_left! * 1000)})` : "";
    parts.push(`${counted(open.length, "report window")} open${withinMs === undefined ? "" : ` closing within ${formatDuration(withinMs)}`}${when}`);
  }
  if (count("draft_unpaid") > 0) parts.push(counted(count("draft_unpaid"), "unpaid draft"));
  if (count("report_window_closed") > 0) parts.push(`${counted(count("report_window_closed"), "window")} closed with no report`);
  if (parts.length === 0) return withinMs === undefined ? "Nothing due" : `Nothing due within ${formatDuration(withinMs)}`;
  return parts.join(", ");
}
