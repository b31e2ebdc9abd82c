// `shipctl config list`: its wiring, options (none of its own) and run; the work is config/list-settings.ts.
import { Command } from "commander";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function configListCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runConfigList): Command {
  const command = new Command("list")
    .description("every setting of the profile in use, with its value and source (token masked)")
    .addHelpText("after", "\nExamples:\n  shipctl config list\n  shipctl config list --profile staging --json\n");
  return command.action(verbAction(ctx, noOptions, run));
}

const runConfigList: VerbRun<NoOptions> = async (_options, deps) => (await import("../../config/list-settings.js")).listSettings(deps);
