// What identifies an item of `shipment create` (flags or JSON) in the ledger: as a CSV row's key, so a shipment created
// from a CSV row and the same shipment given again with flags are one entry. Its reference when it has one (an item
// edited after it was created is still that item), otherwise the hash of its content after normalisation, plus "#n"
// for the n-th identical item (two identical items are two shipments).
import { shipmentIdentity } from "../contract/index.js";
import type { ValidItem } from "./item-check.js";
import { addressHash, shortHash } from "../ledger/entry.js";

export interface KeyedItem extends ValidItem {
  key: string;
  /** The item's number, as a CSV row's (send-creates.ts). */
  row: number;
}

export function keyItems(items: readonly ValidItem[]): KeyedItem[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    if (item.reference !== undefined) return { ...item, row: item.item, key: `ref:${item.reference}` };
    // The content identity (contract/fields.ts), as a CSV row's of the same shipment (shipmentContent).
    const hash = shortHash(shipmentIdentity(item.payload, addressHash));
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return { ...item, row: item.item, key: n === 1 ? hash : `${hash}#${n}` };
  });
}
