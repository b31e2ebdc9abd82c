// A ledger book: how shipctl keeps "exactly once" without an idempotency key from the service. Before a request that
// must not be repeated is sent (shipments created, an address stored, a report uploaded, a checkout paid, a CSV
// update), the rows it carries are recorded "in flight"; after the answer, their outcome. A rerun reads the book:
// rows done are skipped, rows in flight are settled by reading the service back (settle.ts) before anything is sent.
//
// On disk it is JSON Lines (book-lines.ts). Opening a book folds it into one snapshot written atomically (temp
// file, fsync, rename); during a run, records are appended, and an intent is flushed (fdatasync) before its request
// is sent. Appending keeps each record O(1): rewriting the whole book before every request would make a
// 10,000-row run quadratic. A crash can only tear the last line, which is then ignored: if it was an intent, its
// request had not been sent yet (we wait for the flush), and if it was an outcome the row stays in flight.
import { rm } from "node:fs/promises";
import { uptime } from "node:os";
import { Appender } from "./appender.js";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { LEDGER_VERSION, linesFor, shortHash, targetId, type BookKind, type InFlight, type Line, type RowState, type Verdict } from "./book-lines.js";
import { loadBook, type Target } from "./book-load.js";
import { acquireLocks, refuseIfLocked, type Lock, type LockWait } from "./lock.js";
import { markFor, tokenMatches, type OwnerMark } from "./owner.js";
import { settleAtFromAnswer, settleAtFromSent, type SettleWindow } from "./settle-window.js";

export interface BookTarget {
  baseUrl: string;
  profile: string;
  /** The run's token: only its owner mark is ever written (owner.ts). */
  token: string;
}

export interface OpenOptions {
  kind: BookKind;
  /** What the book is for, said in its header ("orders.csv", "stdin", "flags"). */
  source: string;
  target: BookTarget;
  window: SettleWindow;
  /** Locks taken with the book's own, for the input's identity (input-identity.ts). */
  locks?: ReadonlyArray<{ path: string; what: string }>;
  /** What the book is called in messages ("the journal orders.csv.shipctl-journal.jsonl"). */
  what?: string;
  /** Where shipctl 0.1 kept this book in another format (the report journal), read when `path` does not exist. */
  legacyPath?: string;
  /**
   * A dry run's view: read as the run would read it, and nothing written (no lock taken, no snapshot, no migration backup);
   * what the run would record (settlements, verdicts) is kept in memory only, so the rehearsal decides as the run would.
   */
  readOnly?: boolean;
  /** Wait this long for a run holding the book's lock to finish, instead of refusing at once. */
  lockWait?: LockWait;
  /**
   * Forget this target's settled rows (anything not in flight) when the book is opened: for a book whose outcomes no
   * later run reads (checkout: the shipment's status says whether it is paid), so it does not grow for ever.
   */
  forgetSettled?: boolean;
}

export class BookDamaged extends CliError {}

export class Book {
  private file: Appender | undefined;
  private attempts: number;
  private ownerAccepted: boolean;
  private snapshotMark: OwnerMark | undefined;

  private constructor(
    readonly path: string,
    private readonly options: OpenOptions,
    private readonly tid: string,
    private readonly rows: Map<string, RowState>,
    private readonly verdicts: Map<string, Verdict>,
    private readonly targets: Map<string, Target>,
    /** Lines of other targets (another profile or service), kept as they are. */
    private readonly others: Line[],
    /** This run's mark: the recorded one when the token matches it, else a new one. */
    private readonly mark: OwnerMark,
    tokenMatched: boolean,
    private readonly lock: Lock,
  ) {
    this.attempts = Math.max(0, ...[...rows.values()].map((s) => (s.state === "in_flight" ? s.attempt : 0)));
    this.ownerAccepted = tokenMatched || this.claimedIds().size === 0;
  }

  /** Opens (or creates) the book at `path`, locked against other runs, folded into a fresh snapshot. */
  static async open(path: string, options: OpenOptions): Promise<Book> {
    const what = options.what ?? `the journal ${path}`;
    const locks = [{ path: `${path}.lock`, what }, ...(options.locks ?? [])];
    // Read-only: refused as the run would be while another run holds the book, but no lock is taken.
    const lock = options.readOnly ? await refuseIfLocked(locks).then(() => NO_LOCK) : await acquireLocks(locks, options.lockWait);
    try {
      const { profile, baseUrl, token } = options.target;
      const tid = targetId(profile, baseUrl);
      const migration = { profile, window: options.window, legacyPath: options.legacyPath, readOnly: options.readOnly };
      const loaded = await loadBook(path, options.kind, tid, (why) => damaged(path, why), migration);
      const recorded = loaded.targets.get(tid)?.owner;
      const matched = await tokenMatches(token, recorded);
      const mark = matched ? recorded! : await markFor(token);
      if (options.forgetSettled) for (const [key, state] of loaded.rows) if (state.state !== "in_flight") loaded.rows.delete(key);
      const book = new Book(path, options, tid, loaded.rows, loaded.verdicts, loaded.targets, loaded.others, mark, matched, lock);
      book.settleUnsent();
      if (options.readOnly) return book;
      await book.compact();
      // A legacy file now lives on in the new book and in its backup; left in place, it would be read again.
      if (loaded.migratedFrom !== undefined && loaded.migratedFrom !== path) await rm(loaded.migratedFrom, { force: true });
      book.file = await Appender.open(path);
      return book;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  get window(): SettleWindow {
    return this.options.window;
  }

  /** Whether any row is recorded for this target (a first run of a file is checked for copies: copy-guard.ts). */
  get hasRows(): boolean {
    return this.rows.size > 0;
  }

  /**
   * Whether the ids recorded for this target can be trusted as this token's: true when nothing is recorded, or when
   * the records were written with the same token. Otherwise they must be checked (owner.ts) and accepted.
   */
  get ownerConfirmed(): boolean {
    return this.ownerAccepted;
  }

  /** The records were checked against the service: they are this token's (a rotated token); record its mark. */
  acceptOwner(): void {
    this.ownerAccepted = true;
  }

  row(key: string): RowState | undefined {
    return this.rows.get(key);
  }

  /** Every row of this target, in the order first recorded. */
  entries(): IterableIterator<[string, RowState]> {
    return this.rows.entries();
  }

  /**
   * Ids recorded for this target: a read-back must not claim them for another row, and a run with another token
   * checks them before trusting any (owner.ts). A stored report claims its shipment.
   */
  claimedIds(): Set<number> {
    const ids = new Set<number>();
    for (const s of this.rows.values()) {
      if (s.state === "created" || s.state === "updated") ids.add(s.id);
      else if (s.state === "stored" && s.id !== undefined) ids.add(s.id);
    }
    return ids;
  }

  /** Rows whose request may have reached the service without its answer being recorded. */
  inFlight(): Map<string, InFlight> {
    const out = new Map<string, InFlight>();
    for (const [k, s] of this.rows) if (s.state === "in_flight") out.set(k, s);
    return out;
  }

  verdict(addressKey: string): Verdict | undefined {
    return this.verdicts.get(shortHash(addressKey));
  }

  /** A number that tells the requests of this book apart (rows of one request share it). */
  nextAttempt(): number {
    return ++this.attempts;
  }

  /** Records row states; resolves once they are on disk. */
  record(entries: ReadonlyArray<readonly [string, RowState]>): Promise<void> {
    if (this.options.readOnly) {
      this.note(entries);
      return Promise.resolve();
    }
    if (!this.file) return Promise.reject(new Error("the ledger book is closed"));
    if (this.file.failure !== undefined) return Promise.reject(this.file.failure);
    // Nothing to write: an empty group commit would wait for a write that never comes.
    if (entries.length === 0) return Promise.resolve();
    for (const [key, state] of entries) this.rows.set(key, state);
    return this.file.append(linesFor(this.tid, entries));
  }

  /**
   * Records row states without waiting for the disk: for outcomes (ids, errors). Losing one in a crash is safe: the
   * row stays in flight and the next run settles it. A write failure makes every later record() fail, so no
   * request leaves without its intent on disk; close() still folds every state into the snapshot.
   */
  note(entries: ReadonlyArray<readonly [string, RowState]>): void {
    for (const [key, state] of entries) this.rows.set(key, state);
    // The lines go out with the next write (the next intent's, usually): a busy run writes and flushes once per
    // request rather than twice.
    this.file?.note(linesFor(this.tid, entries));
  }

  /**
   * The last byte of a request recorded with `await_sent` (an upload's last chunk, a create request's body) is about
   * to be handed to the connection. Written at once, not flushed: it must be in the file before the byte can leave,
   * and a killed process's writes survive it. Without this line, and with no restart of the machine since the intent,
   * a rerun knows the request never left whole (settleUnsent). So an intent can be recorded (and flushed) ahead of
   * its request, while the request waits for a free slot, and its settle time still counts from when it left.
   */
  markSent(keys: string | readonly string[], at: Date): void {
    const rows = (typeof keys === "string" ? [keys] : keys).filter((k) => this.rows.get(k)?.state === "in_flight");
    if (rows.length === 0 || !this.file) return;
    const sentAt = at.toISOString();
    const settleAt = settleAtFromSent(at, this.options.window).toISOString();
    for (const key of rows) this.rows.set(key, { ...(this.rows.get(key) as InFlight), sent_at: sentAt, settle_at: settleAt });
    this.file.writeNow(JSON.stringify({ t: this.tid, ...(rows.length === 1 ? { row: rows[0] } : { rows }), sent_at: sentAt, settle_at: settleAt }));
  }

  /**
   * The service itself answered the request with a failure (settle-window.ts, answeredByService): it applies nothing
   * more, so its settle time moves to the answer plus a lagging read's allowance. Written at once, as markSent's line:
   * a run killed before reading back leaves its rerun only that short wait.
   */
  markAnswered(keys: readonly string[], at: Date, status: number): void {
    const rows = keys.filter((k) => this.rows.get(k)?.state === "in_flight");
    if (rows.length === 0 || !this.file) return;
    const own = Math.min(...rows.map((k) => Date.parse((this.rows.get(k) as InFlight).settle_at)));
    const facts = { answered_at: at.toISOString(), answer_status: status, settle_at: new Date(Math.min(own, settleAtFromAnswer(at, this.options.window).getTime())).toISOString() };
    for (const key of rows) this.rows.set(key, { ...(this.rows.get(key) as InFlight), ...facts });
    this.file.writeNow(JSON.stringify({ t: this.tid, ...(rows.length === 1 ? { row: rows[0] } : { rows }), ...facts }));
  }

  recordVerdict(addressKey: string, verdict: Verdict): Promise<void> {
    const key = shortHash(addressKey);
    this.verdicts.set(key, verdict);
    if (this.options.readOnly) return Promise.resolve();
    if (!this.file) return Promise.reject(new Error("the ledger book is closed"));
    return this.file.append([JSON.stringify({ t: this.tid, address: key, verdict })]);
  }

  /**
   * Writes what is pending and releases the lock. The file as appended is complete, so it is left as it is (the next
   * run folds it when it opens it), unless an append failed (the snapshot then holds every state, noted ones
   * included) or this run accepted a new owner (the snapshot records it).
   */
  async close(): Promise<void> {
    if (this.options.readOnly) return;
    try {
      const whole = (await this.file?.close()) ?? true;
      this.file = undefined;
      if (!whole || this.snapshotMark !== this.markOnDisk()) await this.compact();
    } finally {
      await this.lock.release();
    }
  }

  /**
   * A request recorded with `await_sent` and no `sent_at` never handed its last byte to the connection, unless the
   * machine restarted since (a crash can lose the line): such a row was certainly not applied. After a restart, it was
   * sent, if at all, before the restart.
   */
  private settleUnsent(): void {
    const bootMs = Date.now() - uptime() * 1000;
    for (const [key, s] of this.rows) {
      if (s.state !== "in_flight" || !s.await_sent || s.sent_at !== undefined) continue;
      if (Date.parse(s.at) >= bootMs) this.rows.set(key, { state: "failed", error: "not sent: the run stopped before its request left whole" });
      else this.rows.set(key, { ...s, settle_at: new Date(bootMs + this.options.window.sendBoundMs + this.options.window.applyMs).toISOString() });
    }
  }

  /** Until this run's token is accepted as the records' owner, the mark that wrote them stays recorded. */
  private markOnDisk(): OwnerMark | undefined {
    return this.ownerAccepted ? this.mark : this.targets.get(this.tid)?.owner;
  }

  private async compact(): Promise<void> {
    this.snapshotMark = this.markOnDisk();
    const { profile, baseUrl } = this.options.target;
    this.targets.set(this.tid, { baseUrl, profile, owner: this.snapshotMark });
    const header = { shipctl_ledger: LEDGER_VERSION, kind: this.options.kind, source: this.options.source, written: new Date().toISOString() };
    const out: string[] = [JSON.stringify(header)];
    for (const [id, t] of this.targets) out.push(JSON.stringify({ target: id, base_url: t.baseUrl, profile: t.profile, ...(t.owner ? { owner: t.owner } : {}) }));
    for (const line of this.others) out.push(JSON.stringify(line));
    for (const [key, verdict] of this.verdicts) out.push(JSON.stringify({ t: this.tid, address: key, verdict }));
    for (const [key, state] of this.rows) out.push(JSON.stringify({ t: this.tid, row: key, ...state }));
    await writeFileAtomic(this.path, `${out.join("\n")}\n`);
  }
}

/** A read-only book holds no lock. */
const NO_LOCK: Lock = { release: async () => undefined };

function damaged(path: string, why: string): BookDamaged {
  return new BookDamaged(`the journal ${path} is damaged: ${why}`, {
    hint:
      "It records which rows were already sent, so shipctl will not guess. Check what exists with `shipctl list shipments`, " +
      "then move the journal aside only if you are sure no row would be sent twice.",
  });
}

export type { InFlight, RowState, Verdict } from "./book-lines.js";
