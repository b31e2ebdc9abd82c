// Which table a command line names: light, so a command's parse can check it before anything is loaded.
import { UsageError } from "../errors.js";
import type { TableKind } from "./tables-csv.js";

export const TABLE_NAMES: readonly TableKind[] = ["countries", "services"];

/** "countries", "country", "services", "service" (any case) -> the table kind. */
export function tableKind(input: string): TableKind {
  const word = input.trim().toLowerCase();
  if (word === "countries" || word === "country") return "countries";
  if (word === "services" || word === "service") return "services";
  throw new UsageError(`unknown table "${input}"`, { hint: `the tables are: ${TABLE_NAMES.join(", ")}` });
}
