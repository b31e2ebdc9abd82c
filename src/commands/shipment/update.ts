// `shipctl shipment update <id>`: the full shipment (the service requires every field), checked locally, then
// PATCHed (shipments/update-shipment.ts). With --csv, every row of the file (shipments/update-from-csv.ts).
import { Command } from "commander";
import type { CsvFlags } from "../../batch/run-options.js";
import type { Deps } from "../../deps.js";
import type { ShipmentFlags } from "../../input/shipment-fields.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { CSV_HELP, CSV_UPDATE_HELP, addCsvOptions, parseItemMode, updateId, type CsvMode } from "../csv-mode.js";
import { SHIPMENT_INPUT_FLAGS, shipmentInputOptions } from "./shipment-flags.js";

export type UpdateOptions =
  /** Each row names its shipment in the id column. */
  | CsvMode
  /** One shipment, by id, from the flags and/or --file. */
  | { mode: "single"; id: number; input: ShipmentFlags };

export function updateCommand(ctx: CommandContext, run: VerbRun<UpdateOptions> = runUpdate): Command {
  const command = new Command("update")
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
  addCsvOptions(command, { verifyFlags: true, sending: true })
    .addHelpText("after", CSV_HELP)
    .addHelpText(
      "after",
      `${CSV_UPDATE_HELP}
The service may clear an updated shipment's price: the plan names the shipments to update that have one, and
\`shipctl checkout --quote ID...\` prices them again.`,
    );
  return command.action(verbAction(ctx, parseUpdate, run));
}

export function parseUpdate(args: string[], flags: ShipmentFlags & CsvFlags): UpdateOptions {
  const parsed = parseItemMode<ShipmentFlags>(args, flags, SHIPMENT_INPUT_FLAGS, "Without --csv one shipment is replaced by one PATCH.");
  return parsed.mode === "csv" ? parsed : { ...parsed, id: updateId(args, "shipment") };
}

export async function runUpdate(options: UpdateOptions, deps: Deps): Promise<number | void> {
  if (options.mode === "csv") return (await import("../../shipments/update-from-csv.js")).runUpdateCsv(deps, options.csv);
  const [{ readShipmentInput }, { callOptions }] = await Promise.all([import("../../input/shipment-input.js"), import("../../deps.js")]);
  // The whole shipment (the service requires every field), checked locally. A PATCH carries all of it, so resending
  // it is harmless: the client may retry it.
  const shipment = await readShipmentInput(deps, options.input);
  await (await deps.api()).updateShipment(options.id, shipment, callOptions(deps, `Updating shipment ${options.id}`));
  if (deps.globals.json) printJson(deps.io, { id: options.id, shipment });
  deps.io.alert(`Updated shipment ${options.id}.\n`);
}
