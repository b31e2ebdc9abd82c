// `shipctl config tables import countries|services FILE.csv`: its wiring, options and run. The file is read, and
// every row checked, by config/import-table.ts when the command runs.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { TABLE_NAMES, tableKind } from "../../config/table-kind.js";
import type { TableKind } from "../../config/tables-csv.js";
import { UsageError } from "../../errors.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface TablesImportOptions {
  table: TableKind;
  /** A CSV file's path, or "-" for stdin. */
  file: string;
}

export function tablesImportCommand(ctx: CommandContext, run: VerbRun<TablesImportOptions> = runTablesImport): Command {
  const command = new Command("import")
    .description("import a Country or Service table from CSV for this profile's service")
    .addArgument(completesWith(new Argument("<table>", TABLE_NAMES.join(" | ")), TABLE_NAMES))
    .argument("<file>", "CSV file, or - for stdin")
    .addHelpText(
      "after",
      `
CSV columns (a header row is optional; with one, columns may be in any order; comma, semicolon or tab):
  countries  id, alpha2, alpha3, name[, aliases separated by |]
  services   id, name[, aliases separated by |]
Every row is checked (ids positive integers, codes of 2 and 3 letters, no duplicate id, code or name); on any
error nothing is imported and each problem is listed by row (exit 2).

Examples:
  shipctl config tables import countries countries.csv
  printf 'id,name,aliases\\n1,Standard,Ground\\n2,Express,Priority|Rush\\n' | shipctl config tables import services -
`,
    );
  return command.action(verbAction(ctx, parseTablesImport, run));
}

export function parseTablesImport([table = "", file = ""]: string[]): TablesImportOptions {
  const kind = tableKind(table);
  // Blank (an unset variable in a script) names no file: say so rather than "cannot read : no such file".
  if (file.trim() === "") throw new UsageError("config tables import needs a CSV file name, or - for stdin");
  return { table: kind, file };
}

const runTablesImport: VerbRun<TablesImportOptions> = async (options, deps) =>
  (await import("../../config/import-table.js")).importTable(deps, options.table, options.file);
