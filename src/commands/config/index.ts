// Wiring of `shipctl config ...`: flags and help here, logic in sibling files imported lazily when a command runs.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";

/** The verbs of `shipctl config` (the noun itself is declared in ../index.ts). */
export function registerVerbs(config: Command, ctx: CommandContext): void {
  config.addHelpText(
      "after",
      `
Precedence for every run: flag > environment > profile.
  profile   --profile NAME  > SHIPCTL_PROFILE  > currentProfile in the config file > "default"
  base URL  --base-url URL  > SHIPCTL_BASE_URL > the profile's baseUrl
  token                        SHIPCTL_TOKEN    > the profile's token (there is no token flag)
SHIPCTL_CONFIG_DIR moves the config file (mode 0600).

Examples:
  shipctl config list
  shipctl config get baseUrl
  shipctl config set currentProfile staging
  shipctl config tables show countries
`,
    );

  config
    .command("list")
    .description("every setting of the profile in use, with its value and source (token masked)")
    .addHelpText("after", "\nExamples:\n  shipctl config list\n  shipctl config list --profile staging --json\n")
    .action(lazyAction(ctx, async () => (await import("./list.js")).run));

  config
    .command("get")
    .description("print one setting: baseUrl, token (masked), profile, currentProfile")
    .argument("<key>", "baseUrl | token | profile | currentProfile")
    .addHelpText("after", '\nExamples:\n  shipctl config get baseUrl\n  url="$(shipctl config get baseUrl)"\n')
    .action(lazyAction(ctx, async () => (await import("./get.js")).run));

  config
    .command("set")
    .description("change a setting of the profile in use: baseUrl, or currentProfile")
    .argument("<key>", "baseUrl | currentProfile")
    .argument("<value>", "the new value")
    .addHelpText(
      "after",
      `
baseUrl must be https://, except for localhost, 127.0.0.0/8 and [::1]. A trailing /api/v1 is removed.
Changing baseUrl to another host removes the saved token (it belongs to the old host).
The token cannot be set here: use \`printf %s "$TOKEN" | shipctl login --token-stdin\`.

Examples:
  shipctl config set baseUrl https://api.example.com
  shipctl config set baseUrl http://127.0.0.1:8080 --profile local
  shipctl config set currentProfile local
`,
    )
    .action(lazyAction(ctx, async () => (await import("./set.js")).run));

  config
    .command("path")
    .description("print the path of the config file")
    .action(lazyAction(ctx, async () => (await import("./path.js")).run));

  const tables = config
    .command("tables")
    .description("the Country and Service tables that turn codes and names into the service's integers")
    .addHelpText(
      "after",
      `
The service does not publish its Country and Service integers. Commands always accept the integer; codes
(US, USA) and names (France, Express) are accepted only through a table you can vouch for:
  sandbox     a shipctl sandbox's own tables (found automatically)
  imported    a CSV you imported for this profile's service
  confirmed   the built-in tables, which you confirmed for this profile's service
Without one of these, codes and names are refused, never guessed.
`,
    );

  tables
    .command("show")
    .description("show the tables in use for this profile's service, and their source")
    .argument("[table]", "countries | services (default: both)")
    .addHelpText("after", "\nExamples:\n  shipctl config tables show\n  shipctl config tables show services --json\n")
    .action(lazyAction(ctx, async () => (await import("./tables-show.js")).run));

  tables
    .command("import")
    .description("import a Country or Service table from CSV for this profile's service")
    .argument("<table>", "countries | services")
    .argument("<file>", "CSV file, or - for stdin")
    .addHelpText(
      "after",
      `
CSV columns (a header row is optional; with one, columns may be in any order; comma, semicolon or tab):
  countries  id, alpha2, alpha3, name[, aliases separated by |]
  services   id, name[, aliases separated by |]
Every row is checked (ids positive integers, codes of 2 and 3 letters, no duplicate id, code or name); on any
error nothing is imported and each problem is listed by row (exit 2).

Examples:
  shipctl config tables import countries countries.csv
  printf 'id,name\\n1,Standard\\n2,Express|Priority\\n' | shipctl config tables import services -
`,
    )
    .action(lazyAction(ctx, async () => (await import("./tables-import.js")).run));

  tables
    .command("confirm")
    .description("show the built-in tables and store them as confirmed for this profile's service")
    .option("-y, --yes", "confirm without a prompt (required without a terminal)")
    .addHelpText("after", "\nExamples:\n  shipctl config tables confirm\n  shipctl config tables confirm --yes --profile staging\n")
    .action(lazyAction(ctx, async () => (await import("./tables-confirm.js")).run));
}
