// All the problems of a file at once, each with the row number the spreadsheet shows, the column and the reason,
// then "N of M rows are valid". Written to stderr: stdout is for data.
import type { Theme } from "../output/theme.js";
import { columnLetter, type HeaderCell } from "./headers.js";
import { reasonText, type InvalidRow } from "./row-types.js";

export function renderProblems(file: string, invalid: readonly InvalidRow[], theme: Theme): string {
  if (invalid.length === 0) return "";
  let out = `${theme.error("Invalid rows")} in ${file}:\n`;
  for (const row of invalid) {
    for (const p of row.problems) {
      out += p.column === "row" ? `  row ${row.row}: ${p.reason}\n` : `  row ${row.row}, ${p.column}: ${reasonText(p)}\n`;
    }
  }
  return out;
}

export function validCountLine(valid: number, total: number): string {
  return `${valid} of ${total} row${total === 1 ? " is" : "s are"} valid.`;
}

export function unknownColumnsWarning(file: string, unknown: readonly HeaderCell[], theme: Theme): string {
  if (unknown.length === 0) return "";
  const list = unknown.map((c) => `"${c.text}" (column ${columnLetter(c.index)})`).join(", ");
  return `${theme.warn("Warning:")} ${file}: ignoring column${unknown.length === 1 ? "" : "s"} shipctl does not use: ${list}\n`;
}
