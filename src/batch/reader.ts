// Streams the records of a CSV file as spreadsheets write it: encoding from the BOM, delimiter sniffed from the
// header, quoted fields with delimiters and line breaks, blank lines skipped. Each record carries the row number the
// spreadsheet shows (header = row 1): blank lines count as rows there, line breaks inside a cell do not.
import { Readable } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { UsageError } from "../errors.js";
import { decodeCsvBytes, type CsvEncoding } from "./encoding.js";
import { firstLine, sniffDelimiter, type Delimiter } from "./sniff.js";

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
  header: string[];
  /** The data rows, read once, in file order. Rows whose cells are all empty are skipped. */
  rows: AsyncIterable<CsvRow>;
  /**
   * The same rows as they come out of each read of the file, several at a time: one await per read rather than per
   * row, which is most of the cost of reading beside parsing. Read either `rows` or `batches`, not both.
   */
  batches: AsyncIterable<CsvRow[]>;
  /** Stops reading early (releases the file). */
  close(): void;
}

/** A header longer than this is not a CSV header (a binary file, or one enormous line). */
const MAX_HEADER_BYTES = 256 * 1024;

export async function openCsv(bytes: AsyncIterable<Buffer | string>, file: string): Promise<CsvFile> {
  let encoding: CsvEncoding = "utf-8";
  const decoded = decodeCsvBytes(bytes, file, (e) => (encoding = e));
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
    if (size > MAX_HEADER_BYTES) throw new UsageError(`${file}: the first line is longer than 256 KB; this does not look like a CSV file`);
  }
  const header = firstLine(peekedText.replace(/^[\r\n]+/, "")).line;
  if (header.trim() === "") {
    throw new UsageError(`${file} is empty: it needs a header row naming the columns, then one row per item`, {
      hint: "Run `shipctl shipment template > file.csv` for a file to start from.",
    });
  }
  const delimiter = sniffDelimiter(header);
  const parser = parse({
    delimiter,
    // Blank lines come through as records of one empty cell and are skipped below: counting them there (rather than
    // asking csv-parse for its `info` on every record, which costs) gives the spreadsheet's row numbers.
    skip_empty_lines: false,
    relax_column_count: true,
    // Hand-typed inch marks (17") are common; spreadsheets quote such fields properly anyway.
    relax_quotes: true,
    max_record_size: 1_000_000,
  });
  const source = Readable.from(
    (async function* () {
      yield* peeked;
      yield* decoded;
    })(),
  );
  source.on("error", (e) => parser.destroy(e));
  source.pipe(parser);
  const take = recordBatches(parser);
  const close = () => {
    source.destroy();
    parser.destroy();
  };

  const next = async () => {
    try {
      return await take();
    } catch (e) {
      close();
      throw csvError(e, file);
    }
  };
  const blank = (record: string[]) => record.every((c) => c.trim() === "");
  // Every record is a spreadsheet row, blank ones included; the header is the first that is not blank.
  let row = 0;
  let pending: string[][] = [];
  let at = 0;
  let headerCells: string[] | undefined;
  while (headerCells === undefined) {
    if (at === pending.length) {
      const batch = await next();
      if (batch === null) throw new UsageError(`${file} is empty: it needs a header row naming the columns`);
      [pending, at] = [batch, 0];
      continue;
    }
    const record = pending[at++]!;
    row++;
    if (!blank(record)) headerCells = record;
  }
  pending = pending.slice(at);

  async function* batches(): AsyncGenerator<CsvRow[]> {
    try {
      for (let records: string[][] | null = pending; records !== null; records = await next()) {
        const out: CsvRow[] = [];
        for (const cells of records) {
          row++;
          if (!blank(cells)) out.push({ row, cells });
        }
        if (out.length > 0) yield out;
      }
    } finally {
      close();
    }
  }
  async function* rows(): AsyncGenerator<CsvRow> {
    for await (const batch of batches()) yield* batch;
  }
  return { file, encoding, delimiter, header: headerCells, rows: rows(), batches: batches(), close };
}

/**
 * The parser's records, all that each write of the file produced at once: read() drains what is buffered, and the
 * next call waits for more. Resolves null at the end; rejects with the parser's error.
 */
function recordBatches(parser: ReturnType<typeof parse>): () => Promise<string[][] | null> {
  let failure: { error: unknown } | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  parser.on("readable", () => wake?.());
  parser.on("end", () => {
    ended = true;
    wake?.();
  });
  parser.on("error", (error: unknown) => {
    failure ??= { error };
    wake?.();
  });
  // Closed by close(): nothing more will come.
  parser.on("close", () => wake?.());
  return async () => {
    for (;;) {
      const batch: string[][] = [];
      for (let record = parser.read() as string[] | null; record !== null; record = parser.read() as string[] | null) batch.push(record);
      if (batch.length > 0) return batch;
      if (failure) throw failure.error;
      if (ended || parser.destroyed) return null;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  };
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
