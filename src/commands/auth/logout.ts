// `shipctl logout`: its wiring, options (none of its own: --profile is global) and run; the workflow is
// config/remove-token.ts, imported when the command runs.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export type LogoutOptions = Record<string, never>;

export function logoutCommand(ctx: CommandContext, run: VerbRun<LogoutOptions> = runLogout, command = new Command("logout")): Command {
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
  return command.action(verbAction(ctx, parseLogout, run));
}

export function parseLogout(): LogoutOptions {
  return {};
}

export async function runLogout(_options: LogoutOptions, deps: Deps): Promise<void> {
  const { removeToken } = await import("../../config/remove-token.js");
  return removeToken(deps);
}
