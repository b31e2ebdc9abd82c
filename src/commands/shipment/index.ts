// The verbs of `shipctl shipment` (the noun itself is declared in ../index.ts), each wired in its own file.
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { createCommand } from "./create.js";
import { getCommand } from "./get.js";
import { templateCommand } from "./template.js";
import { updateCommand } from "./update.js";

export function registerVerbs(shipment: Command, ctx: CommandContext): void {
  shipment.addHelpText("after", "\nRun `shipctl shipment <command> --help` for the flags and examples of each.\n");
  // As `shipment.command(name)` would: the verb takes the program's help layout, output streams and exit handling.
  addVerbs(shipment, updateCommand(ctx), getCommand(ctx), templateCommand(ctx), createCommand(ctx));
}
