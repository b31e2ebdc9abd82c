// Records written as a CSV file a spreadsheet opens as it should and shipctl reads back (`list --format csv`, then
// `update --csv`): UTF-8 with a byte-order mark (Excel otherwise guesses the locale's code page and garbles accents),
// the delimiter the user's spreadsheet expects, and every cell neutralised as the results file does (formula-cells.ts).
import { csvLine } from "./formula-cells.js";

/** One column of an export: its header, as the matching `update --csv` reads it, and the cell of a record. */
export interface CsvColumn<T> {
  header: string;
  cell(item: T): string | number | null | undefined;
}

export const EXPORT_DELIMITERS = [",", ";"] as const;
export type ExportDelimiter = (typeof EXPORT_DELIMITERS)[number];

/**
 * Columns named as JSON fields (`list ... --format csv --fields id,title`), each cell the field's value in the item's
 * JSON (`toJson`): an object or a list as its JSON text, nothing for null or a field the item lacks.
 */
export function fieldColumns<T>(fields: readonly string[], toJson: (item: T) => unknown): CsvColumn<T>[] {
  return fields.map((field) => ({
    header: field,
    cell: (item) => {
      const value = (toJson(item) as Record<string, unknown>)[field];
      if (value === null || value === undefined || typeof value === "number" || typeof value === "string") return value;
      return typeof value === "object" ? JSON.stringify(value) : String(value);
    },
  }));
}

export function csvExporter<T>(columns: readonly CsvColumn<T>[], delimiter: ExportDelimiter) {
  return {
    // The header line, after the byte-order mark.
    header: () => `\ufeff${csvLine(columns.map((c) => c.header), delimiter)}`,
    row: (item: T) => csvLine(columns.map((c) => c.cell(item)), delimiter),
  };
}
