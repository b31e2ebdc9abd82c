// `shipctl address verify`: asks the service whether an address is deliverable. Exit 0 only for a valid address;
// 6 when the service finds it invalid or proposes a revision (the verdict is still printed, as JSON with --json).
// With --csv, every row's address is verified (addresses/address-csv.ts).
import { Command } from "commander";
import type { CsvFlags } from "../../batch/run-options.js";
import type { Deps } from "../../deps.js";
import { ExitCode, exitErrorJson } from "../../errors.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { printJson, withError } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { CSV_VERIFY_HELP, addCsvOptions, parseItemMode, type CsvMode } from "../csv-mode.js";
import { ADDRESS_INPUT_FLAGS, INPUT_HELP, addressInputOptions } from "./address-flags.js";

export type VerifyOptions =
  | CsvMode
  /** One address, from the flags and/or --file. */
  | { mode: "single"; input: AddressFlags };

export function verifyCommand(ctx: CommandContext, run: VerbRun<VerifyOptions> = runVerify): Command {
  const command = new Command("verify")
    .description("ask the service whether an address is valid; show its recommended revision, if any")
    .addHelpText(
      "after",
      `${INPUT_HELP}

Exit codes: 0 valid; 6 invalid or a revision is recommended (the verdict is still printed, as JSON with --json);
2 bad input (nothing sent); 7 the service's verifier stayed rate limited after retries.

Examples:
  shipctl address verify --name "Gallery North" --email ship@gallery.example --phone "+12069536978" \\
    --line-1 "1 Main Street" --city Seattle --region WA --post-code 98101 --country US
  shipctl address verify --file gallery.json --json
  cat gallery.json | shipctl address verify --file - --post-code 98102
`,
    );
  addressInputOptions(command);
  addCsvOptions(command, { verifyFlags: false, sending: false }).addHelpText("after", CSV_VERIFY_HELP);
  return command.action(verbAction(ctx, parseVerify, run));
}

export function parseVerify(args: string[], flags: AddressFlags & CsvFlags): VerifyOptions {
  return parseItemMode<AddressFlags>(args, flags, ADDRESS_INPUT_FLAGS, "Without --csv one address is verified.");
}

export async function runVerify(options: VerifyOptions, deps: Deps): Promise<number> {
  if (options.mode === "csv") return (await import("../../addresses/address-csv.js")).runAddressVerifyCsv(deps, options.csv);
  const [{ readAddressInput }, { verifyWithService }, { verdictText }] = await Promise.all([
    import("../../input/address-input.js"),
    import("../../addresses/verification.js"),
    import("../../addresses/describe-address.js"),
  ]);
  const address = await readAddressInput(deps, options.input);
  const result = await verifyWithService(deps, await deps.api(), address);
  const advice = result.valid
    ? undefined
    : result.recommended
      ? "The service recommends a revision: store it with `shipctl address add ... --accept-recommended`, or correct the input."
      : "The service will not accept this address as it is: correct it and verify again.";
  if (deps.globals.json) printJson(deps.io, withError(result, advice === undefined ? undefined : exitErrorJson(ExitCode.Rejected, advice)));
  else deps.io.out(verdictText(result, deps.theme.out));
  if (advice === undefined) return ExitCode.Ok;
  deps.io.alert(`${advice}\n`);
  return ExitCode.Rejected;
}
