// The fields of a shipment and of an address, listed once: what is copied into a request, compared with a stored
// record, hashed into a row's identity and matched when a lost request is read back all come from these lists, so a
// field added to the contract cannot be forgotten in one of those places (a wrong skip, or a duplicate).
import type { Address, AddressSide, Shipment, StoredAddress } from "./schemas.js";
import type { StoredShipment } from "./stored-shipment.js";
import type { CountryEntry, ServiceEntry } from "./tables.js";

/** A shipment's own fields, in the contract's order (its addresses are given per side, see below). */
export const SHIPMENT_FIELDS = ["title", "value", "length", "height", "depth", "service"] as const;
export type ShipmentField = (typeof SHIPMENT_FIELDS)[number];
export type ShipmentOwn = Pick<Shipment, ShipmentField>;

/** The Address fields, in the contract's order. */
export const ADDRESS_FIELDS = ["name", "email", "phone", "line_1", "line_2", "city", "region", "post_code", "country"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export const REQUIRED_ADDRESS_FIELDS: readonly AddressField[] = ADDRESS_FIELDS.filter((f) => f !== "line_2");

/**
 * A stored shipment's fields as shipctl reads them ([assume], contract-notes; stored-shipment.ts): its own fields,
 * status, each side's stored address id and inline address, the price in cents and the timestamps. What `--fields` may keep of a shipment
 * (commands add their own keys: status_name, report_sets), so a field shipctl does not know is refused before sending.
 */
export const STORED_SHIPMENT_FIELDS = [
  "id",
  ...SHIPMENT_FIELDS,
  "status",
  "fulfillment_address_id",
  "fulfillment_address",
  "destination_address_id",
  "destination_address",
  "price",
  "created_at",
  "updated_at",
  "delivered_at",
  "arrived_at",
] as const satisfies ReadonlyArray<keyof StoredShipment>;

/** A stored shipment as shipctl prints it (`list shipments`, `shipment get`): status_name ("Draft") right after status. */
export const PRINTED_SHIPMENT_FIELDS: readonly string[] = STORED_SHIPMENT_FIELDS.flatMap((f) => (f === "status" ? [f, "status_name"] : [f]));

/** A stored address's fields as the service sends them ([guide] address read). */
export const STORED_ADDRESS_FIELDS = ["id", ...ADDRESS_FIELDS, "created_at", "updated_at"] as const satisfies ReadonlyArray<keyof StoredAddress>;

/** The fields of a Country and a Service table entry (contract/tables.ts), as `config tables show --json` prints them. */
export const COUNTRY_ENTRY_FIELDS = ["id", "alpha2", "alpha3", "name", "aliases"] as const satisfies ReadonlyArray<keyof CountryEntry>;
export const SERVICE_ENTRY_FIELDS = ["id", "name", "aliases"] as const satisfies ReadonlyArray<keyof ServiceEntry>;

/** A copy of the shipment's own fields. */
export function shipmentOwn(s: ShipmentOwn): ShipmentOwn {
  return { title: s.title, value: s.value, length: s.length, height: s.height, depth: s.depth, service: s.service };
}

/**
 * Whether a stored shipment holds these own fields: false at the first difference, undefined when the record lacks a
 * field to compare (a list item may carry fewer fields than a read of the shipment).
 */
export function holdsShipmentFields(stored: Partial<StoredShipment>, sent: ShipmentOwn): boolean | undefined {
  let missing = false;
  for (const f of SHIPMENT_FIELDS) {
    const v = stored[f];
    if (v === undefined || v === null) missing = true;
    else if (v !== sent[f]) return false;
  }
  return missing ? undefined : true;
}

/** Whether a stored address holds exactly this address (line_2 absent and null are the same). */
export function holdsAddress(stored: Partial<StoredAddress>, sent: Address): boolean {
  return ADDRESS_FIELDS.every((f) => (stored[f] ?? null) === (sent[f] ?? null));
}

/** An address as one string, its fields in a fixed order: equal addresses give equal keys. */
export function addressKey(a: Address): string {
  return JSON.stringify(ADDRESS_FIELDS.map((f) => a[f] ?? null));
}

/**
 * What identifies a shipment's content: its own fields and, per side, the stored address id or the hash of its inline
 * address (so an edited address is different content), and for updates the shipment's id. `inlineHash` hashes an
 * inline address key (addressKey). It leads with the id's slot, empty for creates: a CSV row and the same shipment
 * from flags or JSON have one identity.
 */
export function shipmentIdentity(p: Shipment, inlineHash: (key: string) => string, options: { id?: number } = {}): string {
  const side = (s: AddressSide) => {
    const ref = p[`${s}_address_id`];
    if (ref !== undefined) return `#${ref}`;
    const inline = p[`${s}_address`];
    return inline ? inlineHash(addressKey(inline)) : "";
  };
  const own = [...SHIPMENT_FIELDS.map((f) => p[f]), side("fulfillment"), side("destination")];
  return [options.id ?? "", ...own].join("\u0000");
}
