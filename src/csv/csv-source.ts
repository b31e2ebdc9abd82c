// Where the CSV comes from: a file, or stdin (`--csv -`). The batch reads its input more than once (validate
// everything, then send, then write the results), so stdin is first copied to a private temporary file.
import { createReadStream, createWriteStream, type ReadStream } from "node:fs";
import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { InterruptedError, UsageError } from "../errors.js";
import { numbersPackageHint } from "./workbook.js";
import { notAFile, notAFileError, TextCheck } from "../fs/input-guard.js";

export interface CsvSource {
  /** How the input is named in messages ("orders.csv", "stdin"). */
  name: string;
  /** Absolute path of the file read (the temporary copy for stdin). */
  path: string;
  stdin: boolean;
  /** A fresh stream of the bytes. */
  open(): Readable;
  /** Removes the temporary copy of stdin, once every stream opened on it is closed (Windows cannot remove an open file). */
  dispose(): Promise<void>;
}

/** `flag` names the option in messages (`--csv`, or `checkout --from`); `signal` (Ctrl-C) ends a read of stdin. */
export async function openSource(
  arg: string,
  cwd: string,
  stdin: Readable,
  flag = "--csv",
  signal?: AbortSignal,
): Promise<CsvSource> {
  if (arg === "-") return spoolStdin(stdin, signal);
  const path = resolve(cwd, arg);
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${arg}` : `cannot read ${arg} (${code})`);
  }
  if (info.isDirectory()) throw new UsageError(`${arg} is a folder; ${flag} takes a CSV file`, { hint: numbersPackageHint(arg) });
  const kind = notAFile(info);
  if (kind) throw notAFileError(arg, kind, "a CSV file", flag);
  return {
    name: arg,
    path,
    stdin: false,
    open: () => createReadStream(path),
    dispose: async () => undefined,
  };
}

async function spoolStdin(stdin: Readable, signal: AbortSignal | undefined): Promise<CsvSource> {
  const dir = await mkdtemp(join(tmpdir(), "shipctl-stdin-"));
  const path = join(dir, "stdin.csv");
  // Checked as it is copied: stdin that never ends (`cat /dev/zero |`) is refused at once, not spooled to the disk.
  const text = new TextCheck("stdin", { firstLine: true });
  async function* checked(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      text.check(bytes);
      yield bytes;
    }
    text.end();
  }
  try {
    // With the signal, Ctrl-C while a person types the CSV at a terminal ends the copy instead of waiting for Ctrl-D.
    await pipeline(stdin, checked, createWriteStream(path, { mode: 0o600 }), signal ? { signal } : {});
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    if (signal?.aborted) throw new InterruptedError("interrupted while reading stdin; nothing was sent");
    throw e;
  }
  // Every stream opened on the copy, closed before its folder is removed: a reader that stopped early (a refused row,
  // Ctrl-C) may still hold the file, and on Windows a file open elsewhere cannot vanish (ENOTEMPTY on the folder).
  const streams = new Set<ReadStream>();
  return {
    name: "stdin",
    path,
    stdin: true,
    open: () => {
      const stream = createReadStream(path);
      streams.add(stream);
      stream.once("close", () => streams.delete(stream));
      return stream;
    },
    dispose: async () => {
      await Promise.all([...streams].map(closed));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the stream's file is closed (destroying it when it is still open). */
async function closed(stream: ReadStream): Promise<void> {
  if (stream.closed) return;
  const done = once(stream, "close").catch(() => undefined);
  stream.destroy();
  await done;
}
