// The verbs of `shipctl list` (the noun itself is declared in ../index.ts).
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { listCommand } from "./list-kind.js";

export function registerVerbs(list: Command, ctx: CommandContext): void {
  list.addHelpText("after", "\nRun `shipctl list shipments --help` for the flags and examples.\n");
  addVerbs(list, listCommand("shipments", ctx), listCommand("addresses", ctx));
}
