// All the problems of a file at once, each with the row number the spreadsheet shows, the column and the reason,
// then "N of M rows are valid". Written to stderr: stdout is for data. `shipment create` from a JSON list reports its
// items the same way: "item 3, value: ...", a problem of the whole item as "item 3 must be ...".
import type { Theme } from "../output/theme.js";
import { columnLetter, type HeaderCell } from "./headers.js";
import { reasonText, type InvalidRow } from "./row-types.js";

/** A problem of the whole row or item, not of one column: its `column`, and what follows the row's number. */
const WHOLE = { row: { column: "row", then: ":" }, item: { column: "(item)", then: "" } };

/**
 * Invalid rows listed on stderr: up to PROBLEM_ROWS_WHOLE all of them; a sheet with more (thousands, once a column is
 * wrong) shows the first PROBLEM_ROWS_SHOWN and says where all are ("and 2 more" would hide what two lines show).
 */
const PROBLEM_ROWS_WHOLE = 30;
const PROBLEM_ROWS_SHOWN = 20;

/** `whereAll`: where every invalid row is listed (the errors file, or --json), said when only the first are shown. */
export function renderProblems(file: string, invalid: readonly InvalidRow[], theme: Theme, o: { position?: "row" | "item"; whereAll: string }): string {
  if (invalid.length === 0) return "";
  const position = o.position ?? "row";
  let out = `${theme.error(`Invalid ${position}s`)} in ${file}:\n`;
  const shown = invalid.length > PROBLEM_ROWS_WHOLE ? PROBLEM_ROWS_SHOWN : invalid.length;
  for (const row of invalid.slice(0, shown)) {
    const at = `  ${position} ${row.row}`;
    for (const p of row.problems) out += p.column === WHOLE[position].column ? `${at}${WHOLE[position].then} ${p.reason}\n` : `${at}, ${p.column}: ${reasonText(p)}\n`;
  }
  const more = invalid.length - shown;
  if (more > 0) out += `  ... and ${more} more invalid ${position}${more === 1 ? "" : "s"}: ${o.whereAll}\n`;
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
