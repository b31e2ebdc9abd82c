// Printing records as a command lists them: a table for people, ONE JSON array with --json (every page's items,
// printed at the end), or one JSON document per line with --ndjson, written as each page arrives.
import type { IO } from "./io.js";
import { ndjsonLine, printJson } from "./json.js";
import { renderTable, tableWidth, type Column } from "./table.js";
import type { Theme } from "./theme.js";

export interface ListingPrinter<T> {
  page(items: readonly T[]): void;
  /** Prints what was kept; `columns` is asked for only when a table is printed (it may need the tables). */
  end(columns: () => Promise<Column<T>[]>): Promise<void>;
}

export function printListing<T>(out: { io: IO; json: boolean; theme: Theme }, o: { ndjson: boolean; empty: string }): ListingPrinter<T> {
  const kept: T[] = [];
  return {
    page(items) {
      if (o.ndjson) for (const item of items) out.io.out(ndjsonLine(item));
      else kept.push(...items);
    },
    async end(columns) {
      if (o.ndjson) return;
      if (out.json) return printJson(out.io, kept);
      if (kept.length === 0) out.io.alert(`${o.empty}\n`);
      else out.io.out(renderTable(await columns(), kept, { theme: out.theme, width: tableWidth(out.io) }));
    },
  };
}
