// The filters of `list shipments` (--status, --created-after, --created-before, --title) and --max, checked before
// any request. The service filters nothing, so these are applied to each page as it is read (shipments/shipment-filter.ts).
import { ShipmentStatus, shipmentStatusFromName, shipmentStatusName } from "../contract/enums.js";
import { UsageError } from "../errors.js";
import { tooLargeDigits } from "../contract/limits.js";
import { parseTimestamp } from "../output/time-format.js";

export interface ListFilterFlags {
  status?: string[];
  createdAfter?: string;
  createdBefore?: string;
  title?: string;
  max?: string;
}

export interface ShipmentFilter {
  /** Status values to keep; absent: any. */
  statuses?: ReadonlySet<number>;
  /** Created at or after this moment. */
  createdAfter?: Date;
  /** Created strictly before this moment. */
  createdBefore?: Date;
  /** Lower-cased text the title must contain. */
  title?: string;
}

const STATUS_VALUES: readonly number[] = Object.values(ShipmentStatus);

export function parseShipmentFilter(flags: ListFilterFlags): ShipmentFilter {
  const filter: ShipmentFilter = {};
  if (flags.status !== undefined) filter.statuses = new Set(flags.status.flatMap((s) => s.split(",")).map((s) => statusOf(s)));
  if (flags.createdAfter !== undefined) filter.createdAfter = momentOf(flags.createdAfter, "--created-after");
  if (flags.createdBefore !== undefined) filter.createdBefore = momentOf(flags.createdBefore, "--created-before");
  if (filter.createdAfter && filter.createdBefore && filter.createdAfter >= filter.createdBefore) {
    throw new UsageError(`--created-after ${flags.createdAfter} is not before --created-before ${flags.createdBefore}: no shipment can match`);
  }
  if (flags.title !== undefined) {
    if (flags.title.trim() === "") throw new UsageError("--title needs some text to look for in the titles");
    filter.title = flags.title.trim().toLowerCase();
  }
  return filter;
}

/** A shipment status by number or name, in any case ("delivered", "7", "drop-off"). */
export function statusOf(text: string, what = "--status"): number {
  const t = text.trim();
  const value = /^\d+$/.test(t) ? Number(t) : shipmentStatusFromName(t);
  if (value !== undefined && STATUS_VALUES.includes(value)) return value;
  throw new UsageError(`${what}: unknown status ${JSON.stringify(text)}`, {
    hint: `The statuses are: ${STATUS_VALUES.map((v) => `${v} ${shipmentStatusName(v)}`).join(", ")} (a name in any case, or its number).`,
  });
}

/**
 * A date (the start of that day) or a date and time. Without a zone it is UTC, as the service's timestamps are and
 * as the CREATED column shows them; "Z" or an offset (+02:00) says otherwise.
 */
export function momentOf(text: string, flag: string): Date {
  const t = text.trim();
  const withSeconds = t
    .replace(/^(\d{4}-\d{2}-\d{2})$/, "$1 00:00:00")
    .replace(/^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2})(?=$|[zZ]|[+-]\d{2}:?\d{2}$)/, "$1:00");
  const moment = parseTimestamp(withSeconds);
  if (moment === undefined) {
    throw new UsageError(`${flag} must be a date or a date and time (got ${JSON.stringify(text)})`, {
      hint: "Write 2026-03-01, 2026-03-01T14:30 or 2026-03-01 14:30:00 (UTC), or add a zone: 2026-03-01T14:30+01:00.",
    });
  }
  return moment;
}

/** --max: how many items to print in all, across pages. */
export function parseMax(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (tooLargeDigits(text)) throw new UsageError(`--max is too large (got ${JSON.stringify(text)})`);
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max must be a whole number from 1 (got ${JSON.stringify(text)})`);
  return n;
}

export function isFiltered(filter: ShipmentFilter): boolean {
  return Object.keys(filter).length > 0;
}
