// `shipctl shipment get <id>`: one shipment, as a table for people or the service's record as JSON.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { printsRecords } from "../record-output.js";
import { PRINTED_SHIPMENT_FIELDS } from "../../contract/fields.js";

export interface GetOptions {
  id: number;
}

export function getCommand(ctx: CommandContext, run: VerbRun<GetOptions> = runGet): Command {
  const command = new Command("get")
    .argument("<id>", "id of the shipment")
    .description("show a shipment: status, price, addresses and timestamps")
    .addHelpText(
      "after",
      `
Output: a table with the status by name, the value and price in dollars, both addresses, the timestamps (UTC) and
the condition-report sets it has; with --json the service's record (price in cents, status as its integer), with
"status_name" (Draft) after "status" as \`list shipments\` has it, and "report_sets": {"set_1": {"stored", "source"}, "set_2": {...}}.
Each side reads the same whichever shape the service sent it in: "fulfillment_address_id" (the stored address it
was given by, null when given inline) and "fulfillment_address" (its fields, null when the service sent only the id);
the same for "destination_". The service shows a set only through
the status (Filed and later: set 1; Completed: set 2): source "service". A set this machine's report ledger records
as stored, which the status does not show yet, is stored with source "ledger".
Exit 6 when there is no shipment with that id.

Examples:
  shipctl shipment get 7
  shipctl shipment get 7 --json | jq .status
`,
    );
  // The --json document is the shipment itself, with the report sets shipctl adds.
  printsRecords(command, { in: [], fields: [...PRINTED_SHIPMENT_FIELDS, "report_sets"], outputs: ["json"] });
  return command.action(verbAction(ctx, parseGet, run));
}

export function parseGet(args: string[]): GetOptions {
  return { id: parseId(args[0] ?? "", "shipment id") };
}

export async function runGet(options: GetOptions, deps: Deps): Promise<void> {
  const { callOptions } = await import("../../deps.js");
  const { readStoredInLedger, reportSetsOf, describeReportSets } = await import("../../reports/report-sets.js");
  const api = await deps.api();
  const shipment = await api.getShipment(options.id, callOptions(deps, `Reading shipment ${options.id}`));
  const ledger = await readStoredInLedger(await deps.connection(), deps.env, [shipment]);
  if (ledger.unreadable) deps.io.err(`Note: ledger not read (${ledger.unreadable}); report sets are shown from the status alone.\n`);
  const sets = reportSetsOf(shipment, ledger.stored);
  if (deps.globals.json) return printJson(deps.io, { ...(await import("../../shipments/shipment-filter.js")).withStatusName(shipment), report_sets: sets });
  const { enumLabels } = await import("../../input/table-values.js");
  const { shipmentRows } = await import("../../shipments/describe-shipment.js");
  const { renderRecord, tableWidth } = await import("../../output/table.js");
  const { serviceNow } = await import("../../api/service-clock.js");
  // "(2 h ago)" is measured on the service's clock, which stamped these times: this machine's may be hours off.
  const rows = shipmentRows(shipment, await enumLabels(deps), serviceNow(api.serviceClockOffsetMs?.(), deps.clock));
  rows.push(["reports", describeReportSets(sets)]);
  deps.io.out(renderRecord(rows, { theme: deps.theme.out, width: tableWidth(deps.io) }));
}
