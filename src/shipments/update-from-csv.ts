// `shipctl shipment update --csv FILE`: every row carries the shipment's id and all its fields (the service replaces
// the whole shipment), each sent as its own PATCH (batch/patch-rows.ts), and only when it changes something in the
// shipment as it is now (batch/update-plan.ts, shipment-diff.ts): the service may clear a shipment's price on any
// update. A row edited since it was last updated (same reference, new values) is the change to send, so it is sent
// again; ledgers written before the content was recorded make every row be compared once more.
import type { Deps } from "../deps.js";
import { columnForPath } from "../csv/columns.js";
import { patchRows } from "../batch/patch-rows.js";
import type { ResultWords } from "../batch/results.js";
import { withLedger } from "../batch/row-run.js";
import type { CsvOptions } from "../batch/run-options.js";
import { shipmentRecords, shipmentScanSpec, withDecisions } from "./shipment-spec.js";
import { shipmentContent, type ValidShipmentRow } from "./shipment-row.js";
import { shortHash } from "../ledger/entry.js";
import { shipmentChanges } from "./shipment-diff.js";

export const UPDATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "updated" };

export async function runUpdateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withLedger(deps, options, "shipment-update", UPDATE_WORDS, shipmentRecords({ update: true }), (run, ledger) =>
    patchRows(run, ledger, {
      spec: (keys) => shipmentScanSpec(run.tables, { update: true, keys }),
      words: UPDATE_WORDS,
      command: "shipment update",
      sends: "shipment",
      columnFor: (field) => columnForPath(field.split(".")),
      // The scan hashes no content for a row keyed by its reference, but an update needs what it sent.
      hash: (row) => shortHash(shipmentContent(row)),
      addAddresses: (row, addresses) => {
        for (const a of row.addresses) addresses.add(a.key, a.address, row.row);
      },
      ready: (row: ValidShipmentRow, decisions) => withDecisions(row, decisions),
      send: async (id, payload, call) => (await run.deps.api()).updateShipment(id, payload, call),
      current: async (id, call) => (await run.deps.api()).getShipment(id, call),
      compare: (row, stored) => shipmentChanges(row.payload, stored),
      priced: (stored) => stored.price !== null && stored.price !== undefined,
    }),
  );
}
