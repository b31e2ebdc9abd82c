// One run at a time per ledger and per input: two runs of the same rows at once would both send what neither
// has recorded. A lock is a file naming its holder (pid, host, command line, start time), so a refused run can say
// which run holds it.
//
// It is taken with an exclusive create (O_EXCL: the open fails when the path exists), which every file system a
// ledger may sit on supports; hard links, which locks used before, are refused by FAT32 and exFAT USB sticks and by
// some network shares. The holder is written just after the create, so a lock is empty for a moment: an empty or
// unreadable lock counts as held, and is looked at again for a short while before it is reported, so no run takes
// the lock of a run still writing its holder. The holder is JSON, which a half-written file never parses as.
//
// Only a lock whose holder is a dead process on this host is stale; a lock from another host (a ledger on a shared
// drive) cannot be judged and counts as held, and one that names no one (written by hand, or left by a run killed
// between its create and its write) is never taken over: the message says to delete it. Taking over a stale lock is
// exclusive too: only the run that creates the takeover file for that holder may remove its lock (takeOver below), so
// of two runs that both found it stale, one never removes the lock the other has taken meanwhile.
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { CliError, LockFileError, UsageError } from "../errors.js";
import { aliveHere } from "./holder.js";
import type { Exclusion, ExclusionWait } from "./store.js";

/** How long an empty or unreadable lock is waited for before it is reported. */
const UNREADABLE_WAIT_MS = 1000;
/**
 * How long another run's takeover of a stale lock is waited for: a read and a removal, far shorter even on a loaded
 * machine; only a run killed midway leaves its takeover file, which is then named.
 */
const TAKEOVER_WAIT_MS = 5000;
const RETRY_MS = 50;
/** How often a lock held by a live run is looked at again while waiting for it. */
const WAIT_RETRY_MS = 100;

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  started: string;
}

/** Whether the run holding a lock may be alive: a lock of another host cannot be judged, and counts as held. */
function mayBeAlive(h: LockHolder): boolean {
  return aliveHere({ machine: h.host, pid: h.pid }) !== false;
}

function me(): LockHolder {
  return { pid: process.pid, host: hostname(), command: ["shipctl", ...process.argv.slice(2)].join(" "), started: new Date().toISOString() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The holder recorded in a lock file: "gone" when there is no file, undefined when it names no one readable. */
async function holderOf(path: string): Promise<LockHolder | "gone" | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder> | null;
    if (Number.isInteger(h?.pid) && typeof h?.host === "string") {
      return { pid: h.pid!, host: h.host, command: String(h.command ?? "a shipctl run"), started: String(h.started ?? "") };
    }
  } catch {
    // empty, half-written or not JSON: handled as unreadable
  }
  return undefined;
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.started === b.started;
}

/** Creates `path` holding `text`, unless it exists (false). A failed write removes the file: empty, it would block every later run. */
async function createExclusive(path: string, text: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    await file.writeFile(text);
    await file.close();
  } catch (e) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true }).catch(() => undefined);
    throw e;
  }
  return true;
}

/**
 * Removes the lock at `path` if `stale` still holds it. Only the run that creates `<path>.<pid>.takeover` may: it
 * reads the lock again while no other run can remove it, so it never removes a lock a run has taken since. False
 * when another run is taking it over.
 */
async function takeOver(path: string, stale: LockHolder): Promise<boolean> {
  const claim = `${path}.${stale.pid}.takeover`;
  if (!(await createExclusive(claim, JSON.stringify(me())))) return false;
  try {
    const again = await holderOf(path);
    if (again !== "gone" && again !== undefined && sameHolder(again, stale)) await rm(path, { force: true });
    return true;
  } finally {
    await rm(claim, { force: true });
  }
}

/** "pid 4242, `shipctl shipment create --csv a.csv`, started 14:02:11 UTC" */
export function describeHolder(h: LockHolder): string {
  const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on ${h.host}`;
  const when = h.started ? `, started ${h.started.replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : "";
  return `${where}, \`${h.command}\`${when}`;
}

/**
 * Takes the lock at `path` for `what` (said in messages: "the ledger x", "this file"), or refuses with a UsageError
 * naming the run that holds it; with `wait`, only once that run has held it for `wait.ms` more. A lock file that
 * cannot be created or written (a read-only folder, a full disk) is a LockFileError naming it.
 */
export async function acquireLock(path: string, what: string, wait?: ExclusionWait): Promise<Exclusion> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const mine = JSON.stringify(me());
    const started = Date.now();
    let waiting = false;
    for (;;) {
      if (await createExclusive(path, mine)) return { release: () => rm(path, { force: true }) };
      const holder = await holderOf(path);
      if (holder === "gone") continue;
      if (holder === undefined) {
        if (Date.now() - started >= UNREADABLE_WAIT_MS) throw unnamedHolder(path, what);
        await sleep(RETRY_MS);
        continue;
      }
      if (mayBeAlive(holder)) {
        if (wait && Date.now() - started < wait.ms) {
          if (!waiting) wait.say(describeHolder(holder));
          waiting = true;
          await sleep(WAIT_RETRY_MS);
          continue;
        }
        throw heldBy(holder, path, what, waiting ? wait!.ms : undefined);
      }
      // A killed run's lock. Another run taking it over is given a moment; a takeover file left behind is named.
      if (await takeOver(path, holder)) continue;
      if (Date.now() - started >= TAKEOVER_WAIT_MS) throw stuckTakeover(path, `${path}.${holder.pid}.takeover`, what);
      await sleep(RETRY_MS);
    }
  } catch (e) {
    if (e instanceof CliError || typeof (e as NodeJS.ErrnoException).code !== "string") throw e;
    throw new LockFileError(path, what, e);
  }
}

function unnamedHolder(path: string, what: string): UsageError {
  return new UsageError(`another shipctl run may be working on ${what}: its lock ${path} names no process`, {
    hint: `Wait for it to finish. If no shipctl run is working on it, delete ${path}.`,
  });
}

function stuckTakeover(path: string, claim: string, what: string): UsageError {
  return new UsageError(`another shipctl run is taking over the lock of a stopped run on ${what}, or stopped while doing so`, {
    hint: `Run again in a moment. If no shipctl run is working on it, delete ${claim} and ${path}.`,
  });
}

function heldBy(holder: LockHolder, path: string, what: string, waitedMs?: number): UsageError {
  return new UsageError(`another shipctl run is working on ${what} (${describeHolder(holder)})${waitedMs !== undefined ? `; waited ${waitedMs / 1000} s for it` : ""}`, {
    hint: `Wait for it to finish, then run again. If no such run exists, delete ${path}.`,
  });
}

/**
 * Refuses as acquireLock would when a live run holds the lock, without taking it (a dry run writes nothing): a
 * rehearsal during the run it rehearses would read a ledger still being written.
 */
export async function refuseIfLocked(path: string, what: string): Promise<void> {
  const holder = await holderOf(path);
  if (holder === "gone") return;
  if (holder === undefined) throw unnamedHolder(path, what);
  if (mayBeAlive(holder)) throw heldBy(holder, path, what);
}
