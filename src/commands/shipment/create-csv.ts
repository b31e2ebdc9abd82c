// `shipctl shipment create --csv FILE`: the logic lives in src/batch (create-run.ts); this is its entry point.
import type { Deps } from "../../deps.js";
import { runCreateCsv } from "../../shipments/create-from-csv.js";
import { csvOptions, type CsvFlags } from "../../batch/run-options.js";

export async function run(deps: Deps, _args: string[], flags: CsvFlags): Promise<number> {
  return runCreateCsv(deps, csvOptions(flags));
}
