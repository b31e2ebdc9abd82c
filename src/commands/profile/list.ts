// `shipctl profile list`: its wiring, options (none of its own) and run; the workflow is config/list-profiles.ts.
import { Command } from "commander";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function profileListCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runProfileList): Command {
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
  return command.action(verbAction(ctx, noOptions, run));
}

const runProfileList: VerbRun<NoOptions> = async (_options, deps) => (await import("../../config/list-profiles.js")).listProfiles(deps);
