// The ledger's local store: files in one folder of the state folder, every operation O(1) in the ledger's size, so a
// run costs the same against an empty ledger and against one of 100,000 entries (npm run bench, ledger.mjs).
//   entries/<abc>.jsonl        settled entries (created with its id, stored, paid, failed), appended: a key's last
//                              line is its entry
//   in-flight/<hash>.json      an entry in flight: the claim, created exclusively (O_EXCL), removed once settled
//   locks/<hash>.lock          exclusion of an input (or a key) against other runs on this machine (lock.ts)
// <hash> is the SHA-256 of the key in hex (case-insensitive file systems fold base64); <abc> its first three digits, so
// a bucket holds about 25 entries (2.5 KB) per 100,000, read whole to find one key. With two digits (256 buckets of
// 100 KB at 100,000 entries) every row's lookup and claim read 100 KB: a 10,000-row create took 11.7 s against such a
// ledger and 6.5 s against an empty one (1.8x); with three, 6.0-6.6 s against 6.0-6.4 s (ledger.mjs measures both).
//
// Why files and not SQLite: better-sqlite3 is a native addon whose Windows and macOS binaries are downloaded at install
// (impossible offline, and under the Windows CI stage), and node:sqlite needs Node 22.5 where we support 20.19. An
// exclusive create is the "insert if absent" a database's unique key gives, on every file system (hard links are not
// everywhere), and it needs no lock held across the ledger: runs of other inputs never wait for each other.
//
// Why settled entries are appended to bucket files, not one file each: a file created per settled entry cost 150 to
// 340 µs a row here (a new inode and directory entry each), against 60 µs for a claim, an append and the claim's
// removal; the batch's send phase went from 0.51x to 0.71x the stack floor's (bench/batch.mjs, Node 20, measured with
// 256 buckets). Appends need no lock: only the run holding a key's claim writes its line, and a later claim of the key
// comes after the claim is removed, so its line comes after too.
//
// Why synchronous calls, and no flush per key: a batch makes a few file operations per row, each a few microseconds of
// page-cache work, and through the thread pool each cost a round trip several times that; with a flush per claim and a
// rename per update, a 2,000-row batch took 5.4 times as long as before the ledger (bench/batch.mjs).
// A claim is made before its input's record is flushed (InputLedger.record), and that one flush per request is the
// intent's durability. A kill keeps every claim (the page cache outlives the process). A power cut may lose a claim
// the file system had not written with that flush (ext4 in its default mode commits them together; not every file
// system does): the input's own record still holds the intent, and its rerun settles it before sending anything.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { appendEntries, entriesIn, lastEntryIn, readEntry, readIfThere, remove, rewriteClaim, staleEmptyClaim, writeAll } from "./entry-files.js";
import { hexHash, remembered, type RowState } from "./entry.js";
import { acquireLock, refuseIfLocked } from "./lock.js";
import type { Claim, Entry, Exclusion, ExclusionWait, LedgerStore, Refused } from "./store.js";

const EMPTY_CLAIM_RETRY_MS = 50;
/** A bucket file is named by this many hex digits of its keys' hash: 4,096 buckets (see the top of this file). */
const BUCKET_DIGITS = 3;
export class LocalStore implements LedgerStore {
  /** Folders of entries known to exist: made once per run, not once per entry. */
  private readonly made = new Set<string>();
  /** Each key's hash, once: a row's key is looked up four or five times in a run, close together. */
  private readonly hash = remembered((key) => hexHash(key, 40));
  /** Bucket files this run has seen: read without asking first whether they are there (a bucket is never removed). */
  private readonly buckets = new Set<string>();

  constructor(readonly where: string) {}

  private bucketPath(key: string): string {
    return join(this.where, "entries", `${this.hash(key).slice(0, BUCKET_DIGITS)}.jsonl`);
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
      const settled = this.settledEntry(c.key);
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
    const buckets = new Map<string, Entry[]>();
    for (const e of entries) {
      if (e.state.state === "in_flight") {
        // A claim's settle time, once its request's last byte left: the claim is rewritten, still exclusive.
        rewriteClaim(this.claimPath(e.key), JSON.stringify(e));
        continue;
      }
      const path = this.bucketPath(e.key);
      const bucket = buckets.get(path);
      if (bucket) bucket.push(e);
      else buckets.set(path, [e]);
    }
    if (buckets.size === 0) return;
    this.folder(join(this.where, "entries"));
    for (const [path, settled] of buckets) {
      appendEntries(path, settled, o.durable ?? true);
      this.buckets.add(path);
      // Settled: no longer in flight. Removed after the outcome is written, so a crash in between leaves it in
      // flight (settled again by the next run), never neither.
      for (const e of settled) remove(this.claimPath(e.key));
    }
  }

  async find(key: string): Promise<Entry | undefined> {
    return readEntry(this.claimPath(key)) ?? this.settledEntry(key);
  }

  /**
   * Each folder listed once and each bucket read once, instead of two lookups a key: for a new ledger, nothing is
   * read. Looked up a key at a time, 10,000 rows took about 100 ms before a create's first request.
   */
  async findAll(keys: readonly string[]): Promise<Map<string, Entry>> {
    const out = new Map<string, Entry>();
    if (keys.length === 0) return out;
    const [claims, buckets] = await Promise.all([namesIn(join(this.where, "in-flight")), namesIn(join(this.where, "entries"))]);
    const byBucket = new Map<string, string[]>();
    for (const key of keys) {
      const hash = this.hash(key);
      const claim = claims.has(`${hash}.json`) ? readEntry(this.claimPath(key)) : undefined;
      if (claim !== undefined) {
        out.set(key, claim);
        continue;
      }
      const bucket = `${hash.slice(0, BUCKET_DIGITS)}.jsonl`;
      if (!buckets.has(bucket)) continue;
      const list = byBucket.get(bucket);
      if (list) list.push(key);
      else byBucket.set(bucket, [key]);
    }
    for (const [bucket, list] of byBucket) {
      const path = join(this.where, "entries", bucket);
      const text = readIfThere(path, true);
      if (text === undefined) continue;
      this.buckets.add(path);
      for (const key of list) {
        const entry = lastEntryIn(text, key);
        if (entry !== undefined) out.set(key, entry);
      }
    }
    return out;
  }

  private settledEntry(key: string): Entry | undefined {
    const path = this.bucketPath(key);
    const text = readIfThere(path, this.buckets.has(path));
    if (text === undefined) return undefined;
    this.buckets.add(path);
    return lastEntryIn(text, key);
  }

  async inFlight(): Promise<Entry[]> {
    const out: Entry[] = [];
    for (const name of [...(await namesIn(join(this.where, "in-flight")))].filter((n) => n.endsWith(".json") && !n.startsWith("."))) {
      const path = join(this.where, "in-flight", name);
      const entry = readEntry(path);
      if (entry !== undefined) out.push(entry);
      else if (await staleEmptyClaim(path)) remove(path);
    }
    return out;
  }

  /** Every settled entry, bucket by bucket (`ledger push`, and witnesses below). */
  async *settled(): AsyncGenerator<Entry[]> {
    const root = join(this.where, "entries");
    for (const name of [...(await namesIn(root))].filter((n) => n.endsWith(".jsonl"))) {
      yield entriesIn(join(root, name));
    }
  }

  /**
   * Up to `n` shipments or addresses this ledger recorded as created (a bucket or two read, not the ledger): what a
   * token whose organization is in doubt is asked to see (organization.ts).
   */
  async witnesses(n: number): Promise<Array<{ kind: "shipment" | "address"; id: number }>> {
    const out: Array<{ kind: "shipment" | "address"; id: number }> = [];
    for await (const bucket of this.settled()) {
      for (const entry of bucket) {
        const witness = witnessOf(entry);
        if (witness !== undefined) out.push(witness);
        if (out.length >= n) return out;
      }
    }
    return out;
  }

  exclude(scope: string, what: string, wait?: ExclusionWait): Promise<Exclusion> {
    return acquireLock(this.lockPath(scope), what, wait);
  }

  refuseIfExcluded(scope: string, what: string): Promise<void> {
    return refuseIfLocked(this.lockPath(scope), what);
  }

  /** The lock file of `scope` (an input, or a key) while a run holds it. */
  lockPath(scope: string): string {
    return join(this.where, "locks", `${hexHash(scope, 40)}.lock`);
  }

  private folder(dir: string): void {
    if (this.made.has(dir)) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.made.add(dir);
  }
}

/** The names in a folder; none when it does not exist yet. */
async function namesIn(dir: string): Promise<Set<string>> {
  try {
    return new Set(await readdir(dir));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return new Set();
    throw e;
  }
}

/** A created (or updated) shipment or address an entry names by id. */
function witnessOf(entry: Entry): { kind: "shipment" | "address"; id: number } | undefined {
  const s = entry.state;
  const kind = (["shipment", "address"] as const).find((k) => entry.key.startsWith(k));
  return kind !== undefined && (s.state === "created" || s.state === "updated") ? { kind, id: s.id } : undefined;
}

function replaceable(state: RowState, over: "failed" | "settled"): boolean {
  if (state.state === "in_flight") return false;
  return over === "settled" || state.state === "failed";
}
