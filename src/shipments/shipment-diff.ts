// What a row of `shipment update --csv` changes in its stored shipment (batch/update-plan.ts): its own fields, and
// each side as the row gives it against what the service returned for that side (contract/stored-shipment.ts reads
// every shape into one form). A side given by a stored address compares ids; a side given inline compares the
// address's fields, when the service returned them inline too. A side given one way in the row and the other way in
// the record is a change (the update would make it so), and a side the record does not hold cannot be compared.
import { ADDRESS_FIELDS, ADDRESS_SIDES, SHIPMENT_FIELDS, shipmentSide, type AddressSide, type Shipment, type StoredShipment } from "../contract/index.js";
import { fieldChanges } from "../addresses/address-diff.js";
import type { Comparison } from "../batch/update-plan.js";
import { sideColumn, sideIdColumn } from "../csv/columns.js";

export function shipmentChanges(sent: Shipment, stored: StoredShipment): Comparison {
  const changes = fieldChanges(SHIPMENT_FIELDS, sent, stored);
  for (const side of ADDRESS_SIDES) {
    const found = sideChanges(side, sent, stored);
    if ("uncompared" in found) return found;
    changes.push(...found.changes);
  }
  return { changes };
}

function sideChanges(side: AddressSide, sent: Shipment, stored: StoredShipment): Comparison {
  const now = shipmentSide(stored, side);
  const idField = `${side}_address_id`;
  const byId = (from: number | null, to: number | null): Comparison => ({ changes: from === to ? [] : [{ field: idField, column: sideIdColumn(side), from, to }] });
  const id = sent[`${side}_address_id`];
  if (id !== undefined) return byId(now.id, id);
  // Given inline now: a side the record gives by a stored address becomes an inline one.
  if (now.id !== null) return byId(now.id, null);
  if (now.address === null) return { uncompared: `the service's record of shipment ${stored.id} holds no ${side} address` };
  const inline = sent[`${side}_address`]!;
  return { changes: fieldChanges(ADDRESS_FIELDS, inline, now.address, (f) => ({ field: `${side}_address.${f}`, column: sideColumn(side, f) })) };
}
