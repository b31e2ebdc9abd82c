// `shipctl auth status`, and the same command at the top level as `shipctl whoami`: its wiring, options and run; the
// workflow is config/auth-status.ts, imported when the command runs.
import { Command } from "commander";
import type { StatusOptions } from "../../config/auth-status.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

/** "status" under `auth`; at the top level, `shipctl whoami` (commands/index.ts hands it that command). */
export function authStatusCommand(ctx: CommandContext, run: VerbRun<StatusOptions> = runAuthStatus, command = new Command("status")): Command {
  const name = command.name();
  command
    .description("show the profile in use and why, its base URL, the token (masked), and whether the token works")
    .option("--offline", "send nothing: report the settings only, without checking the token")
    .addHelpText(
      "after",
      `
Shows the profile in use and why (--profile, SHIPCTL_PROFILE, the current profile, or the default), the base URL
and the token with where each came from (flag, environment or profile), whether the service takes the token (one
read: GET /api/v1/shipments?limit=1) and whether it is a shipctl sandbox (as the profile knows it; asked once if it
does not). The token is only ever shown masked (sand…oken).
Exit 4 when the token is refused or nobody is logged in; --json prints one document either way.

Examples:
  shipctl ${name === "status" ? "auth status" : name}
  shipctl ${name === "status" ? "auth status" : name} --offline --profile staging
  shipctl ${name === "status" ? "auth status" : name} --json | jq .token_works
`,
    );
  return command.action(verbAction(ctx, (_args, flags: Partial<StatusOptions>) => ({ offline: flags.offline === true }), run));
}

const runAuthStatus: VerbRun<StatusOptions> = async (options, deps) => (await import("../../config/auth-status.js")).showAuthStatus(deps, options);
