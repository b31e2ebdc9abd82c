// What needs a person, from shipments as the list gives them: the open condition-report windows (set 2 while Arrived,
// set 1 while Delivered), the drafts nobody has paid for, and the windows that closed lately with no report. Most urgent
// first: open windows by the time they close, then drafts (lowest id, the oldest, first), then the closed ones
// (latest first).
//
// The windows count from the times the contract names: set 1 "within 30 days of the shipment's arrival at the
// fulfillment address", which is the event the guide calls Delivered ("box delivered to the fulfillment address"), so
// from `delivered_at`; set 2 "within 24 hours of the shipment's arrival at the destination address", the guide's
// Arrived, so from `arrived_at` (reports/window.ts, as `report upload` judges them). A shipment whose status opens a
// window but which gives no such time is listed with no deadline: it may be closing, and only the service can tell.
import { ShipmentStatus, shipmentStatusName, type ReportSet, type StoredShipment } from "../contract/index.js";
import { shellPath } from "../output/shell-quote.js";
import { displayPath } from "../output/display-path.js";
import { reportSetsOf, type ReportSets, type StoredInLedger } from "../reports/report-sets.js";
import { windowClosesAt, windowSetOf } from "../reports/window.js";
import { parseTimestamp } from "../output/time-format.js";

export type DueKind = "report_window_open" | "draft_unpaid" | "report_window_closed";

export interface DueItem {
  id: number;
  title: string;
  status: number;
  status_name: string;
  kind: DueKind;
  /** The report set whose window this is; null for a draft. */
  set: ReportSet | null;
  /** When the window closes (or closed), "YYYY-MM-DD HH:MM:SS" UTC as the service writes times; null when unknown. */
  closes_at: string | null;
  /** Whole seconds until it closes, negative once closed; null when unknown. */
  seconds_left: number | null;
  /** The command to run next; null once a window has closed (nothing shipctl can do: the service refuses the set). */
  next_command: string | null;
  report_sets: ReportSets;
}

export interface DueRules {
  /** The service's now. */
  now: Date;
  /** Windows that closed at most this long ago are listed. */
  sinceMs: number;
  /** Only windows closing within this long (drafts and closed windows then left out). */
  withinMs?: number;
  /** Where the next commands say the photos are: `<photos>/<id>`. */
  photos: string;
  /** The flags naming the service that was read (serviceFlags): the next commands act on its shipments, not the default profile's. */
  service: readonly string[];
  ledger: StoredInLedger;
}

export function dueItems(shipments: Iterable<StoredShipment>, rules: DueRules): DueItem[] {
  const items: DueItem[] = [];
  for (const s of shipments) {
    const item = dueItemOf(s, rules);
    if (item && (rules.withinMs === undefined || within(item, rules.withinMs))) items.push(item);
  }
  return items.sort(urgency);
}

/** Open windows closing within `ms`; one whose close is unknown is kept (it may be closing). */
function within(item: DueItem, ms: number): boolean {
  return item.kind === "report_window_open" && (item.seconds_left === null || item.seconds_left * 1000 <= ms);
}

function dueItemOf(s: StoredShipment, rules: DueRules): DueItem | undefined {
  const sets = reportSetsOf(s, rules.ledger);
  const base = { id: s.id, title: s.title, status: s.status, status_name: shipmentStatusName(s.status), report_sets: sets };
  if (s.status === ShipmentStatus.Draft) {
    return { ...base, kind: "draft_unpaid", set: null, closes_at: null, seconds_left: null, next_command: ["shipctl checkout", s.id, ...rules.service].join(" ") };
  }
  const set = windowSetOf(s.status);
  // A set the ledger has stored is done, whatever the status says yet.
  if (set === undefined || sets[`set_${set}`].stored) return undefined;
  const closes = windowClosesAt(s, set);
  const left = closes === undefined ? null : Math.floor((closes.getTime() - rules.now.getTime()) / 1000);
  const window = { set, closes_at: closes ? serviceTime(closes) : null, seconds_left: left };
  if (left === null || left >= 0) {
    const next = ["shipctl report upload", s.id, "--set", set, shellPath(displayPath(rules.photos, String(s.id))), ...rules.service].join(" ");
    return { ...base, kind: "report_window_open", ...window, next_command: next };
  }
  if (-left * 1000 > rules.sinceMs) return undefined;
  return { ...base, kind: "report_window_closed", ...window, next_command: null };
}

const RANK: Record<DueKind, number> = { report_window_open: 0, draft_unpaid: 1, report_window_closed: 2 };

function urgency(a: DueItem, b: DueItem): number {
  if (a.kind !== b.kind) return RANK[a.kind] - RANK[b.kind];
  if (a.kind === "draft_unpaid") return a.id - b.id;
  // Open: soonest first, unknown last; closed: latest first.
  const left = (i: DueItem) => i.seconds_left ?? Number.POSITIVE_INFINITY;
  const order = a.kind === "report_window_open" ? left(a) - left(b) : left(b) - left(a);
  return order || a.id - b.id;
}

/** "YYYY-MM-DD HH:MM:SS", UTC without a zone, as the service writes times. */
export function serviceTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** Created at or after `since` (ms); a shipment without created_at is kept (it may be recent). */
export function createdSince(s: StoredShipment, since: number | undefined): boolean {
  if (since === undefined || !s.created_at) return true;
  const at = parseTimestamp(s.created_at);
  return at === undefined || at.getTime() >= since;
}
