// Streams the records of a CSV file as spreadsheets write it: encoding from the BOM, delimiter sniffed from the
// header, quoted fields with delimiters and line breaks, blank lines skipped. Each record carries the row number the
// spreadsheet shows (header = row 1): blank lines count as rows there, line breaks inside a cell do not.
import { pipeline, Readable } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { finished } from "node:stream/promises";
import { UsageError } from "../errors.js";
import { decodeCsvBytes, type CsvEncoding } from "./encoding.js";
import { firstLine, lineEndOf, sniffDelimiter, type Delimiter, type LineEnd } from "./delimiter.js";
import { endlessLineError, MAX_FIRST_LINE_BYTES } from "../fs/input-guard.js";

export interface CsvRow {
  /** Row number as a spreadsheet shows it; the header is row 1. */
  row: number;
  cells: string[];
}

export interface CsvFile {
  /** How the file is named in messages. */
  file: string;
  encoding: CsvEncoding;
  delimiter: Delimiter;
  lineEnd: LineEnd;
  header: string[];
  /** The data rows, read once, in file order. Rows whose cells are all empty are skipped. */
  rows: AsyncIterable<CsvRow>;
  /**
   * Stops reading, early or not: resolves once the file is closed, so that it can be replaced or its folder removed
   * (Windows refuses both while a file is open).
   */
  close(): Promise<void>;
}

export async function openCsv(bytes: AsyncIterable<Buffer | string>, file: string): Promise<CsvFile> {
  let encoding: CsvEncoding = "utf-8";
  const decoded = decodeCsvBytes(bytes, file, (e) => (encoding = e));
  // The header line names the delimiter the parser needs, so it is read first.
  const peeked: Buffer[] = [];
  let peekedText = "";
  let size = 0;
  for (;;) {
    const next = await decoded.next();
    if (next.done) break;
    peeked.push(next.value);
    size += next.value.length;
    peekedText += next.value.toString("utf8");
    if (firstLine(peekedText.trimStart()).complete) break;
    if (size > MAX_FIRST_LINE_BYTES) throw endlessLineError(file);
  }
  // Lines of spaces or tabs before the header are blank lines too (the parser skips them as such).
  const headerText = peekedText.trimStart();
  const header = firstLine(headerText).line;
  if (header.trim() === "") {
    throw new UsageError(`${file} is empty: it needs a header row naming the columns, then one row per item`, {
      hint: "Run `shipctl shipment template > file.csv` for a file to start from.",
    });
  }
  const delimiter = sniffDelimiter(header);
  const parser = parse({
    delimiter,
    // Blank lines come through as records of one empty cell and are skipped below: counting them there gives the
    // spreadsheet's row numbers.
    skip_empty_lines: false,
    relax_column_count: true,
    // Hand-typed inch marks (17") are common; spreadsheets quote such fields properly anyway.
    relax_quotes: true,
    max_record_size: 1_000_000,
  });
  const input = Readable.from(
    (async function* () {
      yield* peeked;
      yield* decoded;
    })(),
    { objectMode: false },
  );
  // An error of either stream (a byte that is not UTF-8, an unclosed quote) comes out of the records.
  pipeline(input, parser, () => undefined);
  const records: AsyncIterator<string[]> = parser[Symbol.asyncIterator]();
  const close = async (): Promise<void> => {
    parser.destroy();
    input.destroy();
    // Destroying the pipe ends the read of the file, whose stream closes its file a moment later.
    if (!(bytes instanceof Readable) || bytes.closed) return;
    bytes.destroy();
    await finished(bytes).catch(() => undefined);
  };
  const next = async (): Promise<IteratorResult<string[]>> => {
    try {
      return await records.next();
    } catch (e) {
      await close();
      throw csvError(e, file);
    }
  };
  const blank = (record: string[]) => record.every((c) => c.trim() === "");

  // Every record is a spreadsheet row, blank ones included; the header is the first that is not blank.
  let row = 0;
  let headerCells: string[] | undefined;
  while (headerCells === undefined) {
    const record = await next();
    if (record.done) throw new UsageError(`${file} is empty: it needs a header row naming the columns`);
    row++;
    if (!blank(record.value)) headerCells = record.value;
  }
  async function* rows(): AsyncGenerator<CsvRow> {
    try {
      for (let record = await next(); !record.done; record = await next()) {
        row++;
        if (!blank(record.value)) yield { row, cells: record.value };
      }
    } finally {
      await close();
    }
  }
  return { file, encoding, delimiter, lineEnd: lineEndOf(headerText), header: headerCells, rows: rows(), close };
}

/**
 * What `read` makes of a CSV, closed after; `unreadable` when it cannot be opened as one (the run's first pass says
 * why). For the passes that look into a file before or after the run: its origin columns, an earlier results file.
 */
export async function readCsv<T>(
  source: { name: string; open(): AsyncIterable<Buffer | string> },
  unreadable: T,
  read: (csv: CsvFile) => Promise<T>,
): Promise<T> {
  let csv: CsvFile;
  try {
    csv = await openCsv(source.open(), source.name);
  } catch {
    return unreadable;
  }
  try {
    return await read(csv);
  } finally {
    await csv.close();
  }
}

/** csv-parse's errors, told in the user's terms with the line to look at. */
function csvError(e: unknown, file: string): unknown {
  if (e instanceof UsageError) return e;
  const err = e as Partial<CsvError> & { lines?: number; message?: string };
  if (typeof err.code !== "string" || !err.code.startsWith("CSV_")) return e;
  const where = err.lines ? `${file}, line ${err.lines}` : file;
  const reasons: Record<string, string> = {
    CSV_QUOTE_NOT_CLOSED: "a quoted field is never closed (a missing closing quote)",
    CSV_INVALID_CLOSING_QUOTE: "a closing quote is followed by other characters instead of the delimiter",
    CSV_MAX_RECORD_SIZE: "a record is longer than 1 MB (probably an unclosed quote)",
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "characters follow a closing quote",
  };
  return new UsageError(`${where}: ${reasons[err.code] ?? err.message ?? err.code}`, {
    hint: "Open the file in a spreadsheet and save it again as CSV, or fix the quotes around that line.",
  });
}
