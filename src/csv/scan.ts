// One pass over the file: records -> built rows, each valid row with its ledger key. Every pass (validate, send,
// write results) reads the file the same way, so keys and row numbers agree between passes without keeping rows in
// memory.
//
// A row's key is its identity in the ledger. With a reference, the reference is the identity (a row edited after
// it was created is still that row, not a new shipment). Without one, the hash of the row's content after
// normalisation, plus "#n" for the n-th identical row, so two identical rows are two shipments. A row of a results or
// errors file keeps the identity it had in its original file (its shipctl_key cell, origin-columns.ts): fixed there,
// its content changed, but it is still that row of the original, which must not be created twice.
import type { Tables } from "../contract/index.js";
import type { Layout } from "./columns.js";
import { matchHeader, normaliseHeader, type HeaderCell, type HeaderMatch } from "./headers.js";
import { shortHash } from "../ledger/entry.js";
import { openCsv, type CsvRow } from "./csv-reader.js";
import type { Delimiter } from "./delimiter.js";
import type { CsvEncoding } from "./encoding.js";
import type { CsvSource } from "./csv-source.js";
import type { CellProblem, Change, InvalidRow, RowBase, RowContext } from "./row-types.js";
import { isNeutralised } from "./formula-cells.js";
import { controlCharacterProblem } from "./text-cells.js";
import { ORIGIN_KEY, originReader } from "./origin-columns.js";
import type { ColumnMap } from "./column-map.js";

export interface ScanMeta {
  encoding: CsvEncoding;
  delimiter: Delimiter;
  header: string[];
  unknown: HeaderCell[];
}

export interface ValidBase extends RowBase {
  ok: true;
  /** What was read differently from how it was written (the scan adds the cell-level notes). */
  changes: Change[];
}

export type Built<V extends ValidBase> = V | InvalidRow;

/**
 * A valid row with its ledger key ("" when the scan was opened without keys: a pass that looks nothing up in the ledger needs none).
 */
export type Keyed<V extends ValidBase> = (V & { key: string }) | InvalidRow;

export interface ScanSpec<V extends ValidBase> {
  layout: Layout;
  tables: Tables;
  makeBuilder(match: HeaderMatch, headerLength: number, ctx: RowContext): (row: CsvRow) => Built<V>;
  /** The content that identifies a valid row (its payload, and its target id for updates). */
  content(row: V): string;
  /** Compute ledger keys (costs a hash per row and memory per distinct row). */
  keys: boolean;
}

export interface Scan<V extends ValidBase> {
  meta: ScanMeta;
  /**
   * Read once. A loop over them closes the file as it ends, however it ends (the last row, a break, a throw), before
   * the code after the loop runs: the iterator protocol returns the rows, as it does CsvFile's.
   */
  rows: AsyncGenerator<Keyed<V>>;
}

/** A source with the column mapping its run reads it with (--map or a saved one: column-map.ts). */
export type MappedSource = CsvSource & { columnMap?: ColumnMap };

export async function openScan<V extends ValidBase>(source: MappedSource, spec: ScanSpec<V>): Promise<Scan<V>> {
  const csv = await openCsv(source.open(), source.name);
  let match: HeaderMatch;
  try {
    // The mapping's normalised header -> column pairs.
    const mapped = new Map((source.columnMap?.entries ?? []).map((e) => [normaliseHeader(e.header), e.column]));
    match = matchHeader(csv.header, spec.layout, source.name, mapped);
  } catch (e) {
    await csv.close();
    throw e;
  }
  const ctx: RowContext = { tables: spec.tables, commaDecimal: csv.delimiter === ";" };
  const build = spec.makeBuilder(match, csv.header.length, ctx);
  const meta: ScanMeta = { encoding: csv.encoding, delimiter: csv.delimiter, header: csv.header, unknown: match.unknown };

  // The row each reference was first seen on, to refuse a reference used twice.
  const references = new Map<string, number>();
  const seen = new Map<string, number>();
  const origin = originReader(csv.header);
  // In a file with carried keys, every key given so far: a key carried twice (a row duplicated in the spreadsheet) is
  // one original row, so the copy gets a key of its own, and no own key may be one that a row carries.
  const assigned = csv.header.map(normaliseHeader).includes(ORIGIN_KEY) ? new Set<string>() : undefined;
  /** A row's identity when it has one for sure: the key it carries, else its own reference. */
  const knownKey = (carried: string, reference: string | undefined): string | undefined => {
    const key = carried !== "" && !assigned?.has(carried) ? carried : reference !== undefined ? `ref:${reference}` : undefined;
    if (key !== undefined) assigned?.add(key);
    return key;
  };
  // The columns this command reads, each with its place in the file: every one is checked for control characters.
  const read = [...match.columns].map(([column, index]) => ({ column: match.written?.get(column) ?? column, index }));
  function keyed(record: CsvRow): Keyed<V> {
    const built = build(record);
    const row = withCellChecks(built, record.cells);
    const key = spec.keys && assigned ? origin(record.cells).key : "";
    if (row.reference !== undefined) {
      const first = references.get(row.reference);
      if (first === undefined) references.set(row.reference, row.row);
      else {
        const problem = { column: "reference", reason: `reference "${row.reference}" is also on row ${first}; references must be unique` };
        const invalid = row.ok ? { ok: false as const, row: row.row, reference: row.reference, label: row.label, problems: [problem] } : { ...row, problems: [...row.problems, problem] };
        // The reference is another row's identity: only a carried key can name this one.
        if (spec.keys) invalid.key = knownKey(key, undefined);
        return invalid;
      }
    }
    if (!row.ok) {
      if (spec.keys) row.key = knownKey(key, row.reference);
      return row;
    }
    // The row object is ours: give it its key in place (a copy per row would cost more than the key).
    const out = row as V & { key: string };
    out.key = "";
    if (!spec.keys) return out;
    const known = knownKey(key, row.reference);
    if (known !== undefined) out.key = known;
    else {
      const contentHash = shortHash(spec.content(row));
      let n = seen.get(contentHash) ?? 0;
      do out.key = ++n === 1 ? contentHash : `${contentHash}#${n}`;
      while (assigned?.has(out.key));
      seen.set(contentHash, n);
      assigned?.add(out.key);
    }
    return out;
  }

  /** Control characters make the row invalid; a neutralised formula's apostrophe, dropped by the reader, is noted. */
  function withCellChecks(row: Built<V>, cells: readonly string[]): Built<V> {
    let problems: CellProblem[] | undefined;
    for (const { column, index } of read) {
      const text = cells[index];
      if (text === undefined || text === "") continue;
      const problem = controlCharacterProblem(text, column);
      if (problem) (problems ??= []).push(problem);
      else if (row.ok && isNeutralised(text)) row.changes.push({ column, from: text, to: text.slice(1), kind: "apostrophe" });
    }
    if (problems === undefined) return row;
    const others = row.ok ? [] : row.problems.filter((p) => !problems.some((c) => c.column === p.column));
    return { ok: false, row: row.row, reference: row.reference, label: row.label, problems: [...problems, ...others] };
  }

  async function* rows(): AsyncGenerator<Keyed<V>> {
    try {
      for await (const record of csv.rows) yield keyed(record);
    } finally {
      // Once the rows are read, the references are not needed.
      references.clear();
    }
  }
  return { meta, rows: rows() };
}
