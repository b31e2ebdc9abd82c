// The ledger's local store: files in one folder of the state folder, every operation O(1) in the ledger's size, so a
// run costs the same against an empty ledger and against one of 100,000 entries (npm run bench, ledger.mjs).
//   entries/<ab>/<hash>.json   a settled entry (created with its id, stored, paid, failed), rewritten atomically
//   in-flight/<hash>.json      an entry in flight: the claim, created exclusively (O_EXCL), removed once settled
//   locks/<hash>.lock          exclusion of an input (or a key) against other runs on this machine (lock.ts)
// <hash> is the SHA-256 of the key in hex (case-insensitive file systems fold base64); <ab> its first two digits,
// so no folder holds more than a few hundred files per 100,000 entries.
//
// Why files and not SQLite: better-sqlite3 is a native addon whose Windows and macOS binaries are downloaded at install
// (impossible offline, and under the Windows CI stage), and node:sqlite needs Node 22.5 where we support 20.19. An
// exclusive create is the "insert if absent" a database's unique key gives, on every file system (hard links are not
// everywhere), and it needs no lock held across the ledger: runs of other inputs never wait for each other.
import { createHash } from "node:crypto";
import { mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { syncDirectory, writeFileAtomic } from "../fs/atomic-file.js";
import type { RowState } from "./entry.js";
import { acquireLock, refuseIfLocked } from "./lock.js";
import type { Claim, Entry, Exclusion, ExclusionWait, LedgerStore, Refused } from "./store.js";

/**
 * A claim file still empty this long after its creation was left by a run killed while claiming (before sending: a
 * claim is written and flushed before its request may leave); a live run writes it within milliseconds.
 */
const EMPTY_CLAIM_STALE_MS = 2_000;
const EMPTY_CLAIM_RETRY_MS = 50;

function hashOf(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 40);
}

export class LocalStore implements LedgerStore {
  constructor(readonly where: string) {}

  private entryPath(key: string): string {
    const h = hashOf(key);
    return join(this.where, "entries", h.slice(0, 2), `${h}.json`);
  }

  private claimPath(key: string): string {
    return join(this.where, "in-flight", `${hashOf(key)}.json`);
  }

  async claim(claims: readonly Claim[]): Promise<Refused[]> {
    if (claims.length === 0) return [];
    await mkdir(join(this.where, "in-flight"), { recursive: true, mode: 0o700 });
    const refused = (await Promise.all(claims.map((c) => this.claimOne(c)))).filter((r): r is Refused => r !== undefined);
    // The claim files' names must survive a crash as their content does.
    await syncDirectory(join(this.where, "in-flight"));
    return refused;
  }

  private async claimOne(c: Claim): Promise<Refused | undefined> {
    const path = this.claimPath(c.key);
    let handle;
    try {
      handle = await open(path, "wx", 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const held = await this.readClaim(c.key);
      if (held === undefined) {
        // Empty: a claim being written, or left by a run killed while claiming.
        if (await staleEmptyClaim(path)) await rm(path, { force: true });
        else await new Promise((r) => setTimeout(r, EMPTY_CLAIM_RETRY_MS));
        return this.claimOne(c);
      }
      // The input's own claim (a request sent again in the same run, once proven not applied): its run holds the input.
      if (held?.input === c.input) {
        await writeFileAtomic(path, JSON.stringify({ key: c.key, input: c.input, state: c.state }));
        return undefined;
      }
      return { key: c.key, entry: held };
    }
    try {
      const settled = await this.readSettled(c.key);
      if (settled !== undefined && !replaceable(settled.state, c.over ?? "failed")) {
        await handle.close();
        handle = undefined;
        await rm(path, { force: true });
        return { key: c.key, entry: settled };
      }
      const entry: Entry = { key: c.key, input: c.input, state: c.state };
      await handle.writeFile(JSON.stringify(entry));
      await handle.datasync();
      return undefined;
    } catch (e) {
      await handle?.close();
      handle = undefined;
      await rm(path, { force: true });
      throw e;
    } finally {
      await handle?.close();
    }
  }

  async record(entries: readonly Entry[], o: { durable?: boolean } = {}): Promise<void> {
    const durable = o.durable ?? true;
    await Promise.all(
      entries.map(async (e) => {
        if (e.state.state === "in_flight") {
          // A claim's settle time, once its request's last byte left: the claim is rewritten, still exclusive.
          await writeFileAtomic(this.claimPath(e.key), JSON.stringify(e), { sync: durable });
          return;
        }
        const path = this.entryPath(e.key);
        await mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
        await writeFileAtomic(path, JSON.stringify(e), { sync: durable });
        // Settled: no longer in flight. Removed after the outcome is written, so a crash in between leaves it in
        // flight (settled again by the next run), never neither.
        await rm(this.claimPath(e.key), { force: true });
      }),
    );
  }

  async find(key: string): Promise<Entry | undefined> {
    return (await this.readClaim(key)) ?? (await this.readSettled(key));
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
      const entry = await readEntry(path);
      if (entry !== undefined) out.push(entry);
      else if (await staleEmptyClaim(path)) await rm(path, { force: true });
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

  private readClaim(key: string): Promise<Entry | undefined> {
    return readEntry(this.claimPath(key));
  }

  private readSettled(key: string): Promise<Entry | undefined> {
    return readEntry(this.entryPath(key));
  }
}

function replaceable(state: RowState, over: "failed" | "settled"): boolean {
  if (state.state === "in_flight") return false;
  return over === "settled" || state.state === "failed";
}

/** An entry's file; undefined when there is none, or it is still being written (an empty claim). */
async function readEntry(path: string): Promise<Entry | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  if (text.trim() === "") return undefined;
  return JSON.parse(text) as Entry;
}

/**
 * A claim is written and flushed before its request may leave, so one left empty long after its creation was never
 * sent: its run was killed while claiming.
 */
async function staleEmptyClaim(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.size === 0 && Date.now() - info.mtimeMs > EMPTY_CLAIM_STALE_MS;
  } catch {
    return false;
  }
}
