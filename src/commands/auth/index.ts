// Wiring of `shipctl login` and `shipctl logout`: flags and help here, logic in login.ts / logout.ts (loaded lazily).
// --base-url and --profile are the program's global flags, read from deps.globals by the logic.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("login")
    .description("save the service URL and an access token in a profile, after checking the token")
    .option("--token-stdin", "read the token from stdin (for scripts; a token is never given as a flag)")
    .addHelpText(
      "after",
      `
On a terminal, login asks for the base URL (--base-url skips that question) and the token (hidden input).
Without a terminal (or with --no-input) it needs --base-url URL and --token-stdin.
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
    )
    .action(lazyAction(ctx, async () => (await import("./login.js")).run));

  program
    .command("logout")
    .description("remove the saved token of a profile (its base URL is kept)")
    .addHelpText(
      "after",
      `
Exits 0 even when the profile was not logged in.

Examples:
  shipctl logout
  shipctl logout --profile staging
`,
    )
    .action(lazyAction(ctx, async () => (await import("./logout.js")).run));
}
