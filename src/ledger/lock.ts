// One run per journal at a time: two runs of the same CSV at once would both send the rows neither has recorded.
// The lock is a file holding the owner's pid. It is taken atomically: the pid is written to a private temp file
// first, which is then hard-linked to the lock path (link() fails if the path exists), so no other run can ever see
// a lock file without its pid. Only a lock naming a dead process is stale and taken over; an unreadable or empty one
// (written by hand, or by an older shipctl between its create and its write) counts as held for a short while, so
// two runs never both decide it is stale at the same moment.
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { UsageError } from "../errors.js";

/** How long an empty or unreadable lock is waited for before it is reported as held. */
const UNREADABLE_WAIT_MS = 1000;
const RETRY_MS = 50;

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

/** The pid recorded in a lock file, or undefined when the file is gone, empty or unreadable. */
async function ownerOf(path: string): Promise<number | "gone" | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    return undefined;
  }
  const pid = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function tryLink(temp: string, path: string): Promise<boolean> {
  try {
    await link(temp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}

export async function acquireLock(path: string, what: string): Promise<Lock> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, String(process.pid), { mode: 0o600, flag: "wx" });
  try {
    const started = Date.now();
    for (let takeovers = 0; takeovers < 3; ) {
      if (await tryLink(temp, path)) return { release: () => rm(path, { force: true }) };
      const owner = await ownerOf(path);
      if (owner === "gone") continue;
      if (owner === undefined) {
        if (Date.now() - started < UNREADABLE_WAIT_MS) {
          await new Promise((r) => setTimeout(r, RETRY_MS));
          continue;
        }
        throw new UsageError(`another shipctl run may be working on ${what}: its lock ${path} names no process`, {
          hint: `Wait for it to finish. If no shipctl run is working on it, delete ${path}.`,
        });
      }
      if (alive(owner)) {
        throw new UsageError(`another shipctl run (pid ${owner}) is working on ${what}`, {
          hint: `Wait for it to finish. If no such run exists, delete ${path}.`,
        });
      }
      // A killed run's lock. Re-read just before removing it, so a lock another run took over meanwhile is kept.
      takeovers++;
      if ((await ownerOf(path)) === owner) await rm(path, { force: true });
    }
    throw new UsageError(`could not lock ${what} (${path})`);
  } finally {
    await rm(temp, { force: true });
  }
}
