// Spreadsheets write CSV in a handful of encodings. We accept the ones that can be told apart with certainty
// (UTF-8 with or without a BOM, UTF-16 with a BOM) and refuse everything else with the way to re-export, because
// guessing a legacy code page would silently corrupt names and addresses.
import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import type { CsvSource } from "./csv-source.js";
import { UsageError } from "../errors.js";
import { refuseWorkbook, startsWith } from "./workbook.js";
import { newlines, nulByteError } from "../fs/input-guard.js";

export type CsvEncoding = "utf-8" | "utf-8 with BOM" | "utf-16le" | "utf-16be";

export const REEXPORT_HINT =
  'Save it again as UTF-8: in Excel, File > Save As > "CSV UTF-8 (Comma delimited)"; in Numbers, File > Export To > CSV ' +
  'with Text Encoding "Unicode (UTF-8)"; in Google Sheets, File > Download > Comma-separated values (always UTF-8); ' +
  'in LibreOffice, Save As > Text CSV with Character set "Unicode (UTF-8)".';

/** Byte-order marks and the encoding each announces. */
const BOMS: ReadonlyArray<readonly [CsvEncoding, number[]]> = [
  ["utf-8 with BOM", [0xef, 0xbb, 0xbf]],
  ["utf-16le", [0xff, 0xfe]],
  ["utf-16be", [0xfe, 0xff]],
];

const markOf = (bytes: Buffer) => BOMS.find(([, mark]) => startsWith(bytes, mark));

/** The encoding announced by the first bytes, or refuses a file that is not text at all. */
export function detectEncoding(head: Buffer, file: string): { encoding: CsvEncoding; bomLength: number } {
  const bom = markOf(head);
  if (bom) return { encoding: bom[0], bomLength: bom[1].length };
  refuseWorkbook(head, file);
  // Two zero bytes side by side are a NUL in either byte order: binary data, not text in any encoding.
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0 && head[i + 1] === 0) throw nulByteError(file, newlines(head.subarray(0, i)) + 1);
  }
  // UTF-16 without a BOM: every other byte of ASCII text is zero. We cannot know the byte order for sure.
  const sample = head.subarray(0, 64);
  const zeros = sample.filter((b) => b === 0).length;
  if (sample.length >= 8 && zeros >= sample.length / 4) {
    throw new UsageError(`${file} looks like UTF-16 text without a byte-order mark, which cannot be read reliably`, {
      hint: REEXPORT_HINT,
    });
  }
  return { encoding: "utf-8", bomLength: 0 };
}

/** How many bytes at the end of `buf` start a UTF-8 sequence that the next chunk completes. */
export function incompleteUtf8Tail(buf: Buffer): number {
  const n = buf.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = buf[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** No text holds a NUL character (U+0000), whatever its encoding: refused wherever it comes, naming its line. */
function refuseNul(file: string, text: Buffer, linesBefore: number): void {
  const at = text.indexOf(0);
  if (at !== -1) throw nulByteError(file, linesBefore + newlines(text.subarray(0, at)) + 1);
}

/** Offset of the first byte that breaks UTF-8 (only called once a chunk is known to be invalid). */
export function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= buf.length || (buf[i + k]! & 0xc0) !== 0x80) return i;
    }
    if (need > 0 && !isUtf8(buf.subarray(i, i + need + 1))) return i; // overlong forms and surrogates
    i += need + 1;
  }
  return buf.length;
}

/** Names the first invalid byte: its line and how it reads as Latin-1 (the usual culprit), so the user can find it. */
function notUtf8Error(file: string, chunk: Buffer, linesBefore: number): UsageError {
  const bad = Math.min(firstInvalidUtf8(chunk), chunk.length - 1);
  const line = linesBefore + newlines(chunk.subarray(0, bad)) + 1;
  const from = Math.max(chunk.lastIndexOf(10, bad) + 1, bad - 20);
  const context = chunk.subarray(from, Math.min(chunk.length, bad + 12)).toString("latin1").split(/\r?\n/)[0];
  const byte = `0x${chunk[bad]!.toString(16).toUpperCase().padStart(2, "0")}`;
  return new UsageError(
    `${file} is not UTF-8 text: line ${line} holds the byte ${byte} ("${context}" if read as Latin-1), ` +
      "which suggests a Latin-1 or Windows-1252 export",
    { hint: `Read it as it is with --encoding windows-1252 (or the encoding it was saved in; shipment create|update and address verify|add|update --csv), or: ${REEXPORT_HINT}` },
  );
}

/**
 * Turns the raw bytes of a CSV file into UTF-8 bytes without its BOM, checking as it goes. UTF-8 input passes through
 * untouched (only checked), so the common case costs one validation pass and no copies.
 */
export async function* decodeCsvBytes(
  source: AsyncIterable<Buffer | string>,
  file: string,
  onEncoding?: (encoding: CsvEncoding) => void,
): AsyncGenerator<Buffer> {
  let head: Buffer = Buffer.alloc(0);
  const iterator = source[Symbol.asyncIterator]();
  // Enough bytes to read a BOM or a file signature (a workbook's first entry name is at byte 30).
  while (head.length < 128) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, toBuffer(next.value)]);
  }
  if (head.length === 0) return;
  const { encoding, bomLength } = detectEncoding(head, file);
  onEncoding?.(encoding);
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      yield head.subarray(bomLength);
      for (let n = await iterator.next(); !n.done; n = await iterator.next()) yield toBuffer(n.value);
    } finally {
      await iterator.return?.();
    }
  }
  const name = encoding.toUpperCase();
  const invalid = () => new UsageError(`${file} starts with a ${name} byte-order mark but is not valid ${name} text`, {
    hint: REEXPORT_HINT,
  });
  const convert = encoding === "utf-16le" || encoding === "utf-16be" ? toUtf8(encoding, invalid) : utf8Checker(file);
  // Each chunk converted, then refused if it holds a NUL; `lines` counts the lines before it, for messages.
  let lines = 0;
  const ready = (chunk: Buffer, final: boolean): Buffer => {
    const text = convert(chunk, final, lines);
    refuseNul(file, text, lines);
    lines += newlines(text);
    return text;
  };
  for await (const chunk of chunks()) {
    const text = ready(chunk, false);
    if (text.length > 0) yield text;
  }
  const tail = ready(Buffer.alloc(0), true);
  if (tail.length > 0) yield tail;
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
}

/** UTF-8 chunks checked and passed on as they are, a character split between two chunks held for the next. */
function utf8Checker(file: string): (chunk: Buffer, final: boolean, lines: number) => Buffer {
  let carry: Buffer = Buffer.alloc(0);
  return (chunk, final, lines) => {
    const whole = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const keep = final ? 0 : incompleteUtf8Tail(whole);
    const ready = keep > 0 ? whole.subarray(0, whole.length - keep) : whole;
    carry = keep > 0 ? Buffer.from(whole.subarray(whole.length - keep)) : Buffer.alloc(0);
    if (!isUtf8(ready)) throw notUtf8Error(file, ready, lines);
    return ready;
  };
}

/** A streaming decoder from `encoding` to UTF-8 bytes that throws `invalid()` where the bytes are not of it. */
function toUtf8(encoding: string, invalid: () => UsageError): (chunk: Buffer, final: boolean) => Buffer {
  const decoder = new TextDecoder(encoding, { fatal: true });
  return (chunk, final) => {
    try {
      return Buffer.from(decoder.decode(chunk, { stream: !final }), "utf8");
    } catch {
      throw invalid();
    }
  };
}

/**
 * The bytes of a file in the encoding --encoding declared, as UTF-8 for the CSV reader (which then checks them as
 * any UTF-8 file). A byte-order mark that says otherwise is refused rather than overruled: the flag was meant for
 * another file (a results file shipctl wrote is UTF-8 with a BOM).
 */
export async function* declaredToUtf8(source: AsyncIterable<Buffer | string>, encoding: string, file: string): AsyncGenerator<Buffer> {
  const decode = toUtf8(encoding, () => new UsageError(`${file} is not valid ${encoding} text`, {
    hint: `Check the encoding it was saved in and give that to --encoding, or: ${REEXPORT_HINT}`,
  }));
  let first = true;
  for await (const chunk of source) {
    const bytes = toBuffer(chunk);
    if (first && bytes.length > 0) {
      first = false;
      // A UTF-16 mark names its byte order too: read in the other order, every character would be another one.
      // A UTF-8 mark always contradicts it: with --encoding utf-8 the file never comes here (sourceInEncoding).
      const marked = markOf(bytes)?.[0];
      if (marked !== undefined && encoding !== marked) {
        const bom = marked === "utf-8 with BOM" ? "UTF-8" : "UTF-16";
        throw new UsageError(`${file} starts with a ${bom} byte-order mark, but --encoding says ${encoding}`, {
          hint: "Run it without --encoding: the byte-order mark says how it is encoded.",
        });
      }
    }
    const text = decode(bytes, false);
    if (text.length > 0) yield text;
  }
  const tail = decode(Buffer.alloc(0), true);
  if (tail.length > 0) yield tail;
}

/** The source read in the encoding --encoding declared (UTF-8 needs no decoding: the reader checks it as it is). */
export function sourceInEncoding(source: CsvSource, encoding: string): CsvSource {
  if (encoding === "utf-8") return source;
  return { ...source, open: () => Readable.from(declaredToUtf8(source.open(), encoding, source.name)) };
}
