// `shipctl csv map FILE`: show, set (--set) or forget (--forget) the column mapping saved for FILE's header shape.
import { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { CsvMapRequest } from "../../batch/column-mapping.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export function csvMapCommand(ctx: CommandContext, run: VerbRun<CsvMapRequest> = runMap): Command {
  const command = new Command("map")
    .description("show, set or forget the column mapping saved for a CSV file's header")
    .argument("<file>", "a CSV file with your own headers (its header row is read, nothing else)")
    .option("--set <pairs>", 'save a mapping: your headers for shipctl\'s columns, "Artwork=title,Insured value=value"')
    .option("--forget", "forget the mapping saved for this header")
    .addHelpText(
      "after",
      `
A mapping is kept per profile and header shape: every file whose header row has the same names in the same order is
read with it, without --map. \`--map PAIRS\` on a CSV command saves one too (not in a dry run), and so does a CSV
command at a terminal when it asks which of your headers are the columns it lacks. Each run says on
stderr which mapping it used, and --json carries it ("columns"). Results and errors files keep your headers, so they
run again under the same mapping. With --json: {"file", "profile", "headers", "columns": {"Artwork": "title"} | null}.

Examples:
  shipctl csv map inventory.csv
  shipctl csv map inventory.csv --set "Artwork=title,Insured value=value"
  shipctl csv map inventory.csv --forget
`,
    );
  return command.action(verbAction(ctx, parseMap, run));
}

export function parseMap(args: string[], flags: { set?: string; forget?: boolean }): CsvMapRequest {
  if (args[0]!.trim() === "") throw new UsageError("csv map needs a CSV file name");
  if (flags.set !== undefined && flags.forget === true) throw new UsageError("give --set or --forget, not both");
  return { file: args[0]!, ...(flags.set !== undefined ? { set: flags.set } : {}), forget: flags.forget === true };
}

const runMap: VerbRun<CsvMapRequest> = async (options, deps) => (await import("../../batch/column-mapping.js")).runCsvMap(deps, options);
