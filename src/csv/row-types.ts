// Shapes shared by the batch modules.
import type { Tables } from "../contract/index.js";

/** One reason a row cannot be sent, tied to the CSV column to fix ("row" when it is the row as a whole). */
export interface CellProblem {
  column: string;
  reason: string;
}

/**
 * Why a value was read differently: a number as the spreadsheet shows it, a phone number put in international form,
 * a line break folded, a leading apostrophe dropped, a separator decided by the only possible reading, leading zeros
 * of a post code put back, or a numeric post code of a country whose format shipctl does not know (`to` is then the
 * text as written).
 */
export type ChangeKind = "number" | "phone" | "line-break" | "apostrophe" | "separator" | "post-code" | "post-code-unchecked";

/** A value that was read differently from how it was written ("$1,200" -> 1200): shown, never silent. */
export interface Change {
  column: string;
  from: string;
  to: string;
  /** What kind of reading it is: the notes report has one line per kind (value-notes.ts NOTE_KINDS), its column when absent. */
  kind?: ChangeKind;
}

export interface RowContext {
  tables: Tables;
  /** The file separates fields with ";": a comma in a number may be the decimal mark. */
  commaDecimal: boolean;
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
  /**
   * Its identity in the ledger when the scan computes keys and the row has one for sure (its reference, or the key
   * a results or errors file row carries): a fixed copy of it may have been created under it (scan.ts).
   */
  key?: string;
}

/** "row 4, value: ..." reads badly as "row 4, value: value: ..."; reasons that start with their column lose it. */
export function reasonText(problem: CellProblem): string {
  const prefix = `${problem.column}: `;
  return problem.reason.startsWith(prefix) ? problem.reason.slice(prefix.length) : problem.reason;
}
