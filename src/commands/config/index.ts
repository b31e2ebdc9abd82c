// The verbs of `shipctl config`, and of its `config tables` group (the noun itself is declared in ../index.ts).
import { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { configListCommand } from "./config-list.js";
import { configGetCommand } from "./config-get.js";
import { configSetCommand } from "./config-set.js";
import { configPathCommand } from "./config-path.js";
import { tablesShowCommand } from "./tables-show.js";
import { tablesImportCommand } from "./tables-import.js";
import { tablesConfirmCommand } from "./tables-confirm.js";

export const verbs = [configListCommand, configGetCommand, configSetCommand, configPathCommand, tablesCommand];
export const helpAfter = `
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
`;

function tablesCommand(ctx: CommandContext): Command {
  const tables = new Command("tables")
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
  addVerbs(tables, tablesShowCommand(ctx), tablesImportCommand(ctx), tablesConfirmCommand(ctx));
  return tables;
}
