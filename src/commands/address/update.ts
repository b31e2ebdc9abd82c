// `shipctl address update <id>`: the same input and verification rules as `add`, then the full address replaces the
// stored one (addresses/verification.ts). With --csv, every row of the file (addresses/address-csv.ts).
import { Command } from "commander";
import type { StorePolicy } from "../../addresses/verification.js";
import type { CsvFlags } from "../../batch/run-options.js";
import type { Deps } from "../../deps.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { CSV_HELP, CSV_UPDATE_HELP, addCsvOptions, parseItemMode, updateId, type CsvMode } from "../csv-mode.js";
import { ADDRESS_INPUT_FLAGS, INPUT_HELP, addressInputOptions, storePolicy, storePolicyOptions } from "./address-flags.js";

export type UpdateOptions =
  /** Each row names its address in the id (or address_id) column. */
  | CsvMode
  /** One address, by id, from the flags and/or --file. */
  | { mode: "single"; id: number; input: AddressFlags; store: StorePolicy };

export function updateCommand(ctx: CommandContext, run: VerbRun<UpdateOptions> = runUpdate): Command {
  const command = new Command("update")
    .argument("[id]", "id of the stored address (not with --csv)")
    .description("verify an address, then replace a stored address with it (every field is sent)")
    .addHelpText(
      "after",
      `${INPUT_HELP}

The service replaces the whole address, so every required field must be given: the usual way is to edit the output
of \`address get\`. Verification works as for \`address add\`.

Output: nothing on stdout; with --json {"id": 12, "address": {...as stored}}.

With --csv, each row is one stored address: its id (column address_id or id) and every address field, as
\`shipctl list addresses --format csv\` writes them, so an export edited in a spreadsheet is an update file.

Examples:
  shipctl address get 12 --json > a.json && $EDITOR a.json && shipctl address update 12 --file a.json
  shipctl address update 12 --file a.json --phone "+12069536978" --accept-recommended
  shipctl list addresses --format csv > addresses.csv && shipctl address update --csv addresses.csv --results out.csv
`,
    );
  addressInputOptions(command);
  storePolicyOptions(command);
  addCsvOptions(command, { verifyFlags: false, sending: true }).addHelpText("after", CSV_HELP).addHelpText("after", CSV_UPDATE_HELP);
  return command.action(verbAction(ctx, parseUpdate, run));
}

export function parseUpdate(args: string[], flags: AddressFlags & CsvFlags): UpdateOptions {
  const parsed = parseItemMode<AddressFlags>(args, flags, ADDRESS_INPUT_FLAGS, "Without --csv one address is replaced by one PATCH.");
  return parsed.mode === "csv" ? parsed : { ...parsed, id: updateId(args, "address"), store: storePolicy(flags) };
}

export async function runUpdate(options: UpdateOptions, deps: Deps): Promise<number | void> {
  if (options.mode === "csv") return (await import("../../addresses/address-csv.js")).runAddressUpdateCsv(deps, options.csv);
  const { updateAddress } = await import("../../addresses/verification.js");
  const stored = await updateAddress(deps, options.id, options.input, options.store);
  if (deps.globals.json) printJson(deps.io, { id: options.id, address: stored });
  deps.io.alert(`Updated address ${options.id}.\n`);
}
