// `shipctl profile use NAME`: its wiring, options and run. The name's spelling is checked here; that the config file
// has such a profile, by the workflow (config/change-setting.ts useProfile).
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { profileNameProblem } from "../../config/profile-name.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface ProfileUseOptions {
  name: string;
}

export function profileUseCommand(ctx: CommandContext, run: VerbRun<ProfileUseOptions> = runProfileUse): Command {
  const command = new Command("use")
    .argument("<name>", "a saved profile")
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
  return command.action(verbAction(ctx, parseProfileUse, run));
}

export function parseProfileUse(args: string[]): ProfileUseOptions {
  const name = args[0] ?? "";
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(problem);
  return { name };
}

export async function runProfileUse(options: ProfileUseOptions, deps: Deps): Promise<void> {
  const { useProfile } = await import("../../config/change-setting.js");
  return useProfile(deps, options.name);
}
