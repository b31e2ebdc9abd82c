// The verbs of `shipctl shipment` (the noun itself is declared in ../index.ts), each wired in its own file.
import { createCommand } from "./create.js";
import { getCommand } from "./get.js";
import { templateCommand } from "./template.js";
import { updateCommand } from "./update.js";

export const verbs = [updateCommand, getCommand, templateCommand, createCommand];
export const helpAfter = "\nRun `shipctl shipment <command> --help` for the flags and examples of each.\n";
