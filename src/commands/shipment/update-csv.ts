// `shipctl shipment update --csv FILE`: the logic lives in src/batch (update-run.ts); this is its entry point.
import type { Deps } from "../../deps.js";
import { runUpdateCsv } from "../../shipments/update-from-csv.js";
import { csvOptions, type CsvFlags } from "../../batch/run-options.js";

export async function run(deps: Deps, _args: string[], flags: CsvFlags): Promise<number> {
  return runUpdateCsv(deps, csvOptions(flags));
}
