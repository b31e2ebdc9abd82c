// The verbs of `shipctl address` (the noun itself is declared in ../index.ts), each wired in its own file.
import { addCommand } from "./add.js";
import { getCommand } from "./get.js";
import { updateCommand } from "./update.js";
import { verifyCommand } from "./verify.js";

export const verbs = [verifyCommand, addCommand, updateCommand, getCommand];
export const helpAfter = "\nRun `shipctl address <command> --help` for the flags and examples of each.\n";
