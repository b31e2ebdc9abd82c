// How `shipment create --csv` and `shipment update --csv` read a file: the layout, the row builder and what
// identifies a row in the ledger.
import type { Shipment, Tables } from "../contract/index.js";
import type { Decision } from "../batch/address-set.js";
import { decided, type Ready } from "../batch/before-send.js";
import { layoutFor } from "../csv/columns.js";
import type { ScanSpec } from "../csv/scan.js";
import { recordsOf, type CsvRecords } from "../batch/open-csv-ledger.js";
import { shortHash } from "../ledger/entry.js";
import { shipmentContent, shipmentRowBuilder, type InlineAddress, type ValidShipmentRow } from "./shipment-row.js";

export function shipmentScanSpec(tables: Tables, options: { update: boolean; keys: boolean }): ScanSpec<ValidShipmentRow> {
  return {
    layout: layoutFor(options.update ? "shipment-update" : "shipment-create"),
    tables,
    keys: options.keys,
    makeBuilder: (match, headerLength, ctx) => shipmentRowBuilder(match, headerLength, ctx, { update: options.update }),
    content: shipmentContent,
  };
}

/** The payload as it will be sent (a CSV row or an item): inline addresses replaced by their verified (or accepted revised) form. */
export function withDecisions(
  row: { payload: Shipment; addresses: readonly InlineAddress[] },
  decisions: Map<string, Decision> | undefined,
): Ready<Shipment> {
  if (!decisions) return { payload: row.payload };
  const payload = { ...row.payload };
  for (const a of row.addresses) {
    const d = decided(a.key, a.address, decisions);
    if ("error" in d) return { error: `${a.side} address: ${d.error}`, unavailable: d.unavailable };
    payload[`${a.side}_address`] = d.payload;
  }
  return { payload };
}

/** What a CSV run's ledger records of its shipments, each with the title the file gives it (batch/open-csv-ledger.ts). */
export function shipmentRecords(options: { update: boolean }): CsvRecords {
  return (run, ledger) =>
    recordsOf(run, ledger, shipmentScanSpec(run.tables, { update: options.update, keys: true }), (row, state) =>
      // An update row edited since it was sent names a title the service does not hold yet: existence only.
      state.state === "updated" && state.hash !== shortHash(shipmentContent(row)) ? undefined : row.payload.title,
    );
}
