// `shipctl config get <key>`: its wiring, options and run; the value is printed by config/list-settings.ts.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { UsageError } from "../../errors.js";
import { SETTING_KEYS, settingKey, type SettingKey } from "../../config/setting-sources.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface ConfigGetOptions {
  key: SettingKey;
}

const GETTABLE = "baseUrl, token (masked), profile, currentProfile, stripLocation, caFile, lookDays, ledger (password hidden), organization";

export function configGetCommand(ctx: CommandContext, run: VerbRun<ConfigGetOptions> = runConfigGet): Command {
  const command = new Command("get")
    .description(`print one setting: ${GETTABLE}`)
    .addArgument(completesWith(new Argument("<key>", SETTING_KEYS.join(" | ")), SETTING_KEYS))
    .addHelpText("after", '\nExamples:\n  shipctl config get baseUrl\n  url="$(shipctl config get baseUrl)"\n');
  return command.action(verbAction(ctx, parseConfigGet, run));
}

/** The key in any spelling settingKey accepts (baseUrl, base-url, BASE_URL...). */
export function parseConfigGet(args: string[]): ConfigGetOptions {
  const [input = ""] = args;
  const key = settingKey(input);
  if (!key) throw new UsageError(`unknown setting "${input}"`, { hint: `settings: ${GETTABLE}` });
  return { key };
}

const runConfigGet: VerbRun<ConfigGetOptions> = async (options, deps) => (await import("../../config/list-settings.js")).printSetting(deps, options.key);
