// `shipctl config tables show [countries|services]`: its wiring, options and run; config/show-tables.ts shows them.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import { TABLE_NAMES, tableKind } from "../../config/table-kind.js";
import type { TableKind } from "../../config/tables-csv.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { printsRecords } from "../record-output.js";
import { COUNTRY_ENTRY_FIELDS, SERVICE_ENTRY_FIELDS } from "../../contract/fields.js";

export interface TablesShowOptions {
  /** One table, or both when absent. */
  table?: TableKind;
}

export function tablesShowCommand(ctx: CommandContext, run: VerbRun<TablesShowOptions> = runTablesShow): Command {
  const command = new Command("show")
    .description("show the tables in use for this profile's service, and their source")
    .addArgument(completesWith(new Argument("[table]", `${TABLE_NAMES.join(" | ")} (default: both)`), TABLE_NAMES))
    .addHelpText("after", "\nExamples:\n  shipctl config tables show\n  shipctl config tables show services --json\n");
  // The entries of both tables are records; a field one kind lacks (a service's alpha2) is null.
  printsRecords(command, { in: ["countries", "services"], fields: [...new Set([...COUNTRY_ENTRY_FIELDS, ...SERVICE_ENTRY_FIELDS])], outputs: ["json"] });
  return command.action(verbAction(ctx, (args) => (args[0] === undefined ? {} : { table: tableKind(args[0]) }), run));
}

const runTablesShow: VerbRun<TablesShowOptions> = async (options, deps) => (await import("../../config/show-tables.js")).showTables(deps, options.table);
