// `shipctl list shipments|addresses`: a table for people, the items as one JSON array with --json (all pages' items
// with --all), or one JSON document per line with --ndjson, written as each page arrives.
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { callOptions } from "../../input/call-options.js";
import { enumLabels } from "../../input/enums.js";
import { parsePageFlags, type PageFlags } from "../../input/page-flags.js";
import { ndjsonLine, printJson } from "../../output/json.js";
import { renderTable, tableWidth, type Column } from "../../output/table.js";
import { addressColumns, shipmentColumns } from "./columns.js";
import { walkPages, type ItemOf, type ListKind } from "./pages.js";

export interface ListFlags extends PageFlags {
  all?: boolean;
  ndjson?: boolean;
}

export function runFor(kind: ListKind) {
  return (deps: Deps, _args: string[], flags: ListFlags) => list(deps, kind, flags);
}

async function list<K extends ListKind>(deps: Deps, kind: K, flags: ListFlags): Promise<void> {
  const choice = parsePageFlags(flags);
  if (flags.ndjson && deps.globals.json) {
    throw new UsageError("--json and --ndjson cannot be used together", {
      hint: "--json prints one array at the end; --ndjson prints one item per line as pages arrive.",
    });
  }
  const items: ItemOf<K>[] = [];
  const last = await walkPages(await deps.api(), {
    kind,
    query: choice,
    all: flags.all === true,
    call: callOptions(deps, `Listing ${kind}`),
    onPage: (page) => {
      if (flags.ndjson) for (const item of page.data) deps.io.out(ndjsonLine(item));
      else items.push(...page.data);
    },
  });
  if (flags.ndjson) return;
  if (deps.globals.json) {
    printJson(deps.io, items);
    return;
  }
  if (items.length === 0) deps.io.err(`No ${kind}${choice.page > 1 ? ` on page ${choice.page}` : ""}.\n`);
  else {
    const labels = await enumLabels(deps);
    const columns = (kind === "shipments" ? shipmentColumns(labels) : addressColumns(labels)) as Column<ItemOf<K>>[];
    deps.io.out(renderTable(columns, items, { theme: deps.theme.out, width: tableWidth(deps.io) }));
  }
  if (!flags.all && last.links.next) {
    const { from, to, current_page: current } = last.meta;
    deps.io.err(`Showing ${kind} ${from}-${to}. Next page: --page ${current + 1}; every page: --all.\n`);
  }
}
