// What the first pass keeps for the pass that sends: one JSON line per valid row, in file order, in a private
// temporary file. The send pass (and a dry run's printing) reads it back instead of parsing and checking the CSV a
// second time, and memory does not grow with the rows. The folder is created readable by this user only (the rows
// hold names, emails and phone numbers, as the CSV does) and removed when the run ends.
//
// Lines go to the file some 64 KB at a time, and reading decodes one line at a time from a fixed buffer. (Writes and
// reads are synchronous: the file was just written, so both are copies to and from the page cache.)
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { textBuffer } from "../output/text-buffer.js";

/** Read size of the send pass: a few dozen rows a read, so reading never holds answers back for long. */
const READ_BYTES = 16 * 1024;

export interface Spill<T> {
  /** The file (in a folder of its own). */
  readonly path: string;
  /** Appends one item. */
  add(item: T): void;
  /** Ends writing: everything added is in the file. */
  finish(): void;
  /**
   * The items in the order added, a read's worth at a time (after finish), each parsed when it is reached. Read each
   * batch through before asking for the next.
   */
  batches(): AsyncGenerator<Iterable<T>>;
  /** Removes the file and its folder. */
  dispose(): Promise<void>;
}

export async function createSpill<T>(): Promise<Spill<T>> {
  const dir = await mkdtemp(join(tmpdir(), "shipctl-batch-"));
  const path = join(dir, "rows.jsonl");
  let fd: number | undefined = openSync(path, "w+", 0o600);
  let size = 0;
  const file = () => {
    if (fd === undefined) throw new Error("the spill file is closed");
    return fd;
  };
  const out = textBuffer((text) => {
    const f = file();
    const bytes = Buffer.from(text, "utf8");
    for (let at = 0; at < bytes.length; ) at += writeSync(f, bytes, at, bytes.length - at, size + at);
    size += bytes.length;
  });

  return {
    path,
    add(item) {
      out.add(`${JSON.stringify(item)}\n`);
    },
    finish: () => out.flush(),
    async *batches() {
      let buffer = Buffer.allocUnsafe(READ_BYTES);
      let filled = 0;
      for (let position = 0; position < size; ) {
        if (filled === buffer.length) {
          // A line longer than the buffer: make room for it.
          const bigger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(bigger, 0, 0, filled);
          buffer = bigger;
        }
        const n = readSync(file(), buffer, filled, buffer.length - filled, position);
        if (n === 0) break;
        position += n;
        filled += n;
        const end = buffer.lastIndexOf(10, filled - 1);
        if (end < 0) continue;
        yield lines<T>(buffer, end);
        // The rest of a line cut by the read goes first in the buffer for the next one.
        buffer.copy(buffer, 0, end + 1, filled);
        filled -= end + 1;
      }
    },
    async dispose() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The lines of buffer[0..end] (buffer[end] is a line break), each parsed when the reader reaches it. The buffer is
 * reused for the next read: a batch must be read through before the next one is asked for.
 */
function* lines<T>(buffer: Buffer, end: number): Generator<T> {
  for (let start = 0; start < end; ) {
    const stop = buffer.indexOf(10, start);
    yield JSON.parse(buffer.toString("utf8", start, stop)) as T;
    start = stop + 1;
  }
}
