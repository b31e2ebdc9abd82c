// All the problems of a file at once, each with the row number the spreadsheet shows, the column and the reason,
// then "N of M rows are valid". Written to stderr: stdout is for data. `shipment create` from a JSON list reports its
// items the same way: "item 3, value: ...", a problem of the whole item as "item 3 must be ...".
import type { Theme } from "../output/theme.js";
import { columnLetter, type HeaderCell } from "./headers.js";
import { reasonText, type InvalidRow } from "./row-types.js";

/** A problem of the whole row or item, not of one column: its `column`, and what follows the row's number. */
const WHOLE = { row: { column: "row", then: ":" }, item: { column: "(item)", then: "" } };

export function renderProblems(file: string, invalid: readonly InvalidRow[], theme: Theme, position: "row" | "item" = "row"): string {
  if (invalid.length === 0) return "";
  let out = `${theme.error(`Invalid ${position}s`)} in ${file}:\n`;
  for (const row of invalid) {
    const at = `  ${position} ${row.row}`;
    for (const p of row.problems) out += p.column === WHOLE[position].column ? `${at}${WHOLE[position].then} ${p.reason}\n` : `${at}, ${p.column}: ${reasonText(p)}\n`;
  }
  return out;
}

export function validCountLine(valid: number, total: number, position: "row" | "item" = "row"): string {
  return `${valid} of ${total} ${position}${total === 1 ? " is" : "s are"} valid.`;
}

export function unknownColumnsWarning(file: string, unknown: readonly HeaderCell[], theme: Theme): string {
  if (unknown.length === 0) return "";
  const list = unknown.map((c) => `"${c.text}" (column ${columnLetter(c.index)})`).join(", ");
  return `${theme.warn("Warning:")} ${file}: ignoring column${unknown.length === 1 ? "" : "s"} shipctl does not use: ${list}\n`;
}
