// What identifies an item of `shipment create` (flags or JSON) in the journal, and where that journal lives.
//
// An item's key works as a CSV row's: its reference when it has one (an item edited after it was created is still
// that item), otherwise the hash of its content after normalisation, plus "#n" for the n-th identical item (two
// identical items are two shipments). The journal is the CSV create journal, in the same format:
//   --file shipments.json   next to it:           shipments.json.shipctl-journal.jsonl
//   flags, or --file -      in the config folder: journals/create-<hash of the items' keys>.shipctl-journal.jsonl
// Keying the second case by content means the same command (or the same stdin, however it is formatted) finds the
// journal of its earlier run, while a different shipment gets a journal of its own.
import { join } from "node:path";
import { configDir } from "../config/paths.js";
import { shipmentIdentity } from "../contract/index.js";
import type { ValidItem } from "./item-check.js";
import type { ItemSource } from "./item-input.js";
import { chooseJournalPath, journalSuffix } from "../ledger/location.js";
import { shortHash } from "../ledger/book-lines.js";

export interface KeyedItem extends ValidItem {
  key: string;
}

/** The item's content identity (contract/fields.ts), in the form item journals were first written with. */
export function itemContent(item: ValidItem): string {
  return shipmentIdentity(item.payload, shortHash, { idSlot: false });
}

export function keyItems(items: readonly ValidItem[]): KeyedItem[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    if (item.reference !== undefined) return { ...item, key: `ref:${item.reference}` };
    const hash = shortHash(itemContent(item));
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return { ...item, key: n === 1 ? hash : `${hash}#${n}` };
  });
}

/** The journal's path (its folder created when needed, unless `create` is false: a dry run writes nothing). */
export async function itemJournalPath(source: ItemSource, items: readonly KeyedItem[], env: NodeJS.ProcessEnv, o: { create: boolean } = { create: true }): Promise<string> {
  const suffix = journalSuffix("shipment-create");
  const digest = shortHash(items.map((i) => i.key).join("\n"));
  const path = source.path !== undefined ? source.path + suffix : join(configDir(env), "journals", `create-${digest}${suffix}`);
  return o.create ? chooseJournalPath([path]) : path;
}
