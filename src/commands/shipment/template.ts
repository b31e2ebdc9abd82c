// `shipctl shipment template [--update] [--header-only]`: prints a CSV to start a batch from (stdout: data).
import type { Deps } from "../../deps.js";
import { templateCsv } from "../../batch/template.js";

export interface TemplateFlags {
  update?: boolean;
  /** --header-only: no example row. */
  headerOnly?: boolean;
}

export async function run(deps: Deps, _args: string[], flags: TemplateFlags): Promise<number> {
  deps.io.out(templateCsv({ update: flags.update === true, example: flags.headerOnly !== true }));
  return 0;
}
