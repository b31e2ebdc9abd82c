// Files that must survive a crash or a kill at any instant: written to a temporary file in the same folder, flushed
// to disk, then renamed over the old one (a rename is atomic), and the folder flushed so the rename itself is kept.
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";

/** `sync: false` skips the flushes where losing the write in a power cut is safe (it stays atomic: old or new, whole). */
export async function writeFileAtomic(path: string, data: string | Buffer, o: { mode?: number; sync?: boolean } = {}): Promise<void> {
  const { mode = 0o600, sync = true } = o;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const fh = await open(tmp, "w", mode);
    try {
      await fh.writeFile(data);
      if (sync) await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  if (sync) await syncDirectory(dirname(path));
}

export async function syncDirectory(dir: string): Promise<void> {
  // Not every platform lets a directory be opened for fsync (Windows); the rename is still atomic there.
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort
  }
}
