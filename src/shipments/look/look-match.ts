// Which rows of a create match a recent shipment another machine created. A match means every field the service
// returns for the stored shipment equals the row's as it would be sent: title, value, length, height, depth, service
// (contract/fields.ts) and both sides. A side given by a stored address id matches a stored side with that id; a side
// given inline matches a stored side whose address fields the service returned and which equal the row's. A list item
// that lacks a field, or a side the service gave by id alone against an inline row, is no match: it cannot be told.
// Each shipment is matched by one row at most, oldest first: n identical rows against m such shipments, the first m
// rows are matches and the rest are sent.
import { ADDRESS_SIDES, holdsAddress, holdsShipmentFields, shipmentSide, type Shipment, type StoredShipment } from "../../contract/index.js";

export interface Match {
  shipment: StoredShipment;
  /** created_at on the service's clock (ms). */
  createdAt: number;
}

function sidesMatch(stored: StoredShipment, row: Shipment): boolean {
  return ADDRESS_SIDES.every((side) => {
    const s = shipmentSide(stored, side);
    const id = row[`${side}_address_id`];
    if (id !== undefined) return s.id === id;
    const inline = row[`${side}_address`];
    if (inline === undefined || s.address === null) return false;
    const { id: _id, ...fields } = s.address;
    return holdsAddress(fields, inline);
  });
}

export function matchesRow(stored: StoredShipment, row: Shipment): boolean {
  return holdsShipmentFields(stored, row) === true && sidesMatch(stored, row);
}

export class RecentMatches {
  /** Unclaimed shipments by title, oldest first. */
  private readonly byTitle = new Map<string, Match[]>();

  constructor(recent: readonly Match[]) {
    for (const m of [...recent].sort((a, b) => a.createdAt - b.createdAt || a.shipment.id - b.shipment.id)) {
      const list = this.byTitle.get(m.shipment.title) ?? [];
      list.push(m);
      this.byTitle.set(m.shipment.title, list);
    }
  }

  /** The oldest unclaimed shipment this row matches, claimed for it; undefined when none. */
  take(row: Shipment): Match | undefined {
    const list = this.byTitle.get(row.title);
    const i = list?.findIndex((m) => matchesRow(m.shipment, row)) ?? -1;
    if (i < 0) return undefined;
    return list!.splice(i, 1)[0];
  }
}
