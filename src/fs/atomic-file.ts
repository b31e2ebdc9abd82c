// Files that must survive a crash or a kill at any instant: written to a temporary file in the same folder, flushed
// to disk, then renamed over the old one (a rename is atomic), and the folder flushed so the rename itself is kept.
// The rename waits while another program holds the old file (held-file.ts: Windows, Excel, antivirus, OneDrive).
import { open, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { whileHeld, type Sleep } from "./held-file.js";

/**
 * Readable by its owner only. `sleep` waits between attempts at replacing a held file (tests give one that does not
 * wait).
 */
export async function writeFileAtomic(path: string, data: string | Buffer, o: { sleep?: Sleep } = {}): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    // `flush` syncs the data to disk before the file is closed.
    await writeFile(tmp, data, { mode: 0o600, flush: true });
    await whileHeld(path, () => rename(tmp, path), o.sleep);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  // The folder flushed, so the rename is kept. Not every platform lets a directory be opened for fsync (Windows); the
  // rename is still atomic there.
  await open(dirname(path), "r")
    .then((fh) => fh.sync().finally(() => fh.close()))
    .catch(() => undefined); // best effort
}
