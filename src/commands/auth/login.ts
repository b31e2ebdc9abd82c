// `shipctl login`: its wiring, options and run. --base-url and --profile are the program's global flags, read from
// deps.globals by the workflow (config/save-login.ts), which is imported when the command runs.
import { Command } from "commander";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface LoginOptions {
  /** Read the token from stdin (for scripts; a token is never given as a flag). */
  tokenStdin: boolean;
}

export function loginCommand(ctx: CommandContext, run: VerbRun<LoginOptions> = runLogin, command = new Command("login")): Command {
  command
    .description("save the service URL and an access token in a profile, after checking the token")
    .option("--token-stdin", "read the token from stdin (for scripts; a token is never given as a flag)")
    .addHelpText(
      "after",
      `
On a terminal, login asks for the base URL (--base-url skips that question) and the token (hidden input).
Without a terminal (or with --no-input, or CI set) it needs --base-url URL and --token-stdin.
The token is checked with one read (GET /api/v1/shipments?limit=1) before anything is saved. Against a shipctl
sandbox, the sandbox's Country and Service tables are saved with the profile too.

The config file is written with mode 0600: \`shipctl config path\` shows where. SHIPCTL_TOKEN and SHIPCTL_BASE_URL,
when set, override what is saved.

Examples:
  shipctl login
  shipctl login --profile staging --base-url https://staging.example.com
  printf %s "$TOKEN" | shipctl login --base-url https://api.example.com --token-stdin
  printf %s sandbox-token | shipctl login --base-url http://127.0.0.1:8080 --token-stdin --json
`,
    );
  return command.action(verbAction(ctx, (_args, flags: Partial<LoginOptions>) => ({ tokenStdin: flags.tokenStdin === true }), run));
}

/** Which flags a run without a terminal needs is the workflow's question: it knows where the base URL came from. */
const runLogin: VerbRun<LoginOptions> = async (options, deps) => (await import("../../config/save-login.js")).saveLogin(deps, options);
