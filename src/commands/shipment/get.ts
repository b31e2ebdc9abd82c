// `shipctl shipment get <id>`: one shipment, as a table for people or the service's record as JSON.
import type { Deps } from "../../deps.js";
import { callOptions } from "../../input/call-options.js";
import { enumLabels } from "../../input/enums.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import { renderRecord, tableWidth } from "../../output/table.js";
import { shipmentRows } from "../../shipments/describe-shipment.js";

export async function run(deps: Deps, args: string[]): Promise<void> {
  const id = parseId(args[0] ?? "", "shipment id");
  const shipment = await (await deps.api()).getShipment(id, callOptions(deps, `Reading shipment ${id}`));
  if (deps.globals.json) {
    printJson(deps.io, shipment);
    return;
  }
  const rows = shipmentRows(shipment, await enumLabels(deps), deps.clock.now());
  deps.io.out(renderRecord(rows, { theme: deps.theme.out, width: tableWidth(deps.io) }));
}
