// The run of `shipctl due`: the shipments read, the report sets the ledger records for them, what needs a person worked
// out on the service's clock (due-items.ts), and printed as a table, one JSON document or NDJSON. The exit code says
// whether a report window is open (closing within --within when given): cron and monitoring alert on it.
//
// The list has no filter and status has nothing to do with creation order, so every shipment that can still need a
// person must be read: by default those created since --created-after, found with the ledger's bisecting read
// (ledger/window-read.ts: the list's order learnt from ids and created_at, the first page created since found by
// doubling and bisecting, and every page read whole when the list shows no order), or with --all-history every page.
// The pages since are numbered, so they are asked for several at a time (--concurrency): each request goes through
// the API client, which waits out a 429 (Retry-After) and retries as for any read.
import { serviceNow } from "../api/service-clock.js";
import { callOptions, type Deps } from "../deps.js";
import { ExitCode, exitErrorJson } from "../errors.js";
import { ndjsonLine, printJson, withError } from "../output/json.js";
import { tableWidth } from "../output/table.js";
import { readStoredInLedger } from "../reports/report-sets.js";
import type { StoredShipment } from "../contract/index.js";
import { shipmentsListed } from "../ledger/listed-resources.js";
import { readSince } from "../ledger/window-read.js";
import { createdSince, dueItems, serviceTime, type DueItem } from "./due-items.js";
import { renderDueTable } from "./due-table.js";
import { formatDuration } from "../output/time-format.js";
import { counted } from "../output/counted.js";
import { serviceFlags } from "../output/shell-quote.js";

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
  // Asked once page 1 has answered: its Date header places "now" on the service's clock.
  const sinceOf = () => {
    const after = o.createdAfter;
    since = after.kind === "all" ? undefined : after.kind === "at" ? after.at.getTime() : now().getTime() - after.ms;
    return since ?? Number.NEGATIVE_INFINITY;
  };
  const list = { ...shipmentsListed(api, callOptions(deps, "Reading shipments")), ahead: o.concurrency };
  const read = await readSince(list, sinceOf, deps.globals.debug ? (line) => deps.debug(line) : undefined);
  // The pages since begin a page early, and a full read holds everything: keep the shipments created since only,
  // each once (in a list newest first, a shipment created meanwhile pushes the others a place on).
  const byId = new Map<number, StoredShipment>();
  for (const s of read.items) if (createdSince(s, since)) byId.set(s.id, s);
  const shipments = [...byId.values()];
  const ledger = await readStoredInLedger(await deps.connection(), deps.env, shipments);
  if (ledger.unreadable) deps.io.err(`Note: ledger not read (${ledger.unreadable}); report sets are shown from the status alone.\n`);
  const items = dueItems(shipments, { now: now(), sinceMs: o.sinceMs, withinMs: o.withinMs, photos: o.photos, service: serviceFlags(deps.globals), ledger: ledger.stored });
  const code = items.some((i) => i.kind === "report_window_open") ? ExitCode.Due : ExitCode.Ok;
  const summary = summaryOf(items, o.withinMs);
  const error = code === ExitCode.Ok ? undefined : exitErrorJson(code, summary);
  const about = {
    shipments_read: shipments.length,
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

  const n = shipments.length;
  const scope = since === undefined ? `all ${counted(n, "shipment")}` : `${counted(n, "shipment")} created since ${about.created_after} UTC`;
  const how = read.fullScan ? `every page: ${read.fullScan}` : `${read.pages} page${read.pages === 1 ? "" : "s"}`;
  deps.io.alert(`${summary} (read ${scope}, ${how}).\n`);
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
