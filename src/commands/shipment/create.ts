// `shipctl shipment create` from flags, --file FILE.json or --file - (one shipment or a list): the logic lives in
// src/batch (create-items.ts), which shares the CSV batch's journal, reconciliation, sender and results.
import type { Deps } from "../../deps.js";
import { runCreateItems, type CreateItemFlags } from "../../shipments/create-from-items.js";

export async function run(deps: Deps, _args: string[], flags: CreateItemFlags): Promise<number> {
  return runCreateItems(deps, flags);
}
