// A valid row of `shipment create --csv` as the first pass keeps it for the pass that sends (spill.ts): its fields as
// built and checked, its journal key, what names it, and which of the run's distinct addresses it uses. The
// addresses themselves are kept once each in the run's AddressSet rather than on every line: their verification
// decides what each row is sent with.
import { ADDRESS_SIDES, type AddressSide, type Shipment } from "../contract/index.js";
import type { AddressSet, Decision } from "../addresses/address-set.js";
import { decided, type Ready } from "../batch/before-send.js";
import type { ValidShipmentRow } from "./shipment-row.js";
import type { Change } from "../csv/row-types.js";

/** The shipment without its inline addresses. */
type Fields = Omit<Shipment, `${AddressSide}_address`>;

export interface SpilledShipment {
  row: number;
  key: string;
  label: string;
  reference?: string;
  fields: Fields;
  /** Each inline address of the row, in ADDRESS_SIDES order: its side and its index in the run's AddressSet. */
  addresses: Array<[AddressSide, number]>;
  /** Kept only for a dry run, which prints them. */
  changes?: Change[];
}

/**
 * The row to keep. Its inline addresses are registered among the run's distinct ones (to be verified) unless
 * `verify` is false: a row that will not be sent (already created) needs none.
 */
export function spilledShipment(row: ValidShipmentRow & { key: string }, addresses: AddressSet, options: { changes: boolean; verify: boolean }): SpilledShipment {
  const p = row.payload;
  const fields: Fields = { title: p.title, value: p.value, length: p.length, height: p.height, depth: p.depth, service: p.service };
  if (p.fulfillment_address_id !== undefined) fields.fulfillment_address_id = p.fulfillment_address_id;
  if (p.destination_address_id !== undefined) fields.destination_address_id = p.destination_address_id;
  return {
    row: row.row,
    key: row.key,
    label: row.label,
    reference: row.reference,
    fields,
    addresses: options.verify ? row.addresses.map((a) => [a.side, addresses.add(a.key, a.address, row.row)]) : [],
    changes: options.changes ? row.changes : undefined,
  };
}

/**
 * The payload as it will be sent: inline addresses as verified (or their accepted revision), or why the row cannot
 * be sent. Keys in the order the row builder gives them (the shipment's fields, then each side).
 */
export function spilledReady(spilled: SpilledShipment, addresses: AddressSet, decisions: Map<string, Decision> | undefined): Ready<Shipment> {
  const f = spilled.fields;
  const payload: Shipment = { title: f.title, value: f.value, length: f.length, height: f.height, depth: f.depth, service: f.service };
  for (const { side, idKey, addressKey } of SIDE_KEYS) {
    const id = f[idKey];
    if (id !== undefined) payload[idKey] = id;
    const index = addressIndex(spilled, side);
    if (index === undefined) continue;
    const distinct = addresses.at(index)!;
    const d = decided(distinct.key, distinct.address, decisions);
    if ("error" in d) return { error: `${side} address: ${d.error}`, unavailable: d.unavailable };
    payload[addressKey] = d.payload;
  }
  return { payload };
}

/** Each side's keys in the payload, made once rather than for every row. */
const SIDE_KEYS = ADDRESS_SIDES.map((side) => ({ side, idKey: `${side}_address_id` as const, addressKey: `${side}_address` as const }));

function addressIndex(spilled: SpilledShipment, side: AddressSide): number | undefined {
  for (const [s, index] of spilled.addresses) if (s === side) return index;
  return undefined;
}
