// `shipctl config tables confirm`: its wiring, options and run; config/confirm-tables.ts shows the built-in tables
// and stores them. Whether --yes is needed depends on a terminal: the run's question.
import { Command } from "commander";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface TablesConfirmOptions {
  /** Confirm without a prompt. */
  yes: boolean;
}

export function tablesConfirmCommand(ctx: CommandContext, run: VerbRun<TablesConfirmOptions> = runTablesConfirm): Command {
  const command = new Command("confirm")
    .description("show the built-in tables and store them as confirmed for this profile's service")
    .option("-y, --yes", "confirm without a prompt (required without a terminal)")
    .addHelpText("after", "\nExamples:\n  shipctl config tables confirm\n  shipctl config tables confirm --yes --profile staging\n");
  return command.action(verbAction(ctx, (_args, flags: Partial<TablesConfirmOptions>) => ({ yes: flags.yes === true }), run));
}

const runTablesConfirm: VerbRun<TablesConfirmOptions> = async (options, deps) => (await import("../../config/confirm-tables.js")).confirmTables(deps, options.yes);
