// `shipctl address verify --csv FILE` and `shipctl address add --csv FILE`: the logic lives in src/batch
// (address-run.ts); these are its entry points.
import type { Deps } from "../../deps.js";
import { runAddressAddCsv, runAddressVerifyCsv } from "../../addresses/address-csv.js";
import { csvOptions, type CsvFlags } from "../../batch/run-options.js";

export async function runVerify(deps: Deps, _args: string[], flags: CsvFlags): Promise<number> {
  return runAddressVerifyCsv(deps, csvOptions(flags));
}

export async function runAdd(deps: Deps, _args: string[], flags: CsvFlags): Promise<number> {
  return runAddressAddCsv(deps, csvOptions(flags));
}
