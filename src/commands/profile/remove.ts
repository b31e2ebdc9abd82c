// `shipctl profile remove NAME`: its wiring, options and run; config/remove-profile.ts asks (or takes --yes) and
// removes. Whether --yes is needed depends on a terminal: the run's question.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { profileNameArg } from "./use.js";

export interface ProfileRemoveOptions {
  name: string;
  /** Remove without a prompt. */
  yes: boolean;
}

export function profileRemoveCommand(ctx: CommandContext, run: VerbRun<ProfileRemoveOptions> = runProfileRemove): Command {
  const command = new Command("remove")
    .addArgument(completesWith(new Argument("<name>", "a saved profile"), "profiles"))
    .description("remove a saved profile with its token and tables")
    .option("-y, --yes", "remove without a prompt (required without a terminal)")
    .addHelpText(
      "after",
      `
Asks first on a terminal; without one (or with --no-input) it needs --yes (exit 2 otherwise). An unknown name is
exit 2, listing the saved profiles. Removing the current profile says which one commands use from then on (the
default, unless SHIPCTL_PROFILE names another), and makes it the current profile when it is saved.

Examples:
  shipctl profile remove old-staging
  shipctl profile remove old-staging --yes
`,
    );
  return command.action(verbAction(ctx, (args, flags: { yes?: boolean }) => ({ name: profileNameArg(args), yes: flags.yes === true }), run));
}

const runProfileRemove: VerbRun<ProfileRemoveOptions> = async (options, deps) =>
  (await import("../../config/remove-profile.js")).removeProfile(deps, options.name, options.yes);
