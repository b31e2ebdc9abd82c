// Reads a row's cells by column name, whatever the column order of the file.
import type { HeaderMatch } from "./headers.js";
import type { CellProblem } from "./row-types.js";
import { restoreNeutralised } from "./formula-cells.js";

export interface Cells {
  /** The cell of `column`, or "" when the file has no such column or the row is short. */
  get(column: string): string;
}

/**
 * The cell at `index` of a row (from columnIndexes), or "" when the column is not in the file or the row is short.
 * Cells that shipctl neutralised when it wrote them (results, errors, `list --format csv`) are read back as they were.
 */
export function cellAt(values: readonly string[], index: number): string {
  return restoreNeutralised(values[index] ?? "");
}

/** Where each column is in the file (-1 when it is not there): looked up once per file, not by name on every row. */
export function columnIndexes(match: HeaderMatch): (column: string) => number {
  return (column) => match.columns.get(column) ?? -1;
}

export function cellsOf(values: readonly string[], match: HeaderMatch): Cells {
  return { get: (column) => cellAt(values, match.columns.get(column) ?? -1) };
}

/** A row with more filled cells than the header has names usually holds an unquoted delimiter. */
export function extraCellsProblem(values: readonly string[], headerLength: number): CellProblem | undefined {
  for (let i = headerLength; i < values.length; i++) {
    if (values[i]!.trim() !== "") {
      return {
        column: "row",
        reason: `has ${values.length} cells but the header names ${headerLength} columns; is a delimiter inside an unquoted cell? (quote that cell)`,
      };
    }
  }
  return undefined;
}

/** Zod messages start with the request's field name ("phone must be ..."); say the column instead. */
export function inColumnTerms(message: string, field: string, column: string): string {
  const named = message.startsWith(`${field} `) || message.startsWith(`${field}:`);
  return field !== column && named ? `${column}${message.slice(field.length)}` : message;
}
