// `shipctl list shipments` and `shipctl list addresses`: the wiring, the options and the run of both (they differ only
// in what they read, the filters shipments have, and the columns they show). The run loads the client, the tables
// and the rendering when it runs.
import { Command, Option } from "commander";
import { PAGE } from "../../contract/limits.js";
import { ShipmentStatus, shipmentStatusName } from "../../contract/enums.js";
import { ADDRESS_FIELDS, SHIPMENT_FIELDS, STORED_ADDRESS_FIELDS, PRINTED_SHIPMENT_FIELDS } from "../../contract/fields.js";
import { UsageError } from "../../errors.js";
import { parsePageFlags } from "../../input/page-flags.js";
import { isFiltered, parseMax, parseShipmentFilter, type ListFilterFlags } from "../../input/list-filters.js";
import { EXPORT_DELIMITERS, type ExportDelimiter } from "../../csv/csv-export.js";
import { LIST_FORMATS } from "../../output/list-format.js";
import type { ListKind } from "../../api/walk-pages.js";
import type { ListOptions } from "./list-records.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { fieldList, formatFlag, printsRecords, withJsonFlag } from "../record-output.js";
import type { Deps } from "../../deps.js";
import { completesWith } from "../../completion/value-source.js";


type ListFlags = ListFilterFlags & {
  page?: string;
  limit?: string;
  all?: boolean;
  ndjson?: boolean;
  format?: string;
  delimiter?: string;
  fields?: string;
};

const COLUMNS: Record<ListKind, string> = {
  shipments: "ID, TITLE, STATUS (by name), VALUE, SERVICE, PRICE (dollars), CREATED",
  addresses: "ID, NAME, LINE 1, CITY, REGION, POST CODE, COUNTRY",
};

const CSV_HEADERS: Record<ListKind, string> = {
  shipments: `${["shipment_id", ...SHIPMENT_FIELDS].join(", ")}, and per side (fulfillment, destination)
          the stored address id, or the address columns when the shipment was given the address inline`,
  addresses: ["address_id", ...ADDRESS_FIELDS].join(", "),
};

/** What an item prints: the service's record, and for a shipment status_name right after status (withStatusName). */
const RECORD_FIELDS: Record<ListKind, readonly string[]> = {
  shipments: PRINTED_SHIPMENT_FIELDS,
  addresses: STORED_ADDRESS_FIELDS,
};

const STATUS_NAMES = Object.values(ShipmentStatus).map(shipmentStatusName);

const FILTER_HELP = `
Filters (the service has none, so shipctl reads the pages and keeps what matches; a filter or --max reads every
page from --page on, as --all does):
  --status NAME...  ${STATUS_NAMES.slice(0, 9).join(", ")},
                    ${STATUS_NAMES.slice(9).join(", ")}, in any case, or their numbers; several: --status draft 2
  --created-after / --created-before  a date (2026-03-01, the start of that day) or a date and time
                    (2026-03-01T14:30); in UTC, as CREATED shows it, unless a zone is given (2026-03-01T14:30+01:00).
                    After includes that moment, before excludes it.
  --title TEXT      titles containing TEXT, in any case
`;

export function listCommand(kind: ListKind, ctx: CommandContext, run: VerbRun<ListOptions> = runList): Command {
  const command = new Command(kind)
    .description(`list ${kind}`)
    .option("--page <n>", `page to read (from ${PAGE.firstPage})`)
    .option("--limit <n>", `items per page, ${PAGE.limit.min} to ${PAGE.limit.max} (the service's default is ${PAGE.defaultLimit})`)
    .option("--all", "read every page from --page on")
    .option("--max <n>", "print at most this many items in all, reading pages until there are that many");
  if (kind === "shipments") {
    command
      .addOption(completesWith(new Option("--status <name...>", "only shipments with these statuses (names or numbers)"), "statuses"))
      .option("--created-after <when>", "only shipments created at or after this date or time (UTC unless a zone is given)")
      .option("--created-before <when>", "only shipments created before this date or time (UTC unless a zone is given)")
      .option("--title <text>", "only shipments whose title contains this text (any case)");
  }
  command
    .addOption(completesWith(new Option("--format <format>", `${LIST_FORMATS.join(", ")} (default table; --json is short for --format json)`), LIST_FORMATS))
    .option("--ndjson", "short for --format ndjson")
    .addOption(
      completesWith(new Option("--delimiter <char>", "with --format csv: ',' (the default) or ';' (for a spreadsheet in a locale that expects it)"), EXPORT_DELIMITERS),
    )
    .addHelpText(
      "after",
      `${kind === "shipments" ? FILTER_HELP : ""}
Output:
  table   ${COLUMNS[kind]}; stderr says when more pages exist.
  json    ONE document: {"${kind}": [...], "page": 1, "per_page": 20, "next_page": 2}, next_page being the page to
          read next (--page) or null after the last${kind === "shipments" ? "; each shipment has status (1) and status_name (Draft)" : ""}.
  ndjson  one item per line, as each page arrives.
  csv     for a spreadsheet, and back: UTF-8 with a byte-order mark, the columns \`${kind === "shipments" ? "shipment" : "address"} update --csv\` reads:
          ${CSV_HEADERS[kind]}.
          Cells a spreadsheet would read as a formula or as a number losing its leading zero (+1206..., 01067)
          start with ' so they stay text; \`update --csv\` takes it off again. With --fields, the columns are those
          fields instead, named and valued as in JSON (an address as its JSON): an export, no longer an update file.
With --max, a page may be cut short: next_page is then that page again (reading it repeats items, skips none).
A bad flag is exit 2 before anything is sent.

Examples:
  shipctl list ${kind}
  shipctl list ${kind} --page 2 --limit 50
  shipctl list ${kind} --all --json | jq '.${kind} | length'
  shipctl list ${kind} --all --format ndjson | jq -c 'select(.id > 100)'
${
  kind === "shipments"
    ? `  shipctl list shipments --status draft --created-after 2026-03-01 --max 100
  shipctl list shipments --status Draft --format csv > drafts.csv   # edit, then: shipctl shipment update --csv drafts.csv`
    : `  shipctl list addresses --format csv --delimiter ';' > addresses.csv   # edit, then: shipctl address update --csv addresses.csv`
}
`,
    );
  printsRecords(command, { in: [kind], fields: RECORD_FIELDS[kind], outputs: ["json", "ndjson", "csv"] });
  return command.action(verbAction(ctx, (_args, flags: ListFlags) => parseList(kind, flags), run));
}

export function parseList(kind: ListKind, flags: ListFlags): ListOptions {
  const filter = kind === "shipments" ? parseShipmentFilter(flags) : {};
  const max = parseMax(flags.max);
  const format = formatFlag(flags, LIST_FORMATS);
  if (flags.delimiter !== undefined && format !== "csv") throw new UsageError("--delimiter is for --format csv");
  const delimiter = flags.delimiter ?? ",";
  if (!(EXPORT_DELIMITERS as readonly string[]).includes(delimiter)) {
    throw new UsageError(`--delimiter must be ',' or ';' (got ${JSON.stringify(flags.delimiter)})`, {
      hint: "A spreadsheet whose decimal mark is a comma (German, French, ... locales) expects ';'.",
    });
  }
  const all = flags.all === true || isFiltered(filter) || max !== undefined;
  // With JSON the fields are kept by the shaped stdout (record-output.ts); a CSV's columns are the listing's own.
  const fields = format === "csv" && flags.fields !== undefined ? { fields: fieldList(flags.fields) } : {};
  return { kind, ...parsePageFlags(flags), all, ...(format ? { format } : {}), delimiter: delimiter as ExportDelimiter, ...(max ? { max } : {}), filter, ...fields };
}

export async function runList(options: ListOptions, deps: Deps): Promise<void> {
  const hint = "--json is short for --format json: one document at the end; ndjson prints one item per line as pages arrive.";
  const format = withJsonFlag(options.format, deps.globals.json, hint) ?? "table";
  await (await import("./list-records.js")).listRecords(deps, { ...options, format });
}
