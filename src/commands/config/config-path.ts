// `shipctl config path`: where the config file is (or will be), for support and for backing it up.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function configPathCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runConfigPath): Command {
  const command = new Command("path")
    .description("print the path of the config file")
    .addHelpText("after", '\nExamples:\n  shipctl config path\n  cp "$(shipctl config path)" config-backup.json\n' +
      "  shipctl config path --json\n");
  return command.action(verbAction(ctx, noOptions, run));
}

async function runConfigPath(_options: NoOptions, deps: Deps): Promise<void> {
  const { configFilePath } = await import("../../config/paths.js");
  const { printJson } = await import("../../output/json.js");
  const path = configFilePath(deps.env);
  if (deps.globals.json) printJson(deps.io, { path });
  else deps.io.out(`${path}\n`);
}
