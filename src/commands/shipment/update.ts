// `shipctl shipment update <id>`: the full shipment (the service requires every field), checked locally, then PATCHed.
import type { Deps } from "../../deps.js";
import { callOptions } from "../../input/call-options.js";
import { parseId } from "../../input/ids.js";
import type { ShipmentFlags } from "../../input/shipment-fields.js";
import { readShipmentInput } from "../../input/shipment-input.js";
import { printJson } from "../../output/json.js";

export async function run(deps: Deps, args: string[], flags: ShipmentFlags): Promise<void> {
  const id = parseId(args[0] ?? "", "shipment id");
  const shipment = await readShipmentInput(deps, flags);
  // A PATCH carries the whole shipment, so resending it is harmless: the client may retry it.
  await (await deps.api()).updateShipment(id, shipment, callOptions(deps, `Updating shipment ${id}`));
  if (deps.globals.json) printJson(deps.io, { id, shipment });
  deps.io.err(`Updated shipment ${id}.\n`);
}
