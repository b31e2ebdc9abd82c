// What the first pass keeps for the pass that sends: one JSON line per valid row, in file order, in a private
// temporary file. The send pass (and a dry run's printing) reads it back instead of parsing and checking the CSV a
// second time, and memory does not grow with the rows. The folder is created readable by this user only (the rows
// hold names, emails and phone numbers, as the CSV does) and removed when the run ends.
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Read size of the send pass: a few dozen rows a read, so reading never holds answers back for long. */
const READ_BYTES = 16 * 1024;

export interface Spill<T> {
  /** The file (in a folder of its own). */
  readonly path: string;
  /** Appends one item (written in the background; `drain` waits when the disk falls behind). */
  add(item: T): void;
  /** Resolves once the file can take more without buffering much in memory. */
  drain(): Promise<void>;
  /** Ends writing; resolves when everything added is in the file. */
  finish(): Promise<void>;
  /** The items in the order added, a read's worth at a time (after finish), each parsed when it is reached. */
  batches(): AsyncGenerator<Iterable<T>>;
  /** Removes the file and its folder. */
  dispose(): Promise<void>;
}

function* parsed<T>(lines: string[]): Generator<T> {
  for (const line of lines) yield JSON.parse(line) as T;
}

export async function createSpill<T>(): Promise<Spill<T>> {
  const dir = await mkdtemp(join(tmpdir(), "shipctl-batch-"));
  const path = join(dir, "rows.jsonl");
  const out: WriteStream = createWriteStream(path, { mode: 0o600 });
  let failure: { error: unknown } | undefined;
  out.on("error", (error) => {
    failure ??= { error };
  });
  const check = () => {
    if (failure) throw failure.error;
  };
  // Lines are gathered and written some kilobytes at a time: one write per row would cost more than the row, and
  // more at once would keep them alive long enough to be copied by the garbage collector (which then grows its heap).
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pending.length === 0) return;
    out.write(pending.join(""));
    pending = [];
    pendingBytes = 0;
  };

  return {
    path,
    add(item) {
      const line = `${JSON.stringify(item)}\n`;
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= 8 * 1024) flush();
    },
    async drain() {
      check();
      if (out.writableNeedDrain) await new Promise<void>((resolve) => out.once("drain", resolve).once("error", () => resolve()));
      check();
    },
    async finish() {
      flush();
      await new Promise<void>((resolve) => out.end(resolve));
      check();
    },
    async *batches() {
      let carry = "";
      for await (const chunk of createReadStream(path, { highWaterMark: READ_BYTES, encoding: "utf8" }) as AsyncIterable<string>) {
        const text = carry + chunk;
        const end = text.lastIndexOf("\n");
        carry = text.slice(end + 1);
        if (end < 0) continue;
        yield parsed<T>(text.slice(0, end).split("\n"));
      }
      if (carry !== "") yield parsed<T>([carry]);
    },
    async dispose() {
      out.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
