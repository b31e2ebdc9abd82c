// `shipctl list shipments` and `shipctl list addresses`: the wiring, the options and the run of both (they differ only
// in what they read and the columns they show). The run loads the client, the tables and the rendering when it runs.
import { Command } from "commander";
import { PAGE } from "../../contract/limits.js";
import { errorJson, UsageError } from "../../errors.js";
import { printErrorJson } from "../../output/json.js";
import { parsePageFlags } from "../../input/page-flags.js";
import type { ListKind } from "../../api/walk-pages.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import type { Deps } from "../../deps.js";

export interface ListOptions {
  kind: ListKind;
  page: number;
  /** Absent: the service's default page size. */
  limit?: number;
  all: boolean;
  ndjson: boolean;
}

interface ListFlags {
  page?: string;
  limit?: string;
  all?: boolean;
  ndjson?: boolean;
}

const COLUMNS: Record<ListKind, string> = {
  shipments: "ID, TITLE, STATUS (by name), VALUE, SERVICE, PRICE (dollars), CREATED",
  addresses: "ID, NAME, LINE 1, CITY, REGION, POST CODE, COUNTRY",
};

export function listCommand(kind: ListKind, ctx: CommandContext, run: VerbRun<ListOptions> = runList): Command {
  const command = new Command(kind)
    .description(`list ${kind}`)
    .option("--page <n>", `page to read (from ${PAGE.firstPage})`)
    .option("--limit <n>", `items per page, ${PAGE.limit.min} to ${PAGE.limit.max} (the service's default is ${PAGE.defaultLimit})`)
    .option("--all", "read every page from --page on")
    .option("--ndjson", "print one JSON document per item and line, as each page arrives (for streaming)")
    .addHelpText(
      "after",
      `
Output: a table (${COLUMNS[kind]}); stderr says when more pages exist.
With --json: the items as ONE JSON array (with --all, every page's items). With --ndjson: one item per line.
A bad --page or --limit is exit 2 before anything is sent.

Examples:
  shipctl list ${kind}
  shipctl list ${kind} --page 2 --limit 50
  shipctl list ${kind} --all --json | jq length
  shipctl list ${kind} --all --ndjson | jq -c 'select(.id > 100)'
`,
    );
  return command.action(verbAction(ctx, (_args, flags: ListFlags) => parseList(kind, flags), run));
}

export function parseList(kind: ListKind, flags: ListFlags): ListOptions {
  return { kind, ...parsePageFlags(flags), all: flags.all === true, ndjson: flags.ndjson === true };
}

export async function runList(options: ListOptions, deps: Deps): Promise<void> {
  if (options.ndjson && deps.globals.json) {
    throw new UsageError("--json and --ndjson cannot be used together", {
      hint: "--json prints one array at the end; --ndjson prints one item per line as pages arrive.",
    });
  }
  const { printListing } = await import("../../output/listing.js");
  const { walkPages } = await import("../../api/walk-pages.js");
  const { callOptions } = await import("../../input/call-options.js");
  const { enumLabels } = await import("../../input/table-values.js");
  const columns =
    options.kind === "shipments" ? (await import("../../shipments/shipment-columns.js")).shipmentColumns : (await import("../../addresses/address-columns.js")).addressColumns;
  const printer = printListing({ io: deps.io, json: deps.globals.json, theme: deps.theme.out }, { ndjson: options.ndjson, empty: `No ${options.kind}${options.page > 1 ? ` on page ${options.page}` : ""}.` });
  const walk = async () =>
    walkPages(await deps.api(), {
      kind: options.kind,
      query: { page: options.page, limit: options.limit },
      all: options.all,
      call: callOptions(deps, `Listing ${options.kind}`),
      onPage: (page) => printer.page(page.data),
    });
  const last = await walk().catch((err: unknown) => {
    // An NDJSON stream ends with its failure as the last line (README "Errors as JSON"); main() then adds nothing.
    if (options.ndjson) printErrorJson(deps.io, errorJson(err), { ndjson: true });
    throw err;
  });
  await printer.end(async () => columns(await enumLabels(deps)) as never);
  if (!options.all && last.links.next) {
    const { from, to, current_page: current } = last.meta;
    deps.io.err(`Showing ${options.kind} ${from}-${to}. Next page: --page ${current + 1}; every page: --all.\n`);
  }
}
