// Wiring of `shipctl shipment ...`: flags and help only, one registration function per verb; each verb's logic sits
// in a sibling file imported when the command runs.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";
import { SHIPMENT_FIELD_FLAGS } from "../../input/shipment-fields.js";
import { CSV_HELP, addCsvOptions, csvOrPlain } from "../csv-wiring.js";

/** The verbs of `shipctl shipment` (the noun itself is declared in ../index.ts). */
export function registerVerbs(shipment: Command, ctx: CommandContext): void {
  shipment.addHelpText("after", "\nRun `shipctl shipment <command> --help` for the flags and examples of each.\n");
  registerUpdate(shipment, ctx);
  registerGet(shipment, ctx);
  registerTemplate(shipment, ctx);
  registerCreate(shipment, ctx);
}

/** The shipment input flags (--file and one flag per field). */
export function shipmentInputOptions(
  command: Command,
  fileHelp = "read the shipment from a JSON file (- for stdin); flags given as well override its fields",
): Command {
  command.option("--file <path>", fileHelp);
  for (const f of SHIPMENT_FIELD_FLAGS) command.option(`${f.flag} <${f.kind === "text" ? "text" : f.kind === "service" ? "service" : "n"}>`, f.help);
  return command;
}

export function registerUpdate(shipment: Command, ctx: CommandContext): Command {
  const command = shipment
    .command("update")
    .argument("[id]", "id of the shipment (not with --csv)")
    .description("replace a shipment's details (the service needs every field)")
    .addHelpText(
      "after",
      `
The service replaces the whole shipment, so every field is required: title, value, length, height, depth and
service, and for each side either a stored address id (--fulfillment-address-id, --destination-address-id) or an
inline address in the file ("fulfillment_address": {...}, "destination_address": {...}, the fields of an address).
The shipment comes from the flags, from --file FILE.json, or from --file - (stdin); each flag overrides that field
of the file, and an id flag replaces the file's inline address for its side. Service is the integer value or a name
from the profile's service table. Everything is checked locally first: a bad field is exit 2 and nothing is sent.

Output: nothing on stdout; with --json {"id": 7, "shipment": {...as sent}}.
Exit codes: 0 updated; 2 bad input (nothing sent); 6 refused by the service (no such shipment, or a field it
rejects); 7 service unavailable after retries.

Examples:
  shipctl shipment update 7 --title "Blue Study" --value 1200 --length 30 --height 24 --depth 3 --service 1 \\
    --fulfillment-address-id 12 --destination-address-id 15
  shipctl shipment update 7 --file shipment.json --value 1500
  jq '.title = "Blue Study II"' shipment.json | shipctl shipment update 7 --file -
`,
    );
  shipmentInputOptions(command);
  addCsvOptions(command, { verifyFlags: true, sending: true }).addHelpText("after", CSV_HELP);
  command.action(csvOrPlain(ctx, async () => (await import("./update-csv.js")).run, async () => (await import("./update.js")).run, "id"));
  return command;
}

export function registerGet(shipment: Command, ctx: CommandContext): Command {
  const command = shipment
    .command("get")
    .argument("<id>", "id of the shipment")
    .description("show a shipment: status, price, addresses and timestamps")
    .addHelpText(
      "after",
      `
Output: a table with the status by name, the value and price in dollars, both addresses and the timestamps (UTC);
with --json the service's record as it sent it (price in cents, status as its integer).
Exit 6 when there is no shipment with that id.

Examples:
  shipctl shipment get 7
  shipctl shipment get 7 --json | jq .status
`,
    );
  command.action(lazyAction(ctx, async () => (await import("./get.js")).run));
  return command;
}

export function registerTemplate(shipment: Command, ctx: CommandContext): Command {
  const command = shipment
    .command("template")
    .description("print a CSV file to start a batch from: the header and one example row")
    .option("--update", "the columns of `shipment update --csv` (an id column first)")
    .option("--header-only", "only the header row")
    .addHelpText(
      "after",
      `
Examples:
  shipctl shipment template > shipments.csv
  shipctl shipment template --update --header-only > updates.csv
  shipctl shipment template --json     # {"columns": [...], "example": {"reference": "INV-0001", ...}}
`,
    );
  command.action(lazyAction(ctx, async () => (await import("./template.js")).run));
  return command;
}

/**
 * `shipment create`: one shipment from flags, one or a list from --file FILE.json (or stdin), or a CSV with --csv.
 * Both modes share the batch machinery (journal, reconciliation, sender, results), so none creates a shipment twice.
 */
export function registerCreate(shipment: Command, ctx: CommandContext): Command {
  const command = shipment
    .command("create")
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
(--skip-invalid sends the valid items). Inline addresses are verified once each before anything is created.

Never created twice: a journal records each request before it is sent and its answer after, next to FILE.json or,
for flags and stdin, in the config folder under a name taken from the shipments' content. Running the same command
again skips what was created (reporting the ids) and reads the service's shipments to settle any answer that was
lost before anything is resent. To create a second shipment with the same details on purpose, give it a new
--reference.

Output: a table (item, reference, title, shipment id, status); with --json one document:
  {"created": [{"item": 1, "reference": null, "title": "Blue Study", "shipment_id": 41}], "failed": [...],
   "skipped": [...], "counts": {"items": 1, "created": 1, "failed": 0, "skipped": 0, "unknown": 0, "not_sent": 0}}
Exit codes: 0 every shipment created (now or by an earlier run); 2 bad input, nothing sent; 6 refused by the service;
7 service unavailable; 8 partly done; 130 interrupted (run the same command again to resume).

Examples:
  shipctl shipment create --title "Blue Study" --value 1200 --length 30 --height 24 --depth 3 --service 1 \\
    --fulfillment-address-id 12 --destination-address-id 15
  shipctl shipment create --file shipments.json --dry-run
  shipctl shipment create --file shipments.json --fulfillment-address-id 12 --json | jq '.created[].shipment_id'
  jq '[.[] | select(.value > 1000)]' artworks.json | shipctl shipment create --file -
  shipctl shipment template > shipments.csv
  shipctl shipment create --csv shipments.csv --results results.csv
${CSV_HELP}
`,
    );
  shipmentInputOptions(
    command,
    "read the shipment, or a list of them, from a JSON file (- for stdin); flags given as well override those fields of every item",
  );
  command.option("--reference <text>", "your own key for the shipment, never sent: the journal knows it by this (a new one creates a new shipment)");
  addCsvOptions(command, { verifyFlags: true, sending: true, fileToo: true, creates: true });
  command.action(
    csvOrPlain(
      ctx,
      async () => (await import("./create-csv.js")).run,
      async () => (await import("./create.js")).run,
    ),
  );
  return command;
}
