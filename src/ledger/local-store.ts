// The ledger's local store: files in one folder of the state folder, every operation O(1) in the ledger's size, so a
// run costs the same against an empty ledger and against one of 100,000 entries (npm run bench, ledger.mjs).
//   entries/<ab>/<hash>.json   a settled entry (created with its id, stored, paid, failed)
//   in-flight/<hash>.json      an entry in flight: the claim, created exclusively (O_EXCL), removed once settled
//   locks/<hash>.lock          exclusion of an input (or a key) against other runs on this machine (lock.ts)
// <hash> is the SHA-256 of the key in hex (case-insensitive file systems fold base64); <ab> its first two digits,
// so no folder holds more than a few hundred files per 100,000 entries.
//
// Why files and not SQLite: better-sqlite3 is a native addon whose Windows and macOS binaries are downloaded at install
// (impossible offline, and under the Windows CI stage), and node:sqlite needs Node 22.5 where we support 20.19. An
// exclusive create is the "insert if absent" a database's unique key gives, on every file system (hard links are not
// everywhere), and it needs no lock held across the ledger: runs of other inputs never wait for each other.
//
// Why synchronous calls, and no flush per key: a batch makes a few file operations per row, each a few microseconds of
// page-cache work, and through the thread pool each cost a round trip several times that; with a flush per claim and a
// rename per update, a 2,000-row batch took 5.4 times as long as the journal this store replaced (bench/batch.mjs).
// A claim is made before its input's record is flushed (InputLedger.record), and that one flush per request is the
// intent's durability. A kill keeps every claim (the page cache outlives the process). A power cut may lose a claim
// the file system had not written with that flush (ext4 in its default mode commits them together; not every file
// system does): the input's own record still holds the intent, and its rerun settles it before sending anything.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { isHeld } from "../fs/held-file.js";
import type { RowState } from "./entry.js";
import { acquireLock, refuseIfLocked } from "./lock.js";
import type { Claim, Entry, Exclusion, ExclusionWait, LedgerStore, Refused } from "./store.js";

/**
 * A claim file still empty this long after its creation was left by a run killed between creating and writing it
 * (before sending: a claim is written before its request may leave); a live run writes it at once.
 */
const EMPTY_CLAIM_STALE_MS = 2_000;
const EMPTY_CLAIM_RETRY_MS = 50;

function hashOf(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 40);
}

export class LocalStore implements LedgerStore {
  /** Folders of entries known to exist: made once per run, not once per entry. */
  private readonly made = new Set<string>();
  /** Each key's hash, once: a row's key is looked up four or five times in a run. */
  private readonly hashes = new Map<string, string>();

  constructor(readonly where: string) {}

  private hash(key: string): string {
    let h = this.hashes.get(key);
    if (h === undefined) this.hashes.set(key, (h = hashOf(key)));
    return h;
  }

  private entryPath(key: string): string {
    const h = this.hash(key);
    return join(this.where, "entries", h.slice(0, 2), `${h}.json`);
  }

  private claimPath(key: string): string {
    return join(this.where, "in-flight", `${this.hash(key)}.json`);
  }

  async claim(claims: readonly Claim[]): Promise<Refused[]> {
    if (claims.length === 0) return [];
    this.folder(join(this.where, "in-flight"));
    const refused: Refused[] = [];
    for (const c of claims) {
      const r = await this.claimOne(c);
      if (r !== undefined) refused.push(r);
    }
    return refused;
  }

  private async claimOne(c: Claim): Promise<Refused | undefined> {
    const path = this.claimPath(c.key);
    const text = JSON.stringify({ key: c.key, input: c.input, state: c.state });
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const held = readEntry(path);
      if (held === undefined) {
        // Empty: left by a run killed between creating and writing it, or (another process) being written.
        if (await staleEmptyClaim(path)) remove(path);
        else await new Promise((r) => setTimeout(r, EMPTY_CLAIM_RETRY_MS));
        return this.claimOne(c);
      }
      // The input's own claim (a request sent again in the same run, once proven not applied): its run holds the input.
      if (held.input === c.input) {
        rewriteClaim(path, text);
        return undefined;
      }
      return { key: c.key, entry: held };
    }
    try {
      const settled = readEntry(this.entryPath(c.key));
      if (settled !== undefined && !replaceable(settled.state, c.over ?? "failed")) {
        closeSync(fd);
        remove(path);
        return { key: c.key, entry: settled };
      }
      writeAll(fd, text);
      closeSync(fd);
      return undefined;
    } catch (e) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      remove(path);
      throw e;
    }
  }

  async record(entries: readonly Entry[], o: { durable?: boolean } = {}): Promise<void> {
    const durable = o.durable ?? true;
    for (const e of entries) {
      if (e.state.state === "in_flight") {
        // A claim's settle time, once its request's last byte left: the claim is rewritten, still exclusive.
        rewriteClaim(this.claimPath(e.key), JSON.stringify(e));
        continue;
      }
      const path = this.entryPath(e.key);
      this.folder(dirname(path));
      const text = JSON.stringify(e);
      // A key's first entry is created in place (a kill before its write leaves it empty, read as none, and the claim
      // still there); an entry already there is replaced whole.
      if (durable || !createWith(path, text)) await replace(path, text, durable);
      // Settled: no longer in flight. Removed after the outcome is written, so a crash in between leaves it in
      // flight (settled again by the next run), never neither.
      remove(this.claimPath(e.key));
    }
  }

  async find(key: string): Promise<Entry | undefined> {
    return readEntry(this.claimPath(key)) ?? readEntry(this.entryPath(key));
  }

  async inFlight(): Promise<Entry[]> {
    let names: string[];
    try {
      names = await readdir(join(this.where, "in-flight"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    const out: Entry[] = [];
    for (const name of names.filter((n) => n.endsWith(".json") && !n.startsWith("."))) {
      const path = join(this.where, "in-flight", name);
      const entry = readEntry(path);
      if (entry !== undefined) out.push(entry);
      else if (await staleEmptyClaim(path)) remove(path);
    }
    return out;
  }

  exclude(scope: string, what: string, wait?: ExclusionWait): Promise<Exclusion> {
    return acquireLock(this.lockPath(scope), what, wait);
  }

  refuseIfExcluded(scope: string, what: string): Promise<void> {
    return refuseIfLocked([{ path: this.lockPath(scope), what }]);
  }

  /** The lock file of `scope` (an input, or a key) while a run holds it. */
  lockPath(scope: string): string {
    return join(this.where, "locks", `${hashOf(scope)}.lock`);
  }

  private folder(dir: string): void {
    if (this.made.has(dir)) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.made.add(dir);
  }
}

function replaceable(state: RowState, over: "failed" | "settled"): boolean {
  if (state.state === "in_flight") return false;
  return over === "settled" || state.state === "failed";
}

/** An entry's file; undefined when there is none, or it is still being written (an empty claim). */
function readEntry(path: string): Entry | undefined {
  // Most keys have no entry: a stat that says so costs less than the error a read would throw.
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  if (text.trim() === "") return undefined;
  return JSON.parse(text) as Entry;
}

/**
 * Rewrites a claim where it is, not by renaming a new file over it: ext4 starts writing a file renamed over another to
 * disk at once (its guard for programs that replace files without flushing), and removing the claim a moment later,
 * when its outcome is recorded, then waits for that write: 3 ms a claim here, most of a batch's time. One write of the
 * whole text, padded with spaces to the old length (JSON ignores them), so a kill leaves the old claim or the new one.
 */
function rewriteClaim(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    fd = openSync(path, "wx", 0o600);
  }
  try {
    const bytes = Buffer.from(text, "utf8");
    const old = fstatSync(fd).size;
    writeAll(fd, old > bytes.length ? Buffer.concat([bytes, Buffer.alloc(old - bytes.length, " ")]) : bytes, 0);
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` with `text` unless it exists (then false). */
function createWith(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Tells this process's temporary files apart. */
let temporaries = 0;

/**
 * Replaces `path` with `text`, atomically (a temporary file renamed over it). Flushed only when `durable`; otherwise
 * done at once, synchronously, unless the file is held (Windows: an antivirus scanner), when writeFileAtomic waits.
 */
async function replace(path: string, text: string, durable: boolean): Promise<void> {
  if (durable) return writeFileAtomic(path, text);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++temporaries}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    remove(tmp);
    if (!isHeld(e)) throw e;
    await writeFileAtomic(path, text, { sync: false });
  }
}

/** Writes all of `data` (at `position`, or where the file is). */
function writeAll(fd: number, data: string | Buffer, position?: number): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, position === undefined ? null : position + at);
}

/** Removes a file that may already be gone. */
function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/**
 * A claim is written before its request may leave, so one left empty long after its creation was never sent: its run
 * was killed while claiming.
 */
async function staleEmptyClaim(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.size === 0 && Date.now() - info.mtimeMs > EMPTY_CLAIM_STALE_MS;
  } catch {
    return false;
  }
}
