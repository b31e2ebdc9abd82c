// Streams the records of a CSV file as spreadsheets write it: encoding from the BOM, delimiter sniffed from the
// header, quoted fields with delimiters and line breaks, blank lines skipped. Each record carries the row number the
// spreadsheet shows (header = row 1): blank lines count as rows there, line breaks inside a cell do not.
import { parse, type CsvError } from "csv-parse";
import { Readable } from "node:stream";
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
   * The same rows as they come out of each read of the file, several at a time: one await per read rather than per
   * row, which is most of the cost of reading beside parsing.
   */
  batches: AsyncIterable<CsvRow[]>;
  /**
   * Reads every row, handing each to `onRow` as soon as the parser produces it, and awaits `afterChunk` after each
   * read of the file. Nothing queues the rows, so each is garbage before the next is parsed: the cheapest way through
   * a big file, in time and in memory. Read the rows one way only: `rows`, `batches` or `each`.
   */
  each(onRow: (row: CsvRow) => void, afterChunk?: () => Promise<void>): Promise<void>;
  /**
   * Stops reading, early or not: resolves once the file is closed, so that it can be replaced or its folder removed
   * (Windows refuses both while a file is open).
   */
  close(): Promise<void>;
}

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
    if (size > MAX_FIRST_LINE_BYTES) throw endlessLineError(file);
  }
  const header = firstLine(peekedText.replace(/^[\r\n]+/, "")).line;
  const lineEnd = lineEndOf(peekedText.replace(/^[\r\n]+/, ""));
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
  // The file's chunks go into the parser one at a time, by hand rather than through pipes that would read ahead, and
  // the parser hands each record to whoever reads (see RecordFeed): only the chunk being parsed is in memory.
  const chunks = (async function* () {
    yield* peeked;
    yield* decoded;
  })();
  const records = new RecordFeed(parser, chunks, bytes);
  const close = () => records.close();
  const feed = async (): Promise<boolean> => {
    try {
      return await records.feed();
    } catch (e) {
      await close();
      throw csvError(e, file);
    }
  };
  const blank = (record: string[]) => record.every((c) => c.trim() === "");

  // Every record is a spreadsheet row, blank ones included; the header is the first that is not blank.
  let row = 0;
  let headerCells: string[] | undefined;
  const queued: string[][] = [];
  records.sink = (record) => {
    if (headerCells !== undefined) queued.push(record);
    else {
      row++;
      if (!blank(record)) headerCells = record;
    }
  };
  while (headerCells === undefined) {
    // The last feed (the end of the file) may be the one that delivers the header: a file that is only a header.
    const more = await feed();
    if (headerCells === undefined && !more) throw new UsageError(`${file} is empty: it needs a header row naming the columns`);
  }
  records.sink = (record) => queued.push(record);

  const numbered = (out: CsvRow[]) => (cells: string[]) => {
    row++;
    if (!blank(cells)) out.push({ row, cells });
  };
  async function* batches(): AsyncGenerator<CsvRow[]> {
    try {
      for (let more = true; more; ) {
        const out: CsvRow[] = [];
        queued.splice(0).forEach(numbered(out));
        if (out.length > 0) yield out;
        more = await feed();
      }
      const out: CsvRow[] = [];
      queued.splice(0).forEach(numbered(out));
      if (out.length > 0) yield out;
    } finally {
      await close();
    }
  }
  async function* rows(): AsyncGenerator<CsvRow> {
    for await (const batch of batches()) yield* batch;
  }
  async function each(onRow: (row: CsvRow) => void, afterChunk?: () => Promise<void>): Promise<void> {
    const deliver = (cells: string[]) => {
      row++;
      if (!blank(cells)) onRow({ row, cells });
    };
    try {
      queued.splice(0).forEach(deliver);
      records.sink = deliver;
      while (await feed()) await afterChunk?.();
    } finally {
      await close();
    }
  }
  return { file, encoding, delimiter, lineEnd, header: headerCells, rows: rows(), batches: batches(), each, close };
}

/** csv-parse's core parser, which its stream (`Parser`) drives: `parse(chunk, end, push, close)` returns an error. */
interface CoreParser {
  parse(chunk: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): Error | undefined;
}

/**
 * Feeds a file's chunks to csv-parse, one per feed(), and hands each record it produces to `sink` as it is parsed.
 * It drives the parser's core, the `api` its stream is built on (csv-parse 5 to 7), rather than the stream: the
 * stream passes every record through Node's stream machinery (push, a buffer, a 'data' event), about a sixth of a
 * first pass's time in the profile, for records that are handed on at once anyway.
 */
class RecordFeed {
  sink: (record: string[]) => void = () => undefined;
  private readonly core: CoreParser;
  private done = false;

  constructor(
    parser: ReturnType<typeof parse>,
    private readonly chunks: AsyncGenerator<Buffer>,
    /** What the chunks are read from: a stream's file is closed by close(). */
    private readonly bytes: AsyncIterable<Buffer | string>,
  ) {
    const core = (parser as unknown as { api?: Partial<CoreParser> }).api;
    if (typeof core?.parse !== "function") throw new Error("csv-parse no longer exposes its core parser as `api`: src/csv/csv-reader.ts needs an update");
    this.core = core as CoreParser;
  }

  /** Parses the next chunk; false once the file is done and every record delivered. */
  async feed(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.chunks.next();
    if (this.done) return false;
    const push = (record: string[]) => this.sink(record);
    // Nothing stops the parser early (no `to` or `to_line`): `close` is only told the end, which feed() knows.
    const close = () => undefined;
    const error = next.done ? this.core.parse(undefined, true, push, close) : this.core.parse(next.value, false, push, close);
    if (error) {
      await this.close();
      throw error;
    }
    if (next.done) this.done = true;
    return !next.done;
  }

  /**
   * Ends the chunks, and waits for their stream to close its file: ending an async iteration of a stream destroys it,
   * but its file is closed a moment later.
   */
  async close(): Promise<void> {
    this.done = true;
    await this.chunks.return(undefined).catch(() => undefined);
    if (!(this.bytes instanceof Readable) || this.bytes.closed) return;
    this.bytes.destroy();
    await finished(this.bytes).catch(() => undefined);
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
