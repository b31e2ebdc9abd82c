// How stored records look on the wire ([guide] address read; [assume] shipment read, see contract-notes).
import type { Address } from "../contract/index.js";
import type { ShipmentShape } from "./defaults.js";
import type { AddressFields, AddressRecord, ShipmentAddress, ShipmentRecord } from "./model.js";
import { formatNullable, serviceTimestamp } from "./org-clock.js";

/** The Address fields alone, in the contract's order (a record or a body holds more). */
function fields(a: AddressFields): AddressFields {
  const { name, email, phone, line_1, line_2, city, region, post_code, country } = a;
  return { name, email, phone, line_1, line_2, city, region, post_code, country };
}

export function addressView(a: AddressRecord) {
  return { id: a.id, ...fields(a), created_at: serviceTimestamp(a.createdAt), updated_at: serviceTimestamp(a.updatedAt) };
}

/** One side of a shipment in the shape the sandbox was started with (defaults.ts, SHIPMENT_SHAPES). */
function sideView(side: "fulfillment" | "destination", a: ShipmentAddress, shape: ShipmentShape): Record<string, unknown> {
  switch (shape) {
    case "inline":
      return { [`${side}_address`]: { id: a.id, ...fields(a) } };
    case "id":
      return a.id === null ? { [`${side}_address`]: fields(a) } : { [`${side}_address_id`]: a.id };
    case "inline-with-id":
      return { [`${side}_address_id`]: a.id, [`${side}_address`]: fields(a) };
  }
}

export function shipmentView(s: ShipmentRecord, shape: ShipmentShape) {
  const { id, title, status, value, length, height, depth, service } = s;
  return {
    id, title, status, value, length, height, depth, service,
    ...sideView("fulfillment", s.fulfillment, shape),
    ...sideView("destination", s.destination, shape),
    price: s.price,
    created_at: serviceTimestamp(s.createdAt),
    updated_at: serviceTimestamp(s.updatedAt),
    delivered_at: formatNullable(s.deliveredAt),
    arrived_at: formatNullable(s.arrivedAt),
  };
}

/** Copies the Address fields out of a validated body (line_2 absent becomes null, as stored). */
export function addressFields(a: Address): AddressFields {
  return fields({ ...a, line_2: a.line_2 ?? null });
}
