// `shipctl due`: what needs a person, most urgent first. The wiring and the reading of the command line; the run
// (src/due/show-due.ts) is imported when the command runs.
import { Command, Option } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { DEFAULT_READ_CONCURRENCY, MAX_CONCURRENCY, readConcurrency } from "../../batch/concurrency.js";
import type { Deps } from "../../deps.js";
import { ExitCode, UsageError } from "../../errors.js";
import { looksLikeDuration, parseDuration } from "../../input/duration.js";
import { momentOf, parseMax } from "../../input/list-filters.js";
import type { CreatedAfter, DueFormat, DueOptions } from "../../due/show-due.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { formatFlag, printsRecords, withJsonFlag } from "../record-output.js";
import { DUE_ITEM_FIELDS } from "../../due/due-fields.js";

/** The options as the command line gives them: no format when neither --format nor --ndjson is (--json is global). */
export type DueArgs = Omit<DueOptions, "format"> & { format?: DueFormat };

/** [assume] Long enough for every window to close: paid, shipped to the fulfillment address, 30 days for set 1, shipped on, 24 hours for set 2, and --since after that. */
export const DEFAULT_CREATED_AFTER = "180d";
export const DEFAULT_SINCE_DAYS = 7;
/** The longest --created-after span: 1000 years back from now is still a year the service's timestamps can write. */
const MAX_CREATED_AFTER_DAYS = 365_250;
export const DEFAULT_PHOTOS = "./photos";
/** Table rows shown: one screen. JSON and NDJSON carry every item, for scripts and cron. */
export const DEFAULT_DUE_ROWS = 20;

interface DueFlags {
  within?: string;
  since?: string;
  createdAfter?: string;
  allHistory?: boolean;
  format?: string;
  ndjson?: boolean;
  photos?: string;
  concurrency?: string;
  max?: string;
}

const FORMATS: readonly DueFormat[] = ["table", "json", "ndjson"];

export function dueCommand(ctx: CommandContext, run: VerbRun<DueArgs> = runDue, command = new Command("due")): Command {
  command
    .description("what needs a person, most urgent first: open report windows, unpaid drafts, windows missed lately")
    .option("--within <span>", "only report windows closing within this span (6h, 2d); exit 10 if there is one")
    .option("--since <days>", `also list windows that closed in the last DAYS days with no report (default ${DEFAULT_SINCE_DAYS}; 48h works too)`)
    .option(
      "--created-after <when>",
      `read shipments created within this span (default ${DEFAULT_CREATED_AFTER}) or since this date or time ` +
        "(2026-03-01; UTC unless a zone is given)",
    )
    .option("--all-history", "read every shipment, however old")
    .addOption(completesWith(new Option("--format <format>", "table, json or ndjson (default table; --json is short for --format json)"), FORMATS))
    .option("--ndjson", "short for --format ndjson")
    .option("--photos <dir>", `where the next commands say each shipment's photo folder is: DIR/<id> (default ${DEFAULT_PHOTOS})`)
    .option("--max <n>", `table rows shown, most urgent first (default ${DEFAULT_DUE_ROWS}); --json and --ndjson carry every item`)
    .option("--concurrency <n>", `list pages read at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_READ_CONCURRENCY})`)
    .addHelpText(
      "after",
      `
Lists, most urgent first:
  set 2 windows open   the shipment is Arrived: set 2 must be stored within 24 hours of arrived_at
  set 1 windows open   the shipment is Delivered: set 1 must be stored within 30 days of delivered_at
  unpaid drafts        status Draft: never shipped until paid (shipctl checkout ID)
  windows closed       in the last --since days (default ${DEFAULT_SINCE_DAYS}) with no report stored: the service refuses them now
Each line says the command to run next. Time left is on the service's clock (learnt from its Date header).
Under 6 hours left is highlighted on a terminal. SETS says which report sets the shipment has, from its status
("service") or, before the status shows it, from the organization's ledger on this machine ("ledger"), which records
the report sets of every upload, batch or single (docs/ledger.md).

The list has no filters, so due reads it: by default only shipments created in the last ${DEFAULT_CREATED_AFTER}, found by
bisecting the list when it is in id order (far fewer pages), with ${DEFAULT_READ_CONCURRENCY} pages in flight at once; --all-history reads all.
A shipment older than that is not looked at, even a draft.

Exit codes: 0 nothing open; ${ExitCode.Due} a report window is open (with --within: closing within it), so cron can
alert; drafts and closed windows alone are 0. Other failures as for every command (shipctl help exit-codes).

Output:
  table   LEFT, ID, TITLE, STATUS, WHAT, CLOSES (UTC), SETS, NEXT: the ${DEFAULT_DUE_ROWS} most urgent (--max N), then
          "and N more" and a summary line of every item on stderr.
  json    {"due": [...], "shipments_read", "pages_read", "created_after"} and, with exit ${ExitCode.Due}, "error"
          {"code": "due", ...}. Each item: id, title, status, status_name, kind (report_window_open,
          draft_unpaid, report_window_closed), set, closes_at, seconds_left, next_command, report_sets.
  ndjson  one item per line; with exit ${ExitCode.Due}, {"error": {...}} last.

Examples:
  shipctl due
  shipctl due --within 6h --photos ~/reports
  shipctl due --json | jq -r '.due[] | select(.kind == "report_window_open") | .next_command'
  0 * * * *  shipctl due --within 6h > /tmp/due.txt; [ $? -eq ${ExitCode.Due} ] && mail -s "report windows closing" ops@example.com < /tmp/due.txt
`,
    );
  printsRecords(command, { in: ["due"], fields: DUE_ITEM_FIELDS, outputs: ["json", "ndjson"] });
  return command.action(verbAction(ctx, (_args, flags: DueFlags) => parseDue(flags), run));
}

export function parseDue(flags: DueFlags): DueArgs {
  const withinMs = flags.within === undefined ? undefined : parseDuration(flags.within, "--within");
  const sinceMs = parseDuration(flags.since ?? String(DEFAULT_SINCE_DAYS), "--since", { bareUnit: "d" });
  if (flags.allHistory && flags.createdAfter !== undefined) throw new UsageError("--all-history and --created-after cannot be used together");
  const createdAfter = createdAfterOf(flags);
  const photos = flags.photos ?? DEFAULT_PHOTOS;
  if (photos.trim() === "") throw new UsageError("--photos needs a folder");
  return {
    format: formatFlag(flags, FORMATS),
    ...(withinMs === undefined ? {} : { withinMs }),
    sinceMs,
    createdAfter,
    photos,
    concurrency: readConcurrency(flags.concurrency ?? DEFAULT_READ_CONCURRENCY),
    ...(flags.max === undefined ? {} : { maxRows: parseMax(flags.max) }),
  };
}

function createdAfterOf(flags: DueFlags): CreatedAfter {
  if (flags.allHistory) return { kind: "all" };
  const text = flags.createdAfter ?? DEFAULT_CREATED_AFTER;
  if (looksLikeDuration(text)) {
    const ms = parseDuration(text, "--created-after");
    // Further back than the service's YYYY-MM-DD timestamps go (and Date's range) there is nothing to find.
    if (ms > MAX_CREATED_AFTER_DAYS * 86_400_000) {
      const most = `at most 1000 years (${MAX_CREATED_AFTER_DAYS}d)`;
      throw new UsageError(`--created-after reaches back ${most} (got "${text}")`, {
        hint: "--all-history reads every shipment.",
      });
    }
    return { kind: "ago", ms };
  }
  return { kind: "at", at: momentOf(text, "--created-after") };
}

export async function runDue(options: DueArgs, deps: Deps): Promise<number> {
  const format = withJsonFlag(options.format, deps.globals.json, "--json is short for --format json.") ?? "table";
  if (options.maxRows !== undefined && format !== "table") {
    throw new UsageError(`--max sets the rows of the table; --format ${format} carries every item`, { hint: "Pick items with --query, e.g. --json --query 'due[:5]'." });
  }
  const { showDue } = await import("../../due/show-due.js");
  return showDue(deps, { ...options, format, maxRows: options.maxRows ?? DEFAULT_DUE_ROWS });
}
