// The verbs of `shipctl report` (the noun itself is declared in ../index.ts).
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { reportUploadCommand } from "./report-upload.js";

export function registerVerbs(report: Command, ctx: CommandContext): void {
  report.addHelpText("after", "\nRun `shipctl report upload --help` for folder layouts, checks and examples.\n");
  addVerbs(report, reportUploadCommand(ctx));
}
