// Wiring of `shipctl shipment ...`: flags and help only, one registration function per verb; each verb's logic sits
// in a sibling file imported when the command runs.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";
import { SHIPMENT_FIELD_FLAGS } from "../../input/shipment-fields.js";
import { CSV_HELP, addCsvOptions, csvOrPlain } from "../../batch/wiring.js";
import { UsageError } from "../../errors.js";

export function register(program: Command, ctx: CommandContext): void {
  const shipment = program
    .command("shipment")
    .description("create, update and read shipments")
    .addHelpText("after", "\nRun `shipctl shipment <command> --help` for the flags and examples of each.\n");
  registerUpdate(shipment, ctx);
  registerGet(shipment, ctx);
  registerTemplate(shipment, ctx);
  registerCreateCsv(shipment, ctx);
}

/** The shipment input flags (--file and one flag per field). */
export function shipmentInputOptions(command: Command): Command {
  command.option("--file <path>", "read the shipment from a JSON file (- for stdin); flags given as well override its fields");
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
`,
    );
  command.action(lazyAction(ctx, async () => (await import("./template.js")).run));
  return command;
}

/**
 * `shipment create --csv FILE`. Single shipments from flags or --file join this command with
 * `csvOrPlain(ctx, csvRun, plainRun)` (see update); until then --csv is required.
 */
export function registerCreateCsv(shipment: Command, ctx: CommandContext): Command {
  const command = shipment
    .command("create")
    .description("create shipments from a CSV file: every row checked first, ten a request, never one twice")
    .addHelpText(
      "after",
      `${CSV_HELP}

Examples:
  shipctl shipment template > shipments.csv
  shipctl shipment create --csv shipments.csv --dry-run
  shipctl shipment create --csv shipments.csv --results results.csv
  shipctl shipment create --csv - --json < shipments.csv
`,
    );
  addCsvOptions(command, { verifyFlags: true, sending: true });
  command.action(
    csvOrPlain(
      ctx,
      async () => (await import("./create-csv.js")).run,
      async () => async () => {
        throw new UsageError("shipment create needs --csv FILE (or --csv - for stdin)", { hint: "Run `shipctl shipment template` for a file to start from." });
      },
    ),
  );
  return command;
}
