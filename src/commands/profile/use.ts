// `shipctl profile use NAME`: its wiring, options and run. The name's spelling is checked here; that the config file
// has such a profile, by the workflow (config/change-setting.ts useProfile).
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { UsageError } from "../../errors.js";
import { profileNameProblem } from "../../config/profile-name.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface ProfileUseOptions {
  name: string;
}

export function profileUseCommand(ctx: CommandContext, run: VerbRun<ProfileUseOptions> = runProfileUse): Command {
  const command = new Command("use")
    .addArgument(completesWith(new Argument("<name>", "a saved profile"), "profiles"))
    .description("make a saved profile the current one: commands use it unless given --profile or SHIPCTL_PROFILE")
    .addHelpText(
      "after",
      `
The same as \`shipctl config set currentProfile NAME\`, but only to a profile that exists: an unknown name is exit 2,
listing the saved profiles.

Examples:
  shipctl profile use staging
`,
    );
  return command.action(verbAction(ctx, (args) => ({ name: profileNameArg(args) }), run));
}

/** The saved profile a verb names (`profile use`, `profile remove`), its spelling checked. */
export function profileNameArg(args: readonly string[]): string {
  const name = args[0] ?? "";
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(problem);
  return name;
}

const runProfileUse: VerbRun<ProfileUseOptions> = async (options, deps) => (await import("../../config/change-setting.js")).useProfile(deps, options.name);
