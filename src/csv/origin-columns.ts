// The columns that tie a results or errors file to the file it came from (the original). A spreadsheet re-save keeps
// columns and nothing else, so each row carries, as cells:
//   shipctl_row       its row number in the original file
//   shipctl_key       its identity in the ledger (the reference, the content's hash, or the original row)
//   shipctl_original  the original file's path ("stdin" for input read from stdin)
// Run as input, such a file is recognised by them: its rows keep their original identity (a row fixed in the
// errors file is still that row of the original, never a new one) and its run uses the original's ledger. The
// "shipctl_" prefix is no field of the contract, so the names cannot collide with an input column.
import { readCsv } from "./csv-reader.js";
import { cellAt } from "./cells.js";
import { normaliseHeader } from "./headers.js";
import type { CsvSource } from "./csv-source.js";

export const ORIGIN_ROW = "shipctl_row";
export const ORIGIN_KEY = "shipctl_key";
export const ORIGIN_FILE = "shipctl_original";
export const ORIGIN_COLUMNS: readonly string[] = [ORIGIN_ROW, ORIGIN_KEY, ORIGIN_FILE];

/**
 * Reads the origin cells of a file's rows, its columns looked up once: each empty (the row undefined) when the file
 * has no such column or the cell is blank.
 */
export function originReader(header: readonly string[]) {
  const names = header.map(normaliseHeader);
  const [row, key, file] = ORIGIN_COLUMNS.map((c) => names.indexOf(c));
  return (cells: readonly string[]) => {
    const rowText = cellAt(cells, row!).trim();
    const n = /^\d{1,9}$/.test(rowText) ? Number(rowText) : undefined;
    return { row: n !== undefined && n >= 2 ? n : undefined, key: cellAt(cells, key!).trim(), file: cellAt(cells, file!).trim() };
  };
}

/** The original a results or errors file names (its first row that names one), or undefined for any other file. */
export function originalNamedBy(source: CsvSource): Promise<string | undefined> {
  return readCsv(source, undefined, async (csv) => {
    if (!csv.header.map(normaliseHeader).includes(ORIGIN_FILE)) return undefined;
    const read = originReader(csv.header);
    for await (const record of csv.rows) {
      const file = read(record.cells).file;
      if (file !== "") return file;
    }
    return undefined;
  });
}

/**
 * A file shipctl wrote (it has the origin columns) with a header and no rows: an errors file whose rows were all
 * fixed. False for any other file, and for one that cannot be read (the run's first pass says why).
 */
export function isEmptyShipctlFile(source: CsvSource): Promise<boolean> {
  const empty = readCsv(source, false, async (csv) => {
    if (!csv.header.map(normaliseHeader).some((h) => ORIGIN_COLUMNS.includes(h))) return false;
    for await (const _row of csv.rows) return false;
    return true;
  });
  return empty.catch(() => false);
}
