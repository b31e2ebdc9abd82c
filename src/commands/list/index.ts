// The verbs of `shipctl list` (the noun itself is declared in ../index.ts): one wiring for both kinds.
import type { CommandContext } from "../action.js";
import { listCommand } from "./list-kind.js";

export const verbs = [(ctx: CommandContext) => listCommand("shipments", ctx), (ctx: CommandContext) => listCommand("addresses", ctx)];
export const helpAfter = "\nRun `shipctl list shipments --help` for the flags and examples.\n";
