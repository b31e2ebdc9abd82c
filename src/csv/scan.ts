// One pass over the file: records -> built rows, each valid row with its journal key. Every pass (validate, send,
// write results) reads the file the same way, so keys and row numbers agree between passes without keeping rows in
// memory.
//
// A row's key is its identity in the journal. With a reference, the reference is the identity (a row edited after
// it was created is still that row, not a new shipment). Without one, the hash of the row's content after
// normalisation, plus "#n" for the n-th identical row, so two identical rows are two shipments.
import type { Tables } from "../contract/index.js";
import type { Layout } from "./columns.js";
import { matchHeader, type HeaderCell, type HeaderMatch } from "./headers.js";
import { shortHash } from "../ledger/book-lines.js";
import { openCsv, type CsvRow } from "./csv-reader.js";
import type { Delimiter } from "./delimiter.js";
import type { CsvEncoding } from "./encoding.js";
import type { CsvSource } from "./csv-source.js";
import type { InvalidRow, RowBase, RowContext } from "./row-types.js";

export interface ScanMeta {
  encoding: CsvEncoding;
  delimiter: Delimiter;
  header: string[];
  unknown: HeaderCell[];
}

export interface ValidBase extends RowBase {
  ok: true;
}

export type Built<V extends ValidBase> = V | InvalidRow;

/**
 * A valid row with its journal key ("" when the scan was opened without keys: a pass that looks nothing up in the journal needs none), and the hash of
 * its content that the key is made of ("" when the row's reference is its key).
 */
export type Keyed<V extends ValidBase> = (V & { key: string; contentHash: string }) | InvalidRow;

export interface ScanSpec<V extends ValidBase> {
  layout: Layout;
  tables: Tables;
  makeBuilder(match: HeaderMatch, headerLength: number, ctx: RowContext): (row: CsvRow) => Built<V>;
  /** The content that identifies a valid row (its payload, and its target id for updates). */
  content(row: V): string;
  /** Compute journal keys (costs a hash per row and memory per distinct row). */
  keys: boolean;
}

export interface Scan<V extends ValidBase> {
  meta: ScanMeta;
  rows: AsyncGenerator<Keyed<V>>;
  /** The same rows, as many at a time as each read of the file gives (see CsvFile.batches). */
  batches: AsyncGenerator<Array<Keyed<V>>>;
  /** The same rows, each handed to `onRow` as soon as it is parsed (see CsvFile.each). Read the rows one way only. */
  each(onRow: (row: Keyed<V>) => void, afterChunk?: () => Promise<void>): Promise<void>;
  close(): void;
}

export async function openScan<V extends ValidBase>(source: CsvSource, spec: ScanSpec<V>, chunkBytes?: number): Promise<Scan<V>> {
  const csv = await openCsv(source.open(chunkBytes), source.name);
  let match: HeaderMatch;
  try {
    match = matchHeader(csv.header, spec.layout, source.name);
  } catch (e) {
    csv.close();
    throw e;
  }
  const ctx: RowContext = { tables: spec.tables, commaDecimal: csv.delimiter === ";" };
  const build = spec.makeBuilder(match, csv.header.length, ctx);
  const meta: ScanMeta = { encoding: csv.encoding, delimiter: csv.delimiter, header: csv.header, unknown: match.unknown };

  // The row each reference was first seen on, to refuse a reference used twice.
  const references = new Map<string, number>();
  const seen = new Map<string, number>();
  function keyed(record: CsvRow): Keyed<V> {
    const row = build(record);
    if (row.reference !== undefined) {
      const first = references.get(row.reference);
      if (first === undefined) references.set(row.reference, row.row);
      else {
        const problem = { column: "reference", reason: `reference "${row.reference}" is also on row ${first}; references must be unique` };
        return row.ok ? { ok: false, row: row.row, reference: row.reference, label: row.label, problems: [problem] } : { ...row, problems: [...row.problems, problem] };
      }
    }
    if (!row.ok) return row;
    // The row object is ours: give it its key in place (a copy per row would cost more than the key).
    const out = row as V & { key: string; contentHash: string };
    if (!spec.keys) {
      out.key = "";
      out.contentHash = "";
    } else if (row.reference !== undefined) {
      // The reference is the row's identity: no hash of its content is needed.
      out.key = `ref:${row.reference}`;
      out.contentHash = "";
    } else {
      const contentHash = shortHash(spec.content(row));
      const n = (seen.get(contentHash) ?? 0) + 1;
      seen.set(contentHash, n);
      out.key = n === 1 ? contentHash : `${contentHash}#${n}`;
      out.contentHash = contentHash;
    }
    return out;
  }

  // Once the rows are read, the references are not needed.
  const finished = () => references.clear();
  async function* batches(): AsyncGenerator<Array<Keyed<V>>> {
    try {
      for await (const records of csv.batches) yield records.map(keyed);
    } finally {
      finished();
    }
  }
  async function* rows(): AsyncGenerator<Keyed<V>> {
    for await (const batch of batches()) yield* batch;
  }
  async function each(onRow: (row: Keyed<V>) => void, afterChunk?: () => Promise<void>): Promise<void> {
    try {
      await csv.each((record) => onRow(keyed(record)), afterChunk);
    } finally {
      finished();
    }
  }
  const close = () => {
    csv.close();
    finished();
  };
  return { meta, rows: rows(), batches: batches(), each, close };
}
