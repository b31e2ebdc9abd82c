// What every reader of a user's input (a CSV or JSON file, or stdin) checks as it reads, so that input that is not
// text, or never ends, is refused at once instead of being read for minutes at full CPU: a path that is a device
// (/dev/zero, /dev/null, a terminal) rather than a file or a pipe; a NUL byte, which no text file holds, wherever it
// comes; and, for a CSV, a first line that does not end within MAX_FIRST_LINE_BYTES.
import { createReadStream, type Stats } from "node:fs";
import { Readable, addAbortSignal } from "node:stream";
import { stat } from "node:fs/promises";
import { InterruptedError, UsageError } from "../errors.js";

/** A CSV header longer than this is not a header: a binary file, or one enormous line that never ends. */
export const MAX_FIRST_LINE_BYTES = 256 * 1024;

/**
 * What a path is when it cannot be an input: anything but a regular file or a pipe (`<(cmd)`, a named pipe). A
 * character device is refused even when it reads as text (/dev/null is empty, /dev/zero never ends, /dev/tty waits for
 * a person): stdin is read as `-`.
 */
export function notAFile(info: Stats): string | undefined {
  if (info.isFile() || info.isFIFO()) return undefined;
  if (info.isDirectory()) return "a folder";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/** `arg` as given; `takes` what is expected ("a CSV file"); `flag` the option that named it, when there is one. */
export function notAFileError(arg: string, kind: string, takes: string, flag?: string): UsageError {
  return new UsageError(`${arg} is ${kind}, not a file: ${flag ? `${flag} takes` : "expected"} ${takes}`, {
    hint: `Give the path of the file itself, or - to read stdin${flag ? ` (${flag} - < file)` : ""}. Nothing was read or sent.`,
  });
}

export function nulByteError(name: string, line: number): UsageError {
  return new UsageError(`${name} holds a NUL byte (line ${line}): it is binary data, not a text file`, {
    hint: "Give the text file itself (a CSV saved as \"CSV UTF-8\", or JSON). Nothing was sent.",
  });
}

export function endlessLineError(name: string): UsageError {
  return new UsageError(`${name}: the first line does not end within ${MAX_FIRST_LINE_BYTES / 1024} KB; this does not look like a CSV file`, {
    hint: "A CSV starts with a header row naming the columns, ended by a line break. Nothing was sent.",
  });
}

/**
 * Checks bytes as they stream past, chunk by chunk: throws at the first NUL byte, and, with `firstLine`, when no line
 * has ended within MAX_FIRST_LINE_BYTES. Text that starts with a UTF-16 byte-order mark holds zero bytes in every
 * ASCII character, so its NUL characters are found once decoded (src/csv/encoding.ts), not here.
 */
export class TextCheck {
  private lines = 0;
  private seen = 0;
  private lineEnded = false;
  /** Decided on the first two bytes: false for UTF-16. */
  private nul: boolean | undefined;
  private head = Buffer.alloc(0);

  constructor(
    private readonly name: string,
    private readonly o: { firstLine: boolean },
  ) {}

  check(chunk: Buffer): void {
    if (this.nul === undefined) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) return;
      this.nul = utf16Order(this.head) === undefined;
      chunk = this.head;
      this.head = Buffer.alloc(0);
    }
    if (this.nul) {
      const at = chunk.indexOf(0);
      if (at !== -1) throw nulByteError(this.name, this.lines + newlines(chunk.subarray(0, at)) + 1);
      this.lines += newlines(chunk);
    }
    if (this.o.firstLine && !this.lineEnded) {
      this.lineEnded = chunk.includes(10) || chunk.includes(13);
      this.seen += chunk.length;
      if (!this.lineEnded && this.seen > MAX_FIRST_LINE_BYTES) throw endlessLineError(this.name);
    }
  }

  /** At the end of the input: a lone first byte is checked too. */
  end(): void {
    if (this.nul === undefined && this.head.includes(0)) throw nulByteError(this.name, 1);
  }
}

export function newlines(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) n++;
  return n;
}

/** Reads a stream to its end through a TextCheck: stdin that is endless NUL bytes is refused at its first chunk. */
export async function readChecked(
  stream: AsyncIterable<Buffer | string>,
  name: string,
  o: { firstLine: boolean; signal?: AbortSignal },
): Promise<Buffer> {
  const check = new TextCheck(name, o);
  const chunks: Buffer[] = [];
  // Ctrl-C while a person is typing the input at a terminal (`--file -`) ends the read, as it ends every other wait:
  // otherwise the run said "Interrupted" and went on waiting for Ctrl-D.
  if (o.signal && stream instanceof Readable) addAbortSignal(o.signal, stream);
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      check.check(bytes);
      chunks.push(bytes);
    }
  } catch (e) {
    if (o.signal?.aborted) throw new InterruptedError(`interrupted while reading ${name}; nothing was sent`);
    throw e;
  }
  check.end();
  return Buffer.concat(chunks);
}

/**
 * A whole input file as text, with the checks above: a device is refused before it is opened, NUL bytes as they come.
 * The file system's own errors (ENOENT, EACCES...) are thrown as they are, for the caller to word.
 */
export async function readTextFile(path: string, arg: string, takes: string, o: { flag?: string; firstLine?: boolean } = {}): Promise<string> {
  const kind = notAFile(await stat(path));
  if (kind) throw notAFileError(arg, kind, takes, o.flag);
  return decodeText(await readChecked(createReadStream(path), arg, { firstLine: o.firstLine === true }), arg);
}

/** Standard input's text, checked and decoded as a file's is: cmd's `< notes.json` passes a UTF-16 file's bytes as they are. */
export async function readStdinText(stdin: AsyncIterable<Buffer | string>, o: { firstLine: boolean; signal?: AbortSignal }): Promise<string> {
  return decodeText(await readChecked(stdin, "stdin", o), "stdin");
}

/**
 * A file's text: UTF-8 (a byte-order mark kept for the reader), or UTF-16 with a byte-order mark, as Windows
 * PowerShell 5.1's `>` and Notepad's "Unicode" write it (read as UTF-8 it is garbage). TextCheck leaves UTF-16's NUL
 * characters to be found once decoded.
 */
export function decodeText(bytes: Buffer, name: string): string {
  const order = utf16Order(bytes);
  if (order === undefined) return bytes.toString("utf8");
  const text = new TextDecoder(order).decode(bytes);
  const at = text.indexOf("\0");
  if (at !== -1) throw nulByteError(name, text.slice(0, at).split("\n").length);
  return text;
}

/** The byte order a UTF-16 byte-order mark at the start of `bytes` announces, if there is one. */
function utf16Order(bytes: Buffer): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : undefined;
}
