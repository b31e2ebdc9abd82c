// The verbs of `shipctl address` (the noun itself is declared in ../index.ts), each wired in its own file.
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { addCommand } from "./add.js";
import { getCommand } from "./get.js";
import { updateCommand } from "./update.js";
import { verifyCommand } from "./verify.js";

export function registerVerbs(address: Command, ctx: CommandContext): void {
  address.addHelpText("after", "\nRun `shipctl address <command> --help` for the flags and examples of each.\n");
  // As `address.command(name)` would: the verb takes the program's help layout, output streams and exit handling.
  addVerbs(address, verifyCommand(ctx), addCommand(ctx), updateCommand(ctx), getCommand(ctx));
}
