// A stored shipment as the service sends it on a read ([assume], contract-notes: the contract shows only id and title).
// How it names the address of each side is not shown either, and services differ: the id it was given
// (`"fulfillment_address_id": 1`), the address inline (`"fulfillment_address": {...}`), the address inline with the
// id it was copied from (`{"id": 1, ...}`), or the id field beside the inline address. Every read of a shipment goes
// through this schema, which turns each side into one form, so that no reader (export, get, due, watch, read-backs)
// has to know the shapes: `<side>_address_id` is the stored address the side was given by (null when it was given
// inline), and `<side>_address` the address's fields when the service sent them (null when it sent only the id).
import * as z from "zod";
import { Timestamp, answeredAddressFields, type AddressSide } from "./schemas.js";

// As an answered address, but email and phone optional (set again after the spread, they keep their places).
const InlineAddress = z.looseObject({ id: z.number().int().nullish(), ...answeredAddressFields, email: z.string().optional(), phone: z.string().optional() });
/** The fields of a stored shipment's address, as sent inline; `id` as the side's (see above). */
export type ShipmentAddress = z.infer<typeof InlineAddress>;

/** The shipment as the service may send it, each side in any of the shapes above. */
const AsSent = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  status: z.number().int(),
  value: z.number().int().optional(),
  length: z.number().int().optional(),
  height: z.number().int().optional(),
  depth: z.number().int().optional(),
  service: z.number().int().optional(),
  fulfillment_address_id: z.number().int().nullish(),
  fulfillment_address: InlineAddress.nullish(),
  destination_address_id: z.number().int().nullish(),
  destination_address: InlineAddress.nullish(),
  /** Price in US cents once a price session has priced it. */
  price: z.number().int().nullish(),
  created_at: Timestamp.nullish(),
  updated_at: Timestamp.nullish(),
  delivered_at: Timestamp.nullish(),
  arrived_at: Timestamp.nullish(),
});
/**
 * A stored shipment. Read through the schema, both keys of both sides are always there, in the one form; a record
 * built by hand may hold a side in any shape, so code that reads a side calls shipmentSide rather than the keys.
 */
export type StoredShipment = z.infer<typeof AsSent>;

/** One side of a stored shipment, in whichever shape the service sent it. */
export interface ShipmentSide {
  /** The stored address the side was given by (or copied from); null when it was given inline. */
  id: number | null;
  /** The address's fields, `id` set as above; null when the service sent only the id. */
  address: ShipmentAddress | null;
}

/** Reads one side: the id field wins over an id inside the object (a service that sends both means the same). */
export function shipmentSide(s: Pick<StoredShipment, `${AddressSide}_address_id` | `${AddressSide}_address`>, side: AddressSide): ShipmentSide {
  const inline = s[`${side}_address`] ?? null;
  const id = s[`${side}_address_id`] ?? inline?.id ?? null;
  if (!inline) return { id, address: null };
  const { id: _sent, ...fields } = inline;
  return { id, address: { id, ...fields } };
}

const SIDE_KEYS = new Set(["fulfillment_address_id", "fulfillment_address", "destination_address_id", "destination_address"]);

/** [assume] GET /api/v1/shipments/{id} and the items of GET /api/v1/shipments, read into the one form. */
export const StoredShipment = AsSent.transform((s): StoredShipment => {
  const from = shipmentSide(s, "fulfillment");
  const to = shipmentSide(s, "destination");
  const sides = { fulfillment_address_id: from.id, fulfillment_address: from.address, destination_address_id: to.id, destination_address: to.address };
  // The sides stand where the service put them (the first of their keys it sent), so a printed record keeps the
  // service's order of fields; at the end when it sent none.
  const entries = Object.entries(s);
  const at = entries.findIndex(([key]) => SIDE_KEYS.has(key));
  const others = entries.filter(([key]) => !SIDE_KEYS.has(key));
  others.splice(at < 0 ? others.length : at, 0, ...Object.entries(sides));
  return Object.fromEntries(others) as StoredShipment;
});
