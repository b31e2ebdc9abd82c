// `shipctl shipment template [--update] [--header-only]`: prints a CSV to start a batch from (stdout: data); with
// --json, {"columns": [...], "example": {...}} instead (shipments/csv-template.ts).
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface TemplateOptions {
  /** --update: the columns of `shipment update --csv` (an id column first). */
  update: boolean;
  /** false with --header-only: no example row. */
  example: boolean;
}

export function templateCommand(ctx: CommandContext, run: VerbRun<TemplateOptions> = runTemplate): Command {
  const command = new Command("template")
    .description("print a CSV file to start a batch from: the header and one example row")
    .option("--update", "the columns of `shipment update --csv` (an id column first)")
    .option("--header-only", "only the header row")
    .addHelpText(
      "after",
      `
Examples:
  shipctl shipment template > shipments.csv
  shipctl shipment template --update --header-only > updates.csv
  shipctl shipment template --json     # {"columns": [...], "example": {"reference": "INV-0001", ...}}
`,
    );
  return command.action(verbAction(ctx, (_args, flags: { update?: boolean; headerOnly?: boolean }) => ({ update: flags.update === true, example: flags.headerOnly !== true }), run));
}

export async function runTemplate(options: TemplateOptions, deps: Deps): Promise<void> {
  const { templateCsv, templateJson } = await import("../../shipments/csv-template.js");
  deps.io.out(deps.globals.json ? `${JSON.stringify(templateJson(options), null, 2)}\n` : templateCsv(options));
}
