// `shipctl shipment create`: one shipment from flags, one or a list from --file FILE.json (or stdin), or a CSV with
// --csv. Both modes share the batch machinery (ledger, reconciliation, sender, results), so none creates a shipment
// twice: shipments/create-from-items.ts and shipments/create-from-csv.ts.
import { Command } from "commander";
import { sendOptions, type CsvFlags, type SendOptions } from "../../batch/run-options.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import type { ItemInputFlags } from "../../shipments/item-input.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { CSV_HELP, addCsvOptions, parseItemMode, type CsvMode } from "../csv-mode.js";
import { SHIPMENT_INPUT_FLAGS, shipmentInputOptions } from "./shipment-flags.js";

export type CreateOptions =
  | CsvMode
  /** One shipment from the flags, or one or a list from --file (flags given too override those fields of each). */
  | { mode: "items"; input: ItemInputFlags; send: SendOptions };

/** The flags of the items mode only, in the order --help lists them: refused with --csv. */
const ITEM_FLAGS = [...SHIPMENT_INPUT_FLAGS, { key: "reference", flag: "--reference" }];

export function createCommand(ctx: CommandContext, run: VerbRun<CreateOptions> = runCreate): Command {
  const command = new Command("create")
    .description("create shipments from flags, a JSON file or a CSV file: all checked first, ten a request, never one twice")
    .addHelpText(
      "after",
      `
The shipments come from the flags (one shipment), from --file FILE.json holding one shipment, a list of them or the
request body {"shipments": [...]}, or from --file - (stdin). Flags given with --file override those fields of every
item, and an id flag replaces the inline address of its side. An item has the fields of the request: title, value,
length, height, depth, service, and per side a stored address id (fulfillment_address_id, destination_address_id)
or an inline address ("fulfillment_address": {...}, the fields of an address); plus, if you like, a "reference" of
your own that is never sent. Service is the integer or a name from the profile's service table. Everything is
checked first: a bad field is exit 2 with every problem listed ("item 3, value: ...") and nothing is sent
(--skip-invalid sends the valid items). A shipment from an address to itself (the same stored id on both sides, or
inline addresses with the same fields) is such a problem. Inline addresses are verified once each before anything
is created.

Never created twice: the organization's ledger, in the state folder (docs/ledger.md, "Where it lives"), records each
request before it is sent and its answer after, whether the shipments came from flags, FILE.json or stdin. Running
the same command again skips what was created (reporting the ids) and reads the service's shipments to settle any
answer that was lost before anything is resent. To create a second shipment with the same details on purpose, give it a new
--reference.

Another machine too: before sending, shipctl reads the organization's shipments created in the last 7 days
(config set lookDays N, or SHIPCTL_LOOK_DAYS; 0 turns it off) and does not send a shipment that matches one of them
in every field the service returns, when this machine did not create it: "item 2 matches shipment 4711, created 3 h
ago, not by this machine". It is reported "matched" (the "matched" list with --json, its shipment_id that one) and
counts as done for the exit code; --dry-run says which it would skip; --force-new sends them anyway. The look reads
only what is new since this machine's last look (docs/ledger.md, "Before a create: a look at the service").

Output: a table (item, reference, title, shipment id, status); with --json one document:
  {"created": [{"item": 1, "reference": null, "title": "Blue Study", "shipment_id": 41}], "failed": [...],
   "skipped": [...], "matched": [...], "counts": {"items": 1, "created": 1, "failed": 0, "skipped": 0, "matched": 0,
   "unknown": 0, "not_sent": 0}}
Exit codes: 0 every shipment created (now, by an earlier run, or by another machine: matched); 2 bad input,
nothing sent; 6 refused by the service; 7 service unavailable; 8 partly done; 130 interrupted (run the same command
again to resume).

Examples:
  shipctl shipment create --title "Blue Study" --value 1200 --length 30 --height 24 --depth 3 --service 1 \\
    --fulfillment-address-id 12 --destination-address-id 15
  shipctl shipment create --file shipments.json --dry-run
  shipctl shipment create --file shipments.json --fulfillment-address-id 12 --json | jq '.created[].shipment_id'
  jq '[.[] | select(.value > 1000)]' artworks.json | shipctl shipment create --file -
  shipctl shipment template > shipments.csv
  shipctl shipment create --csv shipments.csv --results results.csv
  shipctl shipment create --csv shipments.csv --update-changed --dry-run
${CSV_HELP}
A row edited since it was created (by its reference, or without one by its place while its earlier content is gone
from the file) is never created again unasked: it is reported, "row 4 was created as shipment 118; since then value
850 → 875", in the "changed" list with --json, and the run exits 9 once everything else is done. --update-changed
sends it as an update of that shipment (once: a further rerun sends nothing); --force-new creates a new shipment;
--dry-run shows which rows are changed and what the run would do. A row that cannot be matched with certainty (rows
inserted or moved as well as edited, a reference 7 where 007 was created and is gone) is not created ("unsure",
exit 9). docs/csv.md, "A row edited after it was
created".
`,
    );
  shipmentInputOptions(
    command,
    "read the shipment, or a list of them, from a JSON file (- for stdin); flags given as well override those fields of every item",
  );
  command.option("--reference <text>", "your own key for the shipment, never sent: the ledger knows it by this (a new one creates a new shipment)");
  addCsvOptions(command, { verifyFlags: true, sending: true, fileToo: true, creates: true, looks: true });
  command.option(
    "--update-changed",
    "with --csv: a row edited since it was created is sent as an update of the shipment it created (once: a rerun sends nothing more); without it such a row is reported and left as it is (exit 9)",
  );
  return command.action(verbAction(ctx, parseCreate, run));
}

export function parseCreate(args: string[], flags: ItemInputFlags & CsvFlags): CreateOptions {
  // The items mode reads the CSV mode's flags too (--dry-run, --skip-invalid...): none is refused without --csv.
  const parsed = parseItemMode<ItemInputFlags>(args, flags, ITEM_FLAGS);
  if (parsed.mode === "csv") return parsed;
  if (flags.updateChanged === true) {
    throw new UsageError("--update-changed works with --csv only: it updates rows of a CSV file edited since they were created", {
      hint: "Change a shipment already created with `shipctl shipment update`.",
    });
  }
  if (flags.results !== undefined) {
    throw new UsageError("--results writes the rows of a CSV input with their outcome: it works with --csv only", {
      hint: "With flags or --file, --json prints every item's outcome as one document.",
    });
  }
  return { mode: "items", input: parsed.input, send: sendOptions(flags) };
}

export async function runCreate(options: CreateOptions, deps: Deps): Promise<number> {
  if (options.mode === "csv") return (await import("../../shipments/create-from-csv.js")).runCreateCsv(deps, options.csv);
  return (await import("../../shipments/create-from-items.js")).runCreateItems(deps, options.input, options.send);
}
