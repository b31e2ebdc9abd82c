// --results FILE.csv: every row of the original file as it was, plus shipment_id (or address_id), status, error and
// note (what was read differently in the row: value-notes.ts), and FILE.errors.csv with the rows still failing, ready to fix and run again. Both carry each row's place in the
// original (origin-columns.ts). A first run streams: the input is read once more (rather than kept in memory) and
// joined with the outcomes by row number. A later run of the same original (a rerun, its errors file, the results
// file itself) merges into the results file there (results-merge.ts). Written atomically: a crash never leaves half
// a file.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import { basename, dirname, extname, join, resolve } from "node:path";
import { normaliseHeader } from "./headers.js";
import { cellAt } from "./cells.js";
import { openCsv, readCsv } from "./csv-reader.js";
import type { CsvSource } from "./csv-source.js";
import { csvLine } from "./formula-cells.js";
import { CliError } from "../errors.js";
import { realSleep, whileHeld, type Sleep } from "../fs/held-file.js";
import { ORIGIN_COLUMNS, ORIGIN_KEY, originalNamedBy, originReader } from "./origin-columns.js";
import { mergeResultLines, type ResultLine } from "./results-merge.js";
import { openScan, type ScanSpec, type ValidBase } from "./scan.js";

export function errorsPathFor(resultsPath: string): string {
  const ext = extname(resultsPath);
  const stem = ext.toLowerCase() === ".csv" ? resultsPath.slice(0, -ext.length) : resultsPath;
  return `${stem}.errors.csv`;
}

class CsvWriter {
  private readonly tmp: string;
  private readonly stream;
  /** A write error, kept until the next line or the commit says it (an 'error' event nobody hears ends the process). */
  private failure: Error | undefined;
  constructor(
    readonly path: string,
    private readonly sleep: Sleep,
  ) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    this.stream = createWriteStream(this.tmp, { mode: 0o644 });
    this.stream.on("error", (e) => (this.failure ??= e));
  }
  async line(text: string): Promise<void> {
    if (this.failure) throw this.problem();
    if (!this.stream.write(text)) await once(this.stream, "drain").catch(() => undefined);
    if (this.failure) throw this.problem();
  }
  async commit(): Promise<void> {
    await new Promise<void>((res, rej) => this.stream.end((e?: Error | null) => (e ? rej(this.problem(e)) : res())));
    if (this.failure) throw this.problem();
    // Excel holds the results file open while someone looks at it: waited for, then named (held-file.ts).
    await whileHeld(this.path, () => rename(this.tmp, this.path), this.sleep);
  }
  private problem(e: Error | undefined = this.failure): CliError {
    return new CliError(`could not write ${this.path}: ${e?.message ?? "write failed"}`, { hint: "Check that its folder exists and can be written; what was sent is in the ledger." });
  }
  async abandon(): Promise<void> {
    this.stream.destroy();
    await rm(this.tmp, { force: true });
  }
}

export interface ResultsFiles {
  results: string;
  errors: string;
  /** Rows in the errors file: failing still, after this run and the earlier ones. */
  failing: number;
}

export interface ResultsOptions {
  /** "shipment_id" or "address_id". */
  idColumn: string;
  /** The command creates: a created row's line is never replaced by one that says less (results-merge.ts). */
  keepCreated: boolean;
  /** How the command reads the input, for each row's key. */
  spec?: ScanSpec<ValidBase>;
  /** A row's notes, by its row in this file, for the note column. */
  noteOf?: (row: number) => string;
  /** Waits between attempts at replacing a file another program holds (tests give one that does not wait). */
  sleep?: Sleep;
}

/** An input column kept in the results: its normalised name (to match another file's) and its text as written. */
interface InputColumn {
  name: string;
  text: string;
}

/** What a run says of each row, by its number in the file (batch/outcomes.ts keeps them). */
export interface RowOutcomes {
  get(row: number): { id?: number; status: string; error?: string } | undefined;
}

/** Writes both files. */
export async function writeResultsFiles(source: CsvSource, outcomes: RowOutcomes, resultsArg: string, cwd: string, options: ResultsOptions): Promise<ResultsFiles> {
  const resultsPath = resolve(cwd, resultsArg);
  const errorsPath = errorsPathFor(resultsPath);
  const original = (await originalNamedBy(source)) ?? (source.stdin ? "stdin" : source.path);
  const keys = options.spec ? await rowKeys(source, options.spec) : new Map<number, string>();
  const earlier = await readEarlier(resultsPath, original, options.idColumn);
  const csv = await openCsv(source.open(), source.name);
  const origin = originReader(csv.header);
  const own = inputColumns(csv.header, options.idColumn);
  // An input that names its rows' targets in the id column (an update from `list --format csv`, or from a results
  // file): a row that failed keeps its id in the results file, and the errors file keeps the column, so it can be
  // fixed and run again.
  const idAt = csv.header.findIndex((h) => normaliseHeader(h) === options.idColumn);
  const columns: InputColumn[] = [...(earlier?.columns ?? [])];
  for (const c of own) if (!columns.some((k) => k.name === c.name)) columns.push(c);
  const results = new CsvWriter(resultsPath, options.sleep ?? realSleep);
  const errors = new CsvWriter(errorsPath, options.sleep ?? realSleep);
  // In the input's dialect (its delimiter and line ends), so that the spreadsheet that wrote it opens both files in
  // columns: German Excel reads a ";" file, not a "," one. Input cells are copied as written, decimal commas included;
  // what shipctl adds holds no fraction (ids, row numbers, whole dollars in notes).
  const line = (cells: ReadonlyArray<string | number>) => csvLine(cells, csv.delimiter, csv.lineEnd);
  let failing = 0;
  const write = async (result: ResultLine) => {
    const cells = columns.map((c) => result.cells.get(c.name) ?? "");
    const place = [result.row, result.key, original];
    await results.line(line([...cells, result.id, result.status, result.error, result.note ?? "", ...place]));
    if (result.status === "failed") {
      failing++;
      await errors.line(line([...(idAt < 0 ? [] : [result.id]), ...cells, result.error, ...place]));
    }
  };
  try {
    // A UTF-8 byte-order mark whatever the input's encoding, so Excel opens accents correctly (shipctl reads it back).
    await results.line(`\ufeff${line([...columns.map((c) => c.text), options.idColumn, "status", "error", "note", ...ORIGIN_COLUMNS])}`);
    await errors.line(`\ufeff${line([...(idAt < 0 ? [] : [options.idColumn]), ...columns.map((c) => c.text), "error", ...ORIGIN_COLUMNS])}`);
    const fresh: ResultLine[] = [];
    for await (const record of csv.rows) {
      const carried = origin(record.cells);
      const row = carried.row ?? record.row;
      const o = outcomes.get(record.row);
      const fromInput: ResultLine = {
        row,
        key: keys.get(record.row) ?? invalidRowKey(row, original),
        cells: new Map(own.map((c) => [c.name, record.cells[c.index] ?? ""])),
        id: o?.id !== undefined ? String(o.id) : cellAt(record.cells, idAt).trim(),
        status: o?.status ?? "pending",
        error: o?.error ?? "",
        note: options.noteOf?.(record.row) ?? "",
      };
      // Nothing to merge with: written as it is read, the file never held in memory.
      if (earlier === undefined) await write(fromInput);
      else fresh.push(fromInput);
    }
    if (earlier !== undefined) for (const merged of mergeResultLines(earlier.lines, fresh, options.keepCreated)) await write(merged);
    await results.commit();
    await errors.commit();
  } catch (e) {
    await results.abandon();
    await errors.abandon();
    throw e;
  } finally {
    await csv.close();
  }
  return { results: resultsPath, errors: errorsPath, failing };
}

/**
 * The input's columns, each with the name it is matched by in another file of the same original. A blank or repeated
 * header is a column too, whose cells are kept: named by its place among the kept columns, which is the same in the
 * results file (written after them, the columns shipctl writes do not move them) and in a results file run again
 * with trailing separators a spreadsheet added after shipctl's columns.
 */
function inputColumns(header: readonly string[], idColumn: string): Array<InputColumn & { index: number }> {
  const seen = new Set<string>();
  let kept = 0;
  return header.flatMap((text, index) => {
    const normalised = normaliseHeader(text);
    // Columns shipctl writes: replaced, not kept as input, so a results or errors file can be run again.
    if ([idColumn, "status", "error", "note", "verdict", ...ORIGIN_COLUMNS].includes(normalised)) return [];
    const name = normalised === "" || seen.has(normalised) ? `#${kept}` : normalised;
    kept++;
    seen.add(name);
    return [{ name, text, index }];
  });
}

/**
 * The key of a row that was invalid (it has none in the ledger yet): its row, and which original it is a row of. The
 * ledger's keys are the organization's, so another sheet's invalid row of the same number, fixed in its own errors
 * file, is another row, not a copy of this one.
 */
function invalidRowKey(row: number, original: string): string {
  return `row:${row}@${createHash("sha256").update(original).digest("hex").slice(0, 8)}`;
}

/**
 * Each row's key, by its row in this file: a valid row's key in the ledger, an invalid row's when it has one for sure
 * (scan.ts); any other row is named by its row number in the original.
 */
async function rowKeys(source: CsvSource, spec: ScanSpec<ValidBase>): Promise<Map<number, string>> {
  const keys = new Map<number, string>();
  let scan;
  try {
    scan = await openScan(source, { ...spec, keys: true });
  } catch {
    // A file whose header does not match was refused before anything was sent: its rows are named by number.
    return keys;
  }
  for await (const row of scan.rows) if (row.key !== undefined) keys.set(row.row, row.key);
  return keys;
}

/**
 * A line of a results file, run as input, whose carried key the record does not know: a row left as it was (marked
 * unsure or changed: not created, perhaps an edit of a created row), or one naming a shipment in its id cell (a changed
 * row, whatever its status cell says now: edited back and skipped, its update failed, or the cell blanked).
 */
export interface MarkedLine {
  /** The status cell as it is now ("" when blanked). */
  status: string;
  /** The id column's cell: the row created earlier, for a changed row ("" when none). */
  id: string;
  error: string;
}

/**
 * The lines of a results file, run as input, that mark a row `unsure` or `changed` or name a shipment in the id column
 * (changed-rows.ts), by their carried key, when `known` (the record) does not know that key. Empty for any other file.
 */
export function markedLines(source: CsvSource, idColumn: string, known: (key: string) => boolean): Promise<Map<string, MarkedLine>> {
  const marked = new Map<string, MarkedLine>();
  return readCsv(source, marked, async (csv) => {
    const names = csv.header.map(normaliseHeader);
    const [status, id, error] = ["status", idColumn, "error"].map((name) => names.indexOf(name));
    if (!names.includes(ORIGIN_KEY)) return marked;
    const origin = originReader(csv.header);
    for await (const record of csv.rows) {
      const key = origin(record.cells).key;
      const line = { status: cellAt(record.cells, status!).trim(), id: cellAt(record.cells, id!).trim(), error: cellAt(record.cells, error!).trim() };
      if (key !== "" && (line.status === "unsure" || line.status === "changed" || line.id !== "") && !known(key)) marked.set(key, line);
    }
    return marked;
  });
}

/**
 * The results file already there, when it is one of this original (its shipctl_original column names it): its input
 * columns and lines, to merge with. Another file's results, or a file shipctl cannot read as such, is replaced.
 */
function readEarlier(path: string, original: string, idColumn: string): Promise<{ columns: InputColumn[]; lines: ResultLine[] } | undefined> {
  const earlier = readCsv({ name: path, open: () => createReadStream(path) }, undefined, async (csv) => {
    const names = csv.header.map(normaliseHeader);
    if (!ORIGIN_COLUMNS.every((c) => names.includes(c))) return undefined;
    const [id, status, error, note] = [idColumn, "status", "error", "note"].map((name) => names.indexOf(name));
    const columns = inputColumns(csv.header, idColumn);
    const origin = originReader(csv.header);
    const lines: ResultLine[] = [];
    for await (const record of csv.rows) {
      const place = origin(record.cells);
      if (place.file !== "" && place.file !== original) return undefined;
      // A line added by hand in the spreadsheet is no row of the original.
      if (place.row === undefined) continue;
      const cell = (i: number) => record.cells[i] ?? "";
      lines.push({ row: place.row, key: place.key, cells: new Map(columns.map((c) => [c.name, cell(c.index)])), id: cell(id).trim(), status: cell(status).trim(), error: cell(error), note: cell(note) });
    }
    return { columns: columns.map(({ name, text }) => ({ name, text })), lines };
  });
  return earlier.catch(() => undefined);
}
