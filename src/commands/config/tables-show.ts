// `shipctl config tables show [countries|services]`: its wiring, options and run; config/show-tables.ts shows them.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { tableKind } from "../../config/table-kind.js";
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
    .argument("[table]", "countries | services (default: both)")
    .addHelpText("after", "\nExamples:\n  shipctl config tables show\n  shipctl config tables show services --json\n");
  // The entries of both tables are records; a field one kind lacks (a service's alpha2) is null.
  printsRecords(command, { in: ["countries", "services"], fields: [...new Set([...COUNTRY_ENTRY_FIELDS, ...SERVICE_ENTRY_FIELDS])], outputs: ["json"] });
  return command.action(verbAction(ctx, parseTablesShow, run));
}

export function parseTablesShow(args: string[]): TablesShowOptions {
  return args[0] === undefined ? {} : { table: tableKind(args[0]) };
}

export async function runTablesShow(options: TablesShowOptions, deps: Deps): Promise<void> {
  const { showTables } = await import("../../config/show-tables.js");
  return showTables(deps, options.table);
}
