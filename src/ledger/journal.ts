// The run journal: how shipctl keeps "exactly once" without an idempotency key from the service. Before a request
// is sent, the rows it carries are recorded as "sending"; after the answer, their ids (or the error). A rerun reads
// it: created rows are skipped, rows whose answer was lost are reconciled before anything is resent.
//
// On disk it is JSON Lines. Each run starts by folding the file into one snapshot written atomically (temp file,
// fsync, rename); during the run, records are appended and flushed (fdatasync) before the request they announce is
// sent. Appending keeps each record O(1): rewriting the whole journal before every request would make a 10,000-row
// run quadratic. A crash can only tear the last line, which is then ignored: if it was a "sending" record its request
// had not been sent yet (we wait for the flush), and if it was an outcome the row stays "sending" and is reconciled.
import { writeSync } from "node:fs";
import { open, readFile, type FileHandle } from "node:fs/promises";
import { createHash } from "node:crypto";
import { CliError } from "../errors.js";
import type { Address } from "../contract/index.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { acquireLock, type Lock } from "./lock.js";
import type { BatchKind } from "../csv/columns.js";

export const JOURNAL_VERSION = 1;

export type RowState =
  /** A request carrying the row was (or was about to be) sent at `at`; its answer is not recorded. */
  | { state: "sending"; at: string; attempt: number }
  | { state: "created"; id: number }
  /** PATCH applied (updates); `hash` is the content sent, so a row edited since is sent again. */
  | { state: "updated"; id: number; hash?: string }
  /** The service certainly did not apply it (422, refused): a rerun sends it again. */
  | { state: "failed"; error: string };

export type Verdict =
  | { status: "valid" }
  | { status: "invalid"; message: string; code?: number }
  | { status: "recommended"; revised: Address; message: string };

export interface JournalTarget {
  baseUrl: string;
  profile: string;
  /**
   * Which organization the records belong to: a truncated SHA-256 of the token (journal-owner.ts), never the token.
   * A profile and URL do not say it: another organization's token, or a restarted in-memory sandbox, reuse both.
   */
  owner?: string;
}

export interface Line {
  t?: string;
  row?: string;
  address?: string;
  target?: string;
  [k: string]: unknown;
}

/**
 * The records of a journal's text, its header first. A crash can tear only the last line, which is left out; any
 * other line that is not JSON goes to `unreadable` (with its line number), and is left out if that returns.
 */
export function journalLines(text: string, unreadable: (lineNo: number) => void): Line[] {
  const raw = text.replace(/\0+$/, "").split("\n");
  while (raw.length > 0 && raw[raw.length - 1]!.trim() === "") raw.pop();
  const out: Line[] = [];
  raw.forEach((line, i) => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null) {
        out.push(value as Line);
        return;
      }
    } catch {
      // handled below
    }
    if (i < raw.length - 1) unreadable(i + 1);
  });
  return out;
}

/** The rows a record is about: one (`row`) or a request's worth (`rows`). */
export function rowKeysOf(line: Line): string[] {
  if (Array.isArray(line.rows)) return line.rows.filter((k): k is string => typeof k === "string");
  return typeof line.row === "string" ? [line.row] : [];
}

export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

export function targetId(target: JournalTarget): string {
  return shortHash(`${target.profile}\n${target.baseUrl.replace(/\/+$/, "")}`).slice(0, 10);
}

export class JournalDamaged extends CliError {}

/** How long noted lines (outcomes) wait for a write that carries them before they are written on their own. */
const NOTE_DELAY_MS = 200;

/**
 * Appends `text` to a file opened for appending, however many writes that takes. Synchronous: appending is a copy
 * into the page cache (a few microseconds), and a write through the thread pool cost a hand-over to a worker thread
 * and back before the fdatasync's own, per request (bench/batch.mjs). Only the fdatasync waits for the disk.
 */
function writeAll(handle: FileHandle, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length; ) at += writeSync(handle.fd, bytes, at, bytes.length - at);
}

/**
 * The lines for some row states: the rows of one request share one line ({"rows": [...], "state": "sending", ...},
 * or "created" with "ids" in the same order), which keeps a 10,000-row run's journal writes small.
 */
function linesFor(tid: string, entries: ReadonlyArray<readonly [string, RowState]>): string[] {
  if (entries.length === 0) return [];
  const first = entries[0]![1];
  const keys = entries.map(([k]) => k);
  if (entries.length > 1 && entries.every(([, s]) => s === first)) return [JSON.stringify({ t: tid, rows: keys, ...first })];
  // Only bare ids can share a line: an update's content hash stays on the row's own line.
  if (entries.length > 1 && (first.state === "created" || first.state === "updated") && entries.every(([, s]) => s.state === first.state && !("hash" in s))) {
    const ids = entries.map(([, s]) => (s as { id: number }).id);
    return [JSON.stringify({ t: tid, rows: keys, state: first.state, ids })];
  }
  return entries.map(([key, state]) => JSON.stringify({ t: tid, row: key, ...state }));
}

export class Journal {
  private readonly rows = new Map<string, RowState>();
  private readonly verdicts = new Map<string, Verdict>();
  /** Lines of other targets (another profile or service), kept as they are. */
  private readonly others: Line[] = [];
  private readonly targets = new Map<string, JournalTarget>();
  private handle: FileHandle | undefined;
  private queue: string[] = [];
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;
  /** Queued lines include noted ones (outcomes), which nothing waits for. */
  private notedQueued = false;
  /** Writes noted lines when no record() comes to carry them (see note()). */
  private noteTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  /** The owner recorded by earlier runs; kept on disk until this run's owner is accepted (see ownerConfirmed). */
  private recordedOwner: string | undefined;
  private ownerAccepted = false;
  /** The owner the last snapshot recorded for this target (close() writes a new snapshot when it changed). */
  private snapshotOwner: string | undefined;
  /** A failed write of note(): every later write fails with it, so nothing is sent without its intent on disk. */
  private failure: unknown;

  private constructor(
    readonly path: string,
    private readonly kind: BatchKind,
    private readonly source: string,
    private readonly target: JournalTarget,
    private readonly tid: string,
    private readonly lock: Lock,
  ) {}

  /** Opens (or creates) the journal at `path`, locked against other runs, and folds it into a fresh snapshot. */
  static async open(path: string, kind: BatchKind, source: string, target: JournalTarget): Promise<Journal> {
    const lock = await acquireLock(`${path}.lock`, `the journal ${path}`);
    try {
      const journal = new Journal(path, kind, source, target, targetId(target), lock);
      await journal.load();
      journal.recordedOwner = journal.targets.get(journal.tid)?.owner;
      journal.ownerAccepted = journal.claimedIds().size === 0 || journal.recordedOwner === target.owner;
      await journal.compact();
      journal.handle = await open(path, "a", 0o600);
      return journal;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /** Whether any row is recorded for this target (a first run needs no row keys before it sends). */
  get hasRows(): boolean {
    return this.rows.size > 0;
  }

  /**
   * Whether the ids recorded for this target can be trusted as this token's: true when nothing is recorded, or when
   * the records were written with the same token. Otherwise they must be checked (journal-owner.ts) and accepted.
   */
  get ownerConfirmed(): boolean {
    return this.ownerAccepted;
  }

  /** The records were checked against the service: they are this token's (a rotated token); record its owner. */
  acceptOwner(): void {
    this.ownerAccepted = true;
  }

  row(key: string): RowState | undefined {
    return this.rows.get(key);
  }

  /** Shipment (or address) ids already recorded for this target: a reconciliation must not claim them for another row. */
  claimedIds(): Set<number> {
    const ids = new Set<number>();
    for (const s of this.rows.values()) if (s.state === "created" || s.state === "updated") ids.add(s.id);
    return ids;
  }

  /** Rows whose request may have reached the service without its answer being recorded. */
  sendingRows(): Map<string, Extract<RowState, { state: "sending" }>> {
    const out = new Map<string, Extract<RowState, { state: "sending" }>>();
    for (const [k, s] of this.rows) if (s.state === "sending") out.set(k, s);
    return out;
  }

  verdict(addressKey: string): Verdict | undefined {
    return this.verdicts.get(shortHash(addressKey));
  }

  /** A number that tells the requests of this journal apart (rows of one request share it). */
  nextAttempt(): number {
    return ++this.attempts;
  }

  /** Records row states; resolves once they are on disk. */
  record(entries: ReadonlyArray<readonly [string, RowState]>): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    // Nothing to write: an empty group commit would wait for a write that never comes.
    if (entries.length === 0) return Promise.resolve();
    for (const [key, state] of entries) {
      this.rows.set(key, state);
      if (state.state === "sending") this.attempts = Math.max(this.attempts, state.attempt);
    }
    return this.append(linesFor(this.tid, entries));
  }

  /**
   * Records row states without waiting for the disk: for outcomes (ids, errors). Losing one in a crash is safe: the
   * row stays "sending" and the next run reconciles it. A write failure makes every later record() fail, so no
   * request leaves without its intent on disk; close() still folds every state into the snapshot.
   */
  note(entries: ReadonlyArray<readonly [string, RowState]>): void {
    for (const [key, state] of entries) {
      this.rows.set(key, state);
      if (state.state === "sending") this.attempts = Math.max(this.attempts, state.attempt);
    }
    if (this.failure !== undefined || !this.handle) return;
    // The lines go out with the next write (the next intent's, usually), which is how a busy run writes and flushes
    // once per request rather than twice. A quiet moment writes them on their own after a short while.
    this.queue.push(...linesFor(this.tid, entries));
    this.notedQueued = true;
    if (this.flushing === undefined && this.noteTimer === undefined) {
      this.noteTimer = setTimeout(() => {
        this.noteTimer = undefined;
        this.flushing ??= this.flush();
      }, NOTE_DELAY_MS);
      this.noteTimer.unref();
    }
  }

  recordVerdict(addressKey: string, verdict: Verdict): Promise<void> {
    const key = shortHash(addressKey);
    this.verdicts.set(key, verdict);
    return this.append([JSON.stringify({ t: this.tid, address: key, verdict })]);
  }

  /**
   * Writes what is pending and releases the lock. The file as appended is complete, so it is left as it is (the next
   * run folds it when it opens it), unless an append failed (the snapshot then holds every state, noted ones
   * included) or this run accepted a new owner (the snapshot records it). Rewriting 10,000 rows, with two fsyncs and
   * a rename, was most of the end of a run (bench/batch.mjs).
   */
  async close(): Promise<void> {
    try {
      clearTimeout(this.noteTimer);
      this.noteTimer = undefined;
      if (this.queue.length > 0 && this.failure === undefined && this.handle) this.flushing ??= this.flush();
      await this.flushing;
      if (this.failure === undefined) await this.handle?.datasync().catch((e: unknown) => (this.failure ??= e));
      await this.handle?.close();
      this.handle = undefined;
      if (this.failure !== undefined || this.snapshotOwner !== this.ownerOnDisk()) await this.compact();
    } finally {
      await this.lock.release();
    }
  }

  private append(lines: string[]): Promise<void> {
    if (!this.handle) return Promise.reject(new Error("the journal is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push(...lines);
      this.waiting.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Group commit: everything queued while one write is on its way goes out in the next write and flush. */
  private async flush(): Promise<void> {
    // The first write waits for this turn of the event loop to end: the caller has stored this promise in `flushing`
    // by then (it is cleared below, once the queue is empty), and every record made in the same turn (the intents of
    // the several requests a sender queues at once) shares the write and its fdatasync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    while (this.queue.length > 0) {
      const lines = this.queue;
      const waiting = this.waiting;
      const noted = this.notedQueued;
      this.queue = [];
      this.waiting = [];
      this.notedQueued = false;
      try {
        writeAll(this.handle!, `${lines.join("\n")}\n`);
        // Only what someone waits for must be on disk before going on; noted lines may be lost in a crash.
        if (waiting.length > 0) await this.handle!.datasync();
        for (const w of waiting) w.resolve();
      } catch (e) {
        // A lost outcome is safe, but a journal that cannot be written must not announce any more requests.
        if (noted) this.failure ??= e;
        for (const w of waiting) w.reject(e);
      }
    }
    this.flushing = undefined;
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
      throw e;
    }
    const lines = journalLines(text, (lineNo) => {
      throw this.damaged(`line ${lineNo} is not readable`);
    });
    if (lines.length === 0) return;
    const [header, ...records] = lines;
    if (header!.shipctl_journal !== JOURNAL_VERSION || header!.kind !== this.kind) {
      throw this.damaged(`it is not a shipctl ${this.kind} journal (version ${JOURNAL_VERSION})`);
    }
    for (const line of records) this.apply(line);
  }

  private apply(line: Line): void {
    if (typeof line.target === "string") {
      const owner = typeof line.owner === "string" ? line.owner : undefined;
      this.targets.set(line.target, { baseUrl: String(line.base_url), profile: String(line.profile), owner });
      return;
    }
    if (line.t !== this.tid) {
      this.others.push(line);
      return;
    }
    if (typeof line.row === "string" || Array.isArray(line.rows)) {
      const { t: _t, row: _row, rows: _rows, ids, ...state } = line;
      const keys = rowKeysOf(line);
      keys.forEach((key, i) => {
        const own = Array.isArray(ids) ? { ...state, id: ids[i] } : state;
        this.rows.set(key, own as unknown as RowState);
      });
      if (state.state === "sending") this.attempts = Math.max(this.attempts, Number(state.attempt) || 0);
    } else if (typeof line.address === "string") {
      this.verdicts.set(line.address, line.verdict as Verdict);
    }
  }

  private damaged(why: string): JournalDamaged {
    return new JournalDamaged(`the journal ${this.path} is damaged: ${why}`, {
      hint:
        "It records which rows were already sent, so shipctl will not guess. Check what exists with `shipctl list shipments`, " +
        "then move the journal aside only if you are sure no row would be sent twice.",
    });
  }

  /** Until this run's token is accepted as the records' owner, the owner that wrote them stays recorded. */
  private ownerOnDisk(): string | undefined {
    return this.ownerAccepted ? this.target.owner : this.recordedOwner;
  }

  private async compact(): Promise<void> {
    this.snapshotOwner = this.ownerOnDisk();
    this.targets.set(this.tid, { ...this.target, owner: this.snapshotOwner });
    const header = { shipctl_journal: JOURNAL_VERSION, kind: this.kind, source: this.source, written: new Date().toISOString() };
    const out: string[] = [JSON.stringify(header)];
    for (const [id, t] of this.targets) out.push(JSON.stringify({ target: id, base_url: t.baseUrl, profile: t.profile, ...(t.owner !== undefined ? { owner: t.owner } : {}) }));
    for (const line of this.others) out.push(JSON.stringify(line));
    for (const [key, verdict] of this.verdicts) out.push(JSON.stringify({ t: this.tid, address: key, verdict }));
    for (const [key, state] of this.rows) out.push(JSON.stringify({ t: this.tid, row: key, ...state }));
    await writeFileAtomic(this.path, `${out.join("\n")}\n`);
  }
}
