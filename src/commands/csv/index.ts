// The verbs of `shipctl csv` (the noun itself is declared in ../index.ts).
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { csvMapCommand } from "./map.js";

export function registerVerbs(csv: Command, ctx: CommandContext): void {
  addVerbs(csv, csvMapCommand(ctx));
}
