// `shipctl config list`: its wiring, options (none of its own) and run; the work is config/list-settings.ts.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export type ConfigListOptions = Record<string, never>;

export function configListCommand(ctx: CommandContext, run: VerbRun<ConfigListOptions> = runConfigList): Command {
  const command = new Command("list")
    .description("every setting of the profile in use, with its value and source (token masked)")
    .addHelpText("after", "\nExamples:\n  shipctl config list\n  shipctl config list --profile staging --json\n");
  return command.action(verbAction(ctx, parseConfigList, run));
}

export function parseConfigList(): ConfigListOptions {
  return {};
}

export async function runConfigList(_options: ConfigListOptions, deps: Deps): Promise<void> {
  const { listSettings } = await import("../../config/list-settings.js");
  return listSettings(deps);
}
