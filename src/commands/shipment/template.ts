// `shipctl shipment template [--update] [--header-only]`: prints a CSV to start a batch from (stdout: data); with
// --json, {"columns": [...], "example": {...}} instead.
import type { Deps } from "../../deps.js";
import { templateCsv, templateJson } from "../../shipments/csv-template.js";

export interface TemplateFlags {
  update?: boolean;
  /** --header-only: no example row. */
  headerOnly?: boolean;
}

export async function run(deps: Deps, _args: string[], flags: TemplateFlags): Promise<number> {
  const options = { update: flags.update === true, example: flags.headerOnly !== true };
  deps.io.out(deps.globals.json ? `${JSON.stringify(templateJson(options), null, 2)}\n` : templateCsv(options));
  return 0;
}
