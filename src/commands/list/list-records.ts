// The run of `list shipments|addresses`: walks the pages, keeps what the filters match (the service filters nothing)
// until --max, and prints in the format asked for (output/listing.ts), with where to go on: in the JSON document
// (next_page) and, for people, on stderr.
import type { StoredAddress, StoredShipment } from "../../contract/index.js";
import { callOptions, type Deps } from "../../deps.js";
import { walkPages, type ListKind } from "../../api/walk-pages.js";
import { enumLabels } from "../../input/table-values.js";
import { isFiltered, type ShipmentFilter } from "../../input/list-filters.js";
import { csvExporter, fieldColumns, type CsvColumn, type ExportDelimiter } from "../../csv/csv-export.js";
import { printListing, type ListingOptions } from "../../output/listing.js";
import { printErrorJson } from "../../output/json.js";
import { errorJson } from "../../errors.js";
import type { Column } from "../../output/table.js";
import type { ListFormat } from "../../output/list-format.js";
import { SHIPMENT_CSV_COLUMNS, shipmentColumns } from "../../shipments/shipment-columns.js";
import { shipmentMatches, withStatusName } from "../../shipments/shipment-filter.js";
import { ADDRESS_CSV_COLUMNS, addressColumns } from "../../addresses/address-columns.js";

/** What `list shipments|addresses` was asked (commands/list/list-kind.ts reads it from the command line). */
export interface ListOptions {
  kind: ListKind;
  page: number;
  /** Absent: the service's default page size. */
  limit?: number;
  /** Read every page from `page` on: --all, or implied by a filter or --max. */
  all: boolean;
  /** Absent: a table, or JSON with the global --json. */
  format?: ListFormat;
  delimiter: ExportDelimiter;
  /** The most items to print, across pages. */
  max?: number;
  /** Shipments only; empty: every item. */
  filter: ShipmentFilter;
  /** With --format csv: these JSON fields as the columns (--fields), instead of the columns `update --csv` reads. */
  fields?: readonly string[];
}

type Item = StoredShipment | StoredAddress;

export async function listRecords(deps: Deps, options: ListOptions & { format: ListFormat }): Promise<void> {
  const { kind } = options;
  const shipments = kind === "shipments";
  const filtered = isFiltered(options.filter);
  const keep: (item: Item) => boolean = shipments && filtered ? (shipmentMatches(options.filter) as (item: Item) => boolean) : () => true;
  const toJson = shipments ? (item: Item): unknown => withStatusName(item as StoredShipment) : (item: Item): unknown => item;
  const csvColumns = options.fields ? fieldColumns(options.fields, toJson) : ((shipments ? SHIPMENT_CSV_COLUMNS : ADDRESS_CSV_COLUMNS) as readonly CsvColumn<Item>[]);
  const listing: ListingOptions<Item> = {
    format: options.format,
    empty: filtered ? `No ${kind} match.` : `No ${kind}${options.page > 1 ? ` on page ${options.page}` : ""}.`,
    jsonKey: kind,
    toJson,
    csv: csvExporter(csvColumns, options.delimiter),
  };
  const printer = printListing<Item>({ io: deps.io, theme: deps.theme.out }, listing);

  let read = 0;
  let pages = 0;
  let printed = 0;
  /** --max was reached before the end of the page it was reached on. */
  let cutShort = false;
  const walk = walkPages(await deps.api(), {
    kind,
    query: { page: options.page, limit: options.limit },
    all: options.all,
    call: callOptions(deps, `Listing ${kind}`),
    onPage: (page) => {
      pages++;
      read += page.data.length;
      const kept: Item[] = [];
      for (const [i, item] of page.data.entries()) {
        if (!keep(item)) continue;
        kept.push(item);
        if (++printed === options.max) {
          cutShort = i < page.data.length - 1;
          break;
        }
      }
      printer.page(kept);
      return printed !== options.max;
    },
  });
  const columns = async () => (shipments ? shipmentColumns : addressColumns)(await enumLabels(deps)) as Column<Item>[];
  const last = await walk.catch(async (err: unknown) => {
    // A failure part way is still a document (README "Errors as JSON"): NDJSON ends with it as its last line; JSON is
    // the items read so far with the error beside them, or {"error"} alone when no page was read: a script reading
    // `.shipments` then fails rather than finding an empty list. main() adds nothing once stdout has been written.
    if (options.format === "ndjson") printErrorJson(deps.io, errorJson(err), { ndjson: true });
    if (options.format === "json" && pages === 0) printErrorJson(deps.io, errorJson(err));
    if (options.format === "json" && pages > 0) {
      await printer.end({ columns, about: { page: options.page, per_page: options.limit ?? null, next_page: null, error: errorJson(err) } });
    }
    throw err;
  });
  const current = last.meta.current_page;
  const nextPage = cutShort ? current : last.links.next ? current + 1 : null;
  await printer.end({
    columns,
    about: { page: options.page, per_page: last.meta.per_page, next_page: nextPage },
  });

  if (filtered) deps.io.err(`${printed} of the ${read} ${kind} read (${pages} page${pages === 1 ? "" : "s"}) match.\n`);
  if (nextPage === null) return;
  if (!options.all) {
    const { from, to } = last.meta;
    deps.io.err(`Showing ${kind} ${from}-${to}. Next page: --page ${nextPage}; every page: --all.\n`);
  } else deps.io.err(`${maxReached(options.max, current, cutShort, options.limit)}\n`);
}

/**
 * Where to go on after --max. A page cut short is not the place to start again: `--page` that page with the same
 * --max prints the same items again.
 */
function maxReached(max: number | undefined, page: number, cutShort: boolean, limit: number | undefined): string {
  const after = `--page ${page + 1}${limit ? ` --limit ${limit}` : ""}`;
  if (!cutShort) return `Stopped at --max ${max}; more may follow from ${after}.`;
  return `Stopped at --max ${max} part way through page ${page}: a larger --max shows more; ${after} starts after page ${page}.`;
}
