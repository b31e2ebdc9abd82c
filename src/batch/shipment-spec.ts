// How `shipment create --csv` and `shipment update --csv` read a file: the layout, the row builder and what
// identifies a row in the journal.
import type { Tables } from "../contract/index.js";
import { layoutFor } from "./columns.js";
import type { ScanSpec } from "./scan.js";
import { shipmentRowBuilder, type ValidShipmentRow } from "./shipment-row.js";

export function shipmentScanSpec(tables: Tables, options: { update: boolean; keys: boolean }): ScanSpec<ValidShipmentRow> {
  return {
    layout: layoutFor(options.update ? "shipment-update" : "shipment-create"),
    tables,
    keys: options.keys,
    makeBuilder: (match, headerLength, ctx) => shipmentRowBuilder(match, headerLength, ctx, { update: options.update }),
    content: (row) => JSON.stringify(options.update ? [row.id, row.payload] : row.payload),
  };
}
