// An input's record in its organization's ledger, and the way every write that must not repeat goes through it.
// Before a request that must not be repeated is sent (shipments created, an address stored, a report uploaded, a
// checkout paid, a CSV update), the rows it carries are claimed in the organization's ledger (store.ts: an insert if
// absent, so no other run can send them) and recorded in flight in the input's record; after the answer, their
// outcome. A rerun reads the record: rows done are skipped, rows in flight are settled by reading the service back
// (settle.ts) before anything is sent. The record is JSON Lines (record-lines.ts), appended during a run, an intent
// flushed (fdatasync) before its request leaves; a crash can only tear the last line, which is then ignored.
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { Appender } from "./appender.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { linesFor, snapshotText } from "./record-lines.js";
import { addressHash, shortHash, type InFlight, type RowState, type Verdict } from "./entry.js";
import { loadRecord, settleUnsent } from "./record-load.js";
import { FAMILY, inputRecordPath, inputScope, OVER } from "./entry-keys.js";
import { forceNewHint } from "./force-new.js";
import { OrganizationLedger } from "./organization.js";
import { damaged, LedgerConflict, type OpenOptions } from "./input-ledger-options.js";
import { claimCovers, claimedAhead, settleAtFromAnswer, settleAtFromSent, type SettleWindow } from "./settle-window.js";
export { RecordDamaged, LedgerConflict, type OpenOptions } from "./input-ledger-options.js";
import { NO_EXCLUSION, type Entry, type Exclusion, type LedgerStore } from "./store.js";
import { giveUpClaims, LaterWrites } from "./store-writes.js";
import { takeOverInput } from "./orphans.js";

export class InputLedger {
  private file: Appender | undefined;
  private attempts: number;
  private ownerAccepted: boolean;
  /** The records were read back and found this token's (acceptOwner): only then may its mark replace another's. */
  private ownerChecked = false;
  /** Store writes no caller waits for (outcomes, sent times): awaited before that key's next claim, and by close(). */
  private readonly later: LaterWrites;
  /** The claim under way: the next waits for it. */
  private claiming: Promise<unknown> = Promise.resolve();

  private constructor(
    /** This input's record: the rows it sent, in the organization's ledger folder. */
    readonly path: string,
    private readonly options: OpenOptions,
    private readonly ledger: OrganizationLedger,
    private readonly rows: Map<string, RowState>,
    private readonly verdicts: Map<string, Verdict>,
    private readonly lock: Exclusion,
  ) {
    this.attempts = Math.max(0, ...[...rows.values()].map((s) => (s.state === "in_flight" ? s.attempt : 0)));
    this.ownerAccepted = ledger.tokenConfirmed || this.claimedIds().size === 0;
    this.later = new LaterWrites(ledger.store);
  }

  /** Opens (or starts) this input's record in its organization's ledger, held against other runs of the same input. */
  static async open(env: NodeJS.ProcessEnv, options: OpenOptions): Promise<InputLedger> {
    const organization = await OrganizationLedger.open(env, options.target);
    const scope = inputScope(options.kind, options.source, options.part);
    const path = inputRecordPath(organization.dir, scope);
    const what = options.source === "stdin" ? "input read from stdin" : options.source;
    // Read-only: refused as the run would be while another run holds the input, but nothing is held.
    const lock: Exclusion = options.readOnly
      ? await organization.store.refuseIfExcluded(scope, what, options.serviceFlags).then(() => NO_EXCLUSION)
      : await organization.store.exclude(scope, what, options.lockWait, options.serviceFlags);
    try {
      const loaded = await loadRecord(path, options.kind, (why) => damaged(path, why));
      if (options.forgetSettled) for (const [key, state] of loaded.rows) if (state.state !== "in_flight") loaded.rows.delete(key);
      const ledger = new InputLedger(path, options, organization, loaded.rows, loaded.verdicts, lock);
      const unsent = settleUnsent(ledger.rows, options.window, (key, state) => ledger.keyed(key, state));
      // A part's hold (one address) does not cover the input's other parts: their entries are other runs' business.
      if (options.part === undefined) await takeOverInput(ledger);
      if (options.readOnly) return ledger;
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await ledger.compact();
      if (unsent.length > 0) await organization.store.record(unsent.map(([key, state]) => ledger.entry(key, state)));
      ledger.file = await Appender.open(path);
      return ledger;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /** The entry's key in the organization's ledger: what the write is (entry keys say it), for every input alike. */
  ledgerKey(rowKey: string): string {
    const state = this.rows.get(rowKey) as { ledger_key?: string } | undefined;
    if (state?.ledger_key !== undefined) return state.ledger_key;
    return this.options.forceNew ? `${this.usualKey(rowKey)}@${shortHash(this.options.source)}` : this.usualKey(rowKey);
  }

  private entry(rowKey: string, state: RowState): Entry {
    return { key: this.ledgerKey(rowKey), input: this.options.source, state };
  }

  /** The input this record is for, as entries name it. */
  get source(): string {
    return this.options.source;
  }

  /** The organization's store (copy-guard.ts looks up what other inputs sent). */
  get store(): LedgerStore {
    return this.ledger.store;
  }

  /** The key of a row's entry when this run has not claimed it (what other inputs' entries of the row are under). */
  usualKey(rowKey: string): string {
    return `${FAMILY[this.options.kind]}:${rowKey}`;
  }

  /** An entry this input recorded that its record lost: taken back as its row (kept in memory for this run). */
  adopt(rowKey: string, state: RowState): void {
    if (!this.rows.has(rowKey)) this.rows.set(rowKey, state);
  }

  /** A dry run: reads the ledger as the run would, writes nothing. */
  get readOnly(): boolean {
    return this.options.readOnly === true;
  }

  get forceNew(): boolean {
    return this.options.forceNew === true;
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
    this.ownerChecked = true;
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
    return new Map([...this.rows].filter((row): row is [string, InFlight] => row[1].state === "in_flight"));
  }

  verdict(addressKey: string): Verdict | undefined {
    return this.verdicts.get(addressHash(addressKey));
  }

  /** A number that tells the requests of this ledger apart (rows of one request share it). */
  nextAttempt(): number {
    return ++this.attempts;
  }

  /**
   * Records row states; resolves once they are on disk. Rows going in flight are claimed in the organization's
   * ledger first: a row another run holds, or another input sent meanwhile, is refused (LedgerConflict), never sent.
   */
  async record(entries: ReadonlyArray<readonly [string, RowState]>): Promise<void> {
    if (this.options.readOnly) {
      this.note(entries);
      return;
    }
    if (!this.file) throw new Error("the ledger is closed");
    if (this.file.failure !== undefined) throw this.file.failure;
    // Nothing to write: an empty group commit would wait for a write that never comes.
    if (entries.length === 0) return;
    const keyed = entries.map(([key, state]) => [key, this.keyed(key, state)] as const);
    const claims = keyed
      .filter(([, s]) => s.state === "in_flight")
      .map(([key, state]) => ({ key: this.ledgerKey(key), input: this.options.source, state: claimedAhead(state as InFlight, this.options.window), over: OVER[this.options.kind] }));
    const outcomes = keyed.filter(([, s]) => s.state !== "in_flight").map(([key, state]) => this.entry(key, state));
    // A key's outcome noted a moment ago (not awaited) must be in the store before the key is claimed again.
    await this.later.done(keyed.map(([key]) => this.ledgerKey(key)));
    // Claims in the order they were asked for: requests leave in file order, as the rows were read.
    const claimed = this.claiming.then(() => this.ledger.store.claim(claims));
    this.claiming = claimed.catch(() => undefined);
    const [refused] = await Promise.all([claimed, this.ledger.store.record(outcomes)]);
    if (refused.length > 0) {
      const failed = new Set(refused.map((r) => r.key));
      if (OVER[this.options.kind] === "failed") await giveUpClaims(this.ledger.store, claims, failed);
      const error = "not sent: another run holds it in flight, or sent it meanwhile";
      this.note(keyed.filter(([key]) => failed.has(this.ledgerKey(key))).map(([key]) => [key, { state: "failed", error }] as const), { store: false });
      throw new LedgerConflict(`${refused.length === 1 ? "a row of this run was" : `${refused.length} rows of this run were`} sent by another run meanwhile (${refused[0]!.entry.input}). Nothing more was sent for them.`, {
        hint: `Run the same command again once that run is over: it will find them. ${forceNewHint()}`,
      });
    }
    for (const [key, state] of keyed) this.rows.set(key, state);
    await this.file.append(linesFor(keyed));
    if (claims.length > 0) this.lock.checkHeld?.(); // A lapsed shared-ledger lease (LeaseLapsed): left in flight, not sent.
  }

  /**
   * Records row states without waiting for the disk: for outcomes (ids, errors). Losing one in a crash is safe: the
   * row stays in flight and the next run settles it.
   */
  note(entries: ReadonlyArray<readonly [string, RowState]>, o: { store: boolean } = { store: true }): void {
    const keyed = entries.map(([key, state]) => [key, this.keyed(key, state)] as const);
    if (o.store && !this.options.readOnly && keyed.length > 0) this.later.add(keyed.map(([key, state]) => this.entry(key, state)));
    for (const [key, state] of keyed) this.rows.set(key, state);
    // The lines go out with the next write (the next intent's, usually): one flush per request, not two.
    this.file?.note(linesFor(keyed));
  }

  /**
   * The last byte of a request recorded with `await_sent` is about to leave. Written at once, not flushed (a killed
   * process's writes survive): without it, and no restart since the intent, a rerun knows the request never left
   * whole (settleUnsent). So an intent can be recorded ahead of its request and its settle time count from the send.
   */
  markSent(keys: string | readonly string[], at: Date): void {
    this.lock.checkHeld?.();
    const rows = (typeof keys === "string" ? [keys] : keys).filter((k) => this.rows.get(k)?.state === "in_flight");
    if (rows.length === 0 || !this.file) return;
    const sentAt = at.toISOString();
    // A claim covers a request that left within the send bound of its intent (claimedAhead): its settle time, the later
    // one, stays the one every run uses. Only a request that left later rewrites its claim with its own.
    const late = rows.filter((key) => !claimCovers(this.rows.get(key) as InFlight, at, this.options.window));
    const claimed = rows.filter((key) => !late.includes(key)).map((key) => Date.parse(claimedAhead(this.rows.get(key) as InFlight, this.options.window).settle_at));
    const settleAt = new Date(Math.max(settleAtFromSent(at, this.options.window).getTime(), ...claimed)).toISOString();
    for (const key of rows) this.rows.set(key, { ...(this.rows.get(key) as InFlight), sent_at: sentAt, settle_at: settleAt });
    this.file.writeNow(JSON.stringify({ ...(rows.length === 1 ? { row: rows[0] } : { rows }), sent_at: sentAt, settle_at: settleAt }));
    if (late.length > 0) this.later.add(late.map((key) => this.entry(key, this.rows.get(key)!)));
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
    this.file.writeNow(JSON.stringify({ ...(rows.length === 1 ? { row: rows[0] } : { rows }), ...facts }));
    this.later.add(rows.map((key) => this.entry(key, this.rows.get(key)!)));
  }

  recordVerdict(addressKey: string, verdict: Verdict): Promise<void> {
    const key = addressHash(addressKey);
    this.verdicts.set(key, verdict);
    if (this.options.readOnly) return Promise.resolve();
    if (!this.file) return Promise.reject(new Error("the ledger is closed"));
    return this.file.append([JSON.stringify({ address: key, verdict })]);
  }

  /** Writes what is pending and releases the input; a record whose append failed is rewritten whole. */
  async close(): Promise<void> {
    if (this.options.readOnly) return;
    try {
      const whole = (await this.file?.close()) ?? true;
      this.file = undefined;
      if (!whole) await this.compact();
      // Outcomes lost here stay in flight in the ledger: the next run settles them.
      await this.later.done();
      if ((this.ledger.tokenConfirmed || this.ownerChecked) && this.rows.size > 0) await this.ledger.acceptToken();
    } finally {
      await this.lock.release();
    }
  }

  /** A state as recorded: with its ledger key when it is not the row's usual one (--force-new). Used by record-load.ts. */
  keyed(rowKey: string, state: RowState): RowState {
    const key = this.ledgerKey(rowKey);
    return key === this.usualKey(rowKey) ? state : ({ ...state, ledger_key: key } as unknown as RowState);
  }

  private async compact(): Promise<void> {
    await writeFileAtomic(this.path, snapshotText(this.options.kind, this.options.source, this.verdicts, this.rows));
  }
}

export type { InFlight, RowState, Verdict } from "./entry.js";
