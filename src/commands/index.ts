// Every noun's wiring, in the order `shipctl --help` lists them. Wiring modules only define flags and help;
// their logic is imported lazily when a command runs.
import type { Command } from "commander";
import type { CommandContext } from "./action.js";
import * as address from "./address/index.js";
import * as shipment from "./shipment/index.js";
import * as list from "./list/index.js";
import * as checkout from "./checkout/index.js";
import * as report from "./report/index.js";
import * as auth from "./auth/index.js";
import * as config from "./config/index.js";
import * as sandbox from "./sandbox/index.js";
import * as demo from "./demo/index.js";

const nouns = [address, shipment, list, checkout, report, auth, config, sandbox, demo];

export function registerCommands(program: Command, ctx: CommandContext): void {
  for (const noun of nouns) noun.register(program, ctx);
}
