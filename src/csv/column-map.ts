// A sheet's own column names read as shipctl's columns ("Artwork" is title, "Insured value" is value): given with
// --map "Artwork=title,Insured value=value", or saved for the sheet's header shape (config/column-maps.ts). Applied
// where the header is matched (headers.ts), so results and errors files keep the sheet's own headers and rerun
// under the same mapping.
import { UsageError } from "../errors.js";
import { RESULT_COLUMNS } from "./columns.js";
import { normaliseHeader } from "./headers.js";

export interface ColumnMapEntry {
  /** The sheet's header, as written. */
  header: string;
  /** shipctl's column it is read as. */
  column: string;
}

export interface ColumnMap {
  entries: readonly ColumnMapEntry[];
  /** Where it came from, for the line every run prints ("prompt": --map or the saved one, with the answers at the terminal). */
  origin: "--map" | "saved" | "prompt";
}

/**
 * `--map "Artwork=title,Insured value=value"`: pairs separated by commas, each the sheet's header = shipctl's column.
 * `flag` is how messages name it: `csv map --set` takes the same pairs.
 */
export function parseColumnMap(spec: string, flag = "--map"): ColumnMapEntry[] {
  const entries: ColumnMapEntry[] = [];
  for (const pair of spec.split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.lastIndexOf("=");
    const header = at < 0 ? "" : pair.slice(0, at).trim();
    const column = at < 0 ? "" : normaliseHeader(pair.slice(at + 1));
    if (header === "" || column === "") {
      throw new UsageError(`${flag}: ${JSON.stringify(pair.trim())} is not HEADER=COLUMN`, {
        hint: `Write ${flag} "Artwork=title,Insured value=value": your header, =, shipctl's column.`,
      });
    }
    if (entries.some((e) => normaliseHeader(e.header) === normaliseHeader(header))) {
      throw new UsageError(`${flag} names the header "${header}" twice`);
    }
    entries.push({ header, column });
  }
  if (entries.length === 0) throw new UsageError(`${flag} needs at least one HEADER=COLUMN pair`);
  return entries;
}

/** The header's shape: its normalised names (shipctl's own result columns left out, so a results file shares it). */
export function headerShape(header: readonly string[]): string[] {
  return header.map(normaliseHeader).filter((h) => h !== "" && !RESULT_COLUMNS.includes(h));
}

/** How the mapping reads, for stderr: `"Artwork" -> title, "Insured value" -> value`. */
export function describeColumnMap(map: ColumnMap): string {
  return map.entries.map((e) => `${JSON.stringify(e.header)} -> ${e.column}`).join(", ");
}

/** For --json: the sheet's header -> shipctl's column. */
export function columnMapJson(map: ColumnMap): Record<string, string> {
  return Object.fromEntries(map.entries.map((e) => [e.header, e.column]));
}
