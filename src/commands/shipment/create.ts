// `shipctl shipment create` from flags, --file FILE.json or --file - (one shipment or a list): the logic lives in
// src/batch (create-items.ts), which shares the CSV batch's journal, reconciliation, sender and results.
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { sendOptions, type CsvFlags } from "../../batch/run-options.js";
import { runCreateItems } from "../../shipments/create-from-items.js";
import type { ItemInputFlags } from "../../shipments/item-input.js";

export async function run(deps: Deps, _args: string[], flags: ItemInputFlags & Omit<CsvFlags, "csv">): Promise<number> {
  if (flags.results !== undefined) {
    throw new UsageError("--results writes the rows of a CSV input with their outcome: it works with --csv only", {
      hint: "With flags or --file, --json prints every item's outcome as one document.",
    });
  }
  return runCreateItems(deps, flags, sendOptions(flags));
}
