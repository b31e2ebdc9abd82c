// Shapes shared by the batch modules.
import type { Tables } from "../contract/index.js";
import type { Mapping } from "./table-cells.js";

/** One reason a row cannot be sent, tied to the CSV column to fix ("row" when it is the row as a whole). */
export interface CellProblem {
  column: string;
  reason: string;
}

/** A value that was read differently from how it was written ("$1,200" -> 1200): shown, never silent. */
export interface Change {
  column: string;
  from: string;
  to: string;
  /** What kind of reading it is (value-notes.ts NOTE_KINDS: the report has one line per kind); the column when absent. */
  kind?: string;
}

export interface RowContext {
  tables: Tables;
  /** The file separates fields with ";": a comma in a number may be the decimal mark. */
  commaDecimal: boolean;
}

/** What building one row produced besides its payload. */
export interface RowNotes {
  changes: Change[];
  mappings: Mapping[];
}

/** What every built row carries, valid or not. */
export interface RowBase {
  /** Row number as the spreadsheet shows it. */
  row: number;
  reference?: string;
  /** What names the row for people: the title of a shipment, the name of an address. */
  label: string;
}

export interface InvalidRow extends RowBase {
  ok: false;
  problems: CellProblem[];
}

/** "row 4, value: ..." reads badly as "row 4, value: value: ..."; reasons that start with their column lose it. */
export function reasonText(problem: CellProblem): string {
  const prefix = `${problem.column}: `;
  return problem.reason.startsWith(prefix) ? problem.reason.slice(prefix.length) : problem.reason;
}
