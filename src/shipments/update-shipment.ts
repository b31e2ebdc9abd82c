// `shipment update <id>` for one shipment (flags or --file): the full shipment (the service requires every field),
// checked locally, then PATCHed.
import type { Shipment } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { callOptions } from "../input/call-options.js";
import type { ShipmentFlags } from "../input/shipment-fields.js";
import { readShipmentInput } from "../input/shipment-input.js";

/** Returns the shipment as sent. */
export async function updateShipment(deps: Deps, id: number, input: ShipmentFlags): Promise<Shipment> {
  const shipment = await readShipmentInput(deps, input);
  // A PATCH carries the whole shipment, so resending it is harmless: the client may retry it.
  await (await deps.api()).updateShipment(id, shipment, callOptions(deps, `Updating shipment ${id}`));
  return shipment;
}
