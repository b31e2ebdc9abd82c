// The run of `list shipments|addresses`: walks the pages, keeps what the filters match (the service filters nothing)
// until --max, and prints in the format asked for, with where to go on: in the JSON document (next_page) and, for
// people, on stderr. NDJSON and CSV lines are written as each page arrives; a table and the ONE JSON document (every
// item read, beside what the command says about the pages) at the end.
import type { StoredAddress, StoredShipment } from "../../contract/index.js";
import { callOptions, type Deps } from "../../deps.js";
import { walkPages, type ListKind } from "../../api/walk-pages.js";
import { enumLabels } from "../../input/table-values.js";
import { isFiltered, type ShipmentFilter } from "../../input/list-filters.js";
import { csvExporter, fieldColumns, type CsvColumn, type ExportDelimiter } from "../../csv/csv-export.js";
import { ndjsonLine, printErrorJson, printJson } from "../../output/json.js";
import { errorJson } from "../../errors.js";
import { renderTable, tableWidth, type Column } from "../../output/table.js";
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
  const csv = csvExporter(csvColumns, options.delimiter);
  // Asked for only when a table is printed (it may need the tables).
  const columns = async () => (shipments ? shipmentColumns : addressColumns)(await enumLabels(deps)) as Column<Item>[];
  const { format } = options;
  /** What a table or the JSON document prints at the end. */
  const atEnd: Item[] = [];
  let headerWritten = false;
  const csvHeader = () => {
    if (!headerWritten) deps.io.out(csv.header());
    headerWritten = true;
  };
  const printPage = (items: readonly Item[]) => {
    if (format === "ndjson") for (const item of items) deps.io.out(ndjsonLine(toJson(item)));
    else if (format === "csv") {
      csvHeader();
      for (const item of items) deps.io.out(csv.row(item));
    } else atEnd.push(...items);
  };
  /** `about`: what the JSON document says beside the items (the pages read, the next one). */
  const printEnd = async (about: Record<string, unknown>) => {
    if (format === "ndjson") return;
    // An export with nothing in it still has its header: a spreadsheet, or `update --csv`, can open it.
    if (format === "csv") return csvHeader();
    if (format === "json") return printJson(deps.io, { [kind]: atEnd.map(toJson), ...about });
    const empty = filtered ? `No ${kind} match.` : `No ${kind}${options.page > 1 ? ` on page ${options.page}` : ""}.`;
    if (atEnd.length === 0) deps.io.alert(`${empty}\n`);
    else deps.io.out(renderTable(await columns(), atEnd, { theme: deps.theme.out, width: tableWidth(deps.io) }));
  };

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
      printPage(kept);
      return printed !== options.max;
    },
  });
  const last = await walk.catch(async (err: unknown) => {
    // A failure part way is still a document (README "Errors as JSON"): NDJSON ends with it as its last line; JSON is
    // the items read so far with the error beside them, or {"error"} alone when no page was read: a script reading
    // `.shipments` then fails rather than finding an empty list. main() adds nothing once stdout has been written.
    if (options.format === "ndjson") printErrorJson(deps.io, errorJson(err), { ndjson: true });
    if (options.format === "json" && pages === 0) printErrorJson(deps.io, errorJson(err));
    if (options.format === "json" && pages > 0) {
      await printEnd({ page: options.page, per_page: options.limit ?? null, next_page: null, error: errorJson(err) });
    }
    throw err;
  });
  const current = last.meta.current_page;
  const nextPage = cutShort ? current : last.links.next ? current + 1 : null;
  await printEnd({ page: options.page, per_page: last.meta.per_page, next_page: nextPage });

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
