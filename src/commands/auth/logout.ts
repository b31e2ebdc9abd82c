// `shipctl logout`: its wiring, options (none of its own: --profile is global) and run; the workflow is
// config/change-setting.ts (removeToken), imported when the command runs.
import { Command } from "commander";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function logoutCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runLogout, command = new Command("logout")): Command {
  command
    .description("remove the saved token of a profile (its base URL is kept)")
    .addHelpText(
      "after",
      `
Exits 0 even when the profile was not logged in.

Examples:
  shipctl logout
  shipctl logout --profile staging
`,
    );
  return command.action(verbAction(ctx, noOptions, run));
}

const runLogout: VerbRun<NoOptions> = async (_options, deps) =>
  (await import("../../config/change-setting.js")).removeToken(deps);
