// One run per journal at a time: two runs of the same CSV at once would both send the rows neither has recorded.
// The lock is a file holding the owner's pid, created exclusively; a lock left by a killed run (its pid is gone) is
// taken over.
import { open, readFile, rm } from "node:fs/promises";
import { UsageError } from "../errors.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface Lock {
  release(): Promise<void>;
}

export async function acquireLock(path: string, what: string): Promise<Lock> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, "wx", 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return { release: () => rm(path, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new UsageError(`another shipctl run (pid ${owner}) is working on ${what}`, {
          hint: `Wait for it to finish. If no such run exists, delete ${path}.`,
        });
      }
      await rm(path, { force: true });
    }
  }
  throw new UsageError(`could not lock ${what} (${path})`);
}
