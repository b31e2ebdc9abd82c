// One run at a time per input (store.ts exclude): two runs of the same rows at once would both send what neither
// has recorded. A lock is a file naming its holder (pid, host, command line, start time), so a refused run can say
// which run holds it. It is taken by an exclusive create (O_EXCL, which works on every file system, where hard links
// do not) with its holder written at once; a lock seen empty for a moment is one being written (see below).
// Only a lock whose holder is a dead process on this host is stale and taken over; a lock from another host (a
// ledger on a shared drive) cannot be judged and counts as held, and an unreadable or empty one (written by hand)
// counts as held for a short while, so two runs never both decide it is stale at the same moment.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { UsageError } from "../errors.js";

/** How long an empty or unreadable lock is waited for before it is reported as held. */
const UNREADABLE_WAIT_MS = 1000;
const RETRY_MS = 50;
/** How often a lock held by a live run is looked at again while waiting for it. */
const WAIT_RETRY_MS = 100;

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  started: string;
}

export interface Lock {
  release(): Promise<void>;
}

/** Waiting for a lock held by a live run, instead of refusing at once (a checkout started twice by a script). */
export interface LockWait {
  ms: number;
  /** Told once, when the wait begins: names the run that holds the lock. */
  say(holder: string): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function me(): LockHolder {
  return { pid: process.pid, host: hostname(), command: ["shipctl", ...process.argv.slice(2)].join(" "), started: new Date().toISOString() };
}

/** The holder recorded in a lock file: "gone" when there is no file, undefined when it names no one readable. */
async function holderOf(path: string): Promise<LockHolder | "gone" | undefined> {
  let text: string;
  try {
    text = (await readFile(path, "utf8")).trim();
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isInteger(h.pid) && typeof h.host === "string") {
      return { pid: h.pid!, host: h.host, command: String(h.command ?? "a shipctl run"), started: String(h.started ?? "") };
    }
  } catch {
    // not JSON: handled as unreadable
  }
  return undefined;
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    await writeFile(path, JSON.stringify(me()), { mode: 0o600, flag: "wx" });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}

/** "pid 4242, `shipctl shipment create --csv a.csv`, started 14:02:11 UTC" */
export function describeHolder(h: LockHolder): string {
  const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on ${h.host}`;
  const when = h.started ? `, started ${h.started.replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : "";
  return `${where}, \`${h.command}\`${when}`;
}

/**
 * Takes the lock at `path` for `what` (said in messages: "orders.csv", "checkout"), or refuses with a UsageError
 * naming the run that holds it; with `wait`, only once that run has held it for `wait.ms` more.
 */
export async function acquireLock(path: string, what: string, wait?: LockWait): Promise<Lock> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  {
    const started = Date.now();
    let waiting = false;
    for (let takeovers = 0; takeovers < 3; ) {
      if (await tryCreate(path)) return { release: () => rm(path, { force: true }) };
      const holder = await holderOf(path);
      if (holder === "gone") continue;
      if (holder === undefined) {
        if (Date.now() - started < UNREADABLE_WAIT_MS) {
          await new Promise((r) => setTimeout(r, RETRY_MS));
          continue;
        }
        throw unnamedHolder(path, what);
      }
      if (holder.host !== hostname() || alive(holder.pid)) {
        if (wait && Date.now() - started < wait.ms) {
          if (!waiting) wait.say(describeHolder(holder));
          waiting = true;
          await new Promise((r) => setTimeout(r, WAIT_RETRY_MS));
          continue;
        }
        throw heldBy(holder, path, what, waiting ? wait!.ms : undefined);
      }
      // A killed run's lock. Re-read just before removing it, so a lock another run took over meanwhile is kept.
      takeovers++;
      const again = await holderOf(path);
      if (again !== "gone" && again !== undefined && again.pid === holder.pid && again.host === holder.host) await rm(path, { force: true });
    }
    throw new UsageError(`could not lock ${what} (${path})`);
  }
}

function unnamedHolder(path: string, what: string): UsageError {
  return new UsageError(`another shipctl run may be working on ${what}: its lock ${path} names no process`, {
    hint: `Wait for it to finish. If no shipctl run is working on it, delete ${path}.`,
  });
}

function heldBy(holder: LockHolder, path: string, what: string, waitedMs?: number): UsageError {
  return new UsageError(`another shipctl run is working on ${what} (${describeHolder(holder)})${waitedMs !== undefined ? `; waited ${waitedMs / 1000} s for it` : ""}`, {
    hint: `Wait for it to finish, then run again. If no such run exists, delete ${path}.`,
  });
}

/**
 * Refuses as acquireLocks would when a live run holds one of these locks, without taking any (a dry run writes
 * nothing): a rehearsal during the run it rehearses would read a record still being written.
 */
export async function refuseIfLocked(locks: ReadonlyArray<{ path: string; what: string }>): Promise<void> {
  for (const l of [...locks].sort((a, b) => a.path.localeCompare(b.path))) {
    const holder = await holderOf(l.path);
    if (holder === "gone") continue;
    if (holder === undefined) throw unnamedHolder(l.path, l.what);
    if (holder.host !== hostname() || alive(holder.pid)) throw heldBy(holder, l.path, l.what);
  }
}

/** Takes every lock or none: on a refusal, the ones already taken are released. */
export async function acquireLocks(locks: ReadonlyArray<{ path: string; what: string }>, wait?: LockWait): Promise<Lock> {
  const taken: Lock[] = [];
  try {
    // A fixed order, so two runs needing the same locks never each hold one the other waits for.
    for (const l of [...locks].sort((a, b) => a.path.localeCompare(b.path))) taken.push(await acquireLock(l.path, l.what, wait));
  } catch (e) {
    await Promise.all(taken.map((t) => t.release()));
    throw e;
  }
  return { release: async () => void (await Promise.all(taken.map((t) => t.release()))) };
}
