// A file another program holds open. On Windows, Excel opens a CSV with a share lock, and antivirus scanners and
// OneDrive hold files while they read them: replacing such a file (a rename over it) or opening it for writing fails
// with EPERM, EBUSY or EACCES, and usually works a moment later. One retry rule for every file shipctl replaces.
import { open, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { FileInUseError } from "../errors.js";

const HELD_CODES = new Set(["EPERM", "EBUSY", "EACCES"]);

/** The waits between attempts: 1.5 s in all, long enough for a scan or a sync, short enough to say so soon. */
export const HELD_WAITS_MS: readonly number[] = [100, 200, 300, 400, 500];

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `op` on `path`, again after each wait while the file is held; then FileInUseError names the file. */
export async function whileHeld<T>(path: string, op: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (!HELD_CODES.has((e as NodeJS.ErrnoException | undefined)?.code ?? "")) throw e;
      const wait = HELD_WAITS_MS[attempt];
      if (wait === undefined) throw new FileInUseError(path, e);
      await sleep(wait);
    }
  }
}

/**
 * Fails as replacing `path` would, changing nothing: the file, when there, opens for writing without changing it (Windows refuses that
 * while Excel holds it), and a file can be created and removed beside it (the folder takes the temporary file that is
 * renamed over it). Waits while the file is held, as the replacing does.
 */
export async function checkReplaceable(path: string, sleep: Sleep = realSleep): Promise<void> {
  await whileHeld(
    path,
    async () => {
      const fh = await open(path, "r+").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return undefined;
        throw e;
      });
      // Windows (and Wine) may open a folder this way; nothing can be renamed over one anywhere.
      const folder = await fh?.stat().then((s) => s.isDirectory());
      await fh?.close();
      if (folder) throw Object.assign(new Error(`EISDIR: ${path} is a folder`), { code: "EISDIR" });
    },
    sleep,
  );
  const probe = join(dirname(path), `.${basename(path)}.${process.pid}.check`);
  await whileHeld(
    path,
    async () => {
      const fh = await open(probe, "wx");
      await fh.close();
      await rm(probe, { force: true });
    },
    sleep,
  );
}
