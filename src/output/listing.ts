// Printing records as a command lists them: a table for people, ONE JSON array with --json (every page's items,
// printed at the end), or one JSON document per line with --ndjson, written as each page arrives.
import type { Deps } from "../deps.js";
import { ndjsonLine, printJson } from "./json.js";
import { renderTable, tableWidth, type Column } from "./table.js";

export interface ListingPrinter<T> {
  page(items: readonly T[]): void;
  /** Prints what was kept; `columns` is asked for only when a table is printed (it may need the tables). */
  end(columns: () => Promise<Column<T>[]>): Promise<void>;
}

export function printListing<T>(deps: Pick<Deps, "io" | "globals" | "theme">, o: { ndjson: boolean; empty: string }): ListingPrinter<T> {
  const kept: T[] = [];
  return {
    page(items) {
      if (o.ndjson) for (const item of items) deps.io.out(ndjsonLine(item));
      else kept.push(...items);
    },
    async end(columns) {
      if (o.ndjson) return;
      if (deps.globals.json) return printJson(deps.io, kept);
      if (kept.length === 0) deps.io.err(`${o.empty}\n`);
      else deps.io.out(renderTable(await columns(), kept, { theme: deps.theme.out, width: tableWidth(deps.io) }));
    },
  };
}
