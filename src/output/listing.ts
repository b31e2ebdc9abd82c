// Printing records as a command lists them, in the format asked for: a table for people; ONE JSON document with
// --format json (every item read, printed at the end, beside what the command says about the pages); one JSON
// document per line with --format ndjson, or CSV lines with --format csv, both written as each page arrives.
import type { IO } from "./io.js";
import { ndjsonLine, printJson } from "./json.js";
import { renderTable, tableWidth, type Column } from "./table.js";
import type { Theme } from "./theme.js";
import type { ListFormat } from "./list-format.js";

/** CSV text for the records (its header and one line a record), given by the caller. */
export interface CsvLines<T> {
  header(): string;
  row(item: T): string;
}

export interface ListingOptions<T> {
  format: ListFormat;
  /** Said on stderr when a table would be empty. */
  empty: string;
  /** The key of the items in the JSON document ("shipments"). */
  jsonKey: string;
  /** An item as JSON and NDJSON show it. */
  toJson(item: T): unknown;
  csv: CsvLines<T>;
}

export interface ListingEnd<T> {
  /** Asked for only when a table is printed (it may need the tables). */
  columns(): Promise<Column<T>[]>;
  /** What the JSON document says beside the items (the pages read, the next one). */
  about: Record<string, unknown>;
}

export interface ListingPrinter<T> {
  page(items: readonly T[]): void;
  end(end: ListingEnd<T>): Promise<void>;
}

export function printListing<T>(out: { io: IO; theme: Theme }, o: ListingOptions<T>): ListingPrinter<T> {
  const kept: T[] = [];
  let headerWritten = false;
  const csvHeader = () => {
    if (!headerWritten) out.io.out(o.csv.header());
    headerWritten = true;
  };
  return {
    page(items) {
      if (o.format === "ndjson") for (const item of items) out.io.out(ndjsonLine(o.toJson(item)));
      else if (o.format === "csv") {
        csvHeader();
        for (const item of items) out.io.out(o.csv.row(item));
      } else kept.push(...items);
    },
    async end(end) {
      if (o.format === "ndjson") return;
      // An export with nothing in it still has its header: a spreadsheet, or `update --csv`, can open it.
      if (o.format === "csv") return csvHeader();
      if (o.format === "json") return printJson(out.io, { [o.jsonKey]: kept.map(o.toJson), ...end.about });
      if (kept.length === 0) out.io.alert(`${o.empty}\n`);
      else out.io.out(renderTable(await end.columns(), kept, { theme: out.theme, width: tableWidth(out.io) }));
    },
  };
}
