// `shipctl profile list`: its wiring, options (none of its own) and run; the workflow is config/list-profiles.ts.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export type ProfileListOptions = Record<string, never>;

export function profileListCommand(ctx: CommandContext, run: VerbRun<ProfileListOptions> = runProfileList): Command {
  const command = new Command("list")
    .description("list the saved profiles: base URL, saved token, sandbox, and which one is in use and why")
    .addHelpText(
      "after",
      `
No network: SANDBOX is what the profile knows (? until a command or \`auth status\` has asked the service).
CURRENT marks the profile this run uses (*) and why: --profile, SHIPCTL_PROFILE, saved as current (\`profile use\`),
or the default.

Examples:
  shipctl profile list
  shipctl profile list --json | jq -r '.profiles[].name'
`,
    );
  return command.action(verbAction(ctx, parseProfileList, run));
}

export function parseProfileList(): ProfileListOptions {
  return {};
}

export async function runProfileList(_options: ProfileListOptions, deps: Deps): Promise<void> {
  const { listProfiles } = await import("../../config/list-profiles.js");
  return listProfiles(deps);
}
