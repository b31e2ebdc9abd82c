// The batch journal: what each report of a batch became, so a rerun skips reports already stored and knows which
// uploads lost their answer. The service has no idempotency key, so the intent ("sending") is written before the
// upload starts and the outcome after; a rerun reads the shipment back for anything left "sending".
// Writes are atomic (temp file in the same folder, fsync, rename, fsync of the folder), so a kill or a power cut
// leaves either the old journal or the new one, never half of one. Changes recorded while a write is under way are
// written together by the next one (a group commit): uploads running side by side then wait for one write instead
// of queueing one each, and every record() still resolves only once a snapshot holding its change is on disk.
// Outcomes may be noted without waiting (note()): a batch goes on to its next upload, the outcomes are written
// together a little later, and flush() at its end waits until every change is on disk.
// Entries are keyed by the service's base URL too: the same folders uploaded to a sandbox and then to the real
// service are different reports. A base URL does not name an organization, so each base URL's entries also record
// a fingerprint of the token that wrote them (a truncated SHA-256, never the token; src/ledger/owner.ts):
// with another token, reports recorded as stored are trusted only once the shipments are read back (see
// report-owner.ts), so another organization on the same URL never has its reports skipped as "stored".
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-file.js";
import type { ReportSet } from "../contract/index.js";
import { UsageError } from "../errors.js";

export type JournalState = "sending" | "stored" | "failed";

export interface JournalEntry {
  shipment_id: number;
  set: ReportSet;
  folder: string;
  state: JournalState;
  /** ISO time of the last change. */
  updated_at: string;
  detail?: string;
}

interface JournalFile {
  kind: "shipctl-report-journal";
  version: 1;
  entries: Record<string, JournalEntry>;
  /** Per base URL, the fingerprint of the token whose organization its entries belong to. Absent in older journals. */
  owners?: Record<string, string>;
}

/** Which service and organization a run works for. */
export interface JournalTarget {
  baseUrl: string;
  /** Fingerprint of the run's token (tokenFingerprint in src/ledger/owner.ts). */
  owner: string;
}

export const JOURNAL_NAME = ".shipctl-report-journal.json";

/** Longest wait of a noted outcome for a write of its own (see note()). */
const NOTE_DELAY_MS = 200;

/** Where the journal lives: inside ROOT for --batch (a hidden file, so discovery ignores it), beside the manifest. */
export function defaultJournalPath(source: { root?: string; manifest?: string }): string {
  if (source.root) return join(source.root, JOURNAL_NAME);
  if (source.manifest) return join(dirname(source.manifest), `${basename(source.manifest)}${JOURNAL_NAME}`);
  throw new Error("a journal needs a batch root or a manifest");
}

export class ReportJournal {
  /** The last write started or queued; the next one starts after it, whatever its outcome. */
  private writing: Promise<void> = Promise.resolve();
  /** A write queued behind the one under way and not yet started: changes recorded now will be in it. */
  private queued: Promise<void> | undefined;
  /** Changes made so far, and how many of them a finished write holds (each write holds every change before it). */
  private changes = 0;
  private durable = 0;
  /** Pending while noted changes wait for a write (see note()). */
  private noteTimer: ReturnType<typeof setTimeout> | undefined;
  /** The owner recorded by earlier runs for this base URL; kept on disk until this run's owner is accepted. */
  private readonly recordedOwner: string | undefined;
  private ownerAccepted: boolean;

  private constructor(
    readonly path: string,
    private readonly target: JournalTarget,
    private readonly data: JournalFile,
    private readonly now: () => Date,
    private readonly write: (path: string, text: string) => Promise<void>,
  ) {
    this.recordedOwner = data.owners?.[target.baseUrl];
    this.ownerAccepted = this.claimedIds().size === 0 || this.recordedOwner === target.owner;
  }

  /** `write` puts a snapshot on disk (replaceable in tests). */
  static async open(
    path: string,
    target: JournalTarget,
    now: () => Date = () => new Date(),
    write: (path: string, text: string) => Promise<void> = writeFileAtomic,
  ): Promise<ReportJournal> {
    let data: JournalFile = { kind: "shipctl-report-journal", version: 1, entries: {} };
    let text: string | undefined;
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (text !== undefined) {
      const parsed = parseJournal(text);
      if (!parsed) {
        throw new UsageError(`the journal ${path} is not a shipctl report journal (or is damaged)`, {
          hint: "move it away to start afresh: reports already stored are then found by reading each shipment",
        });
      }
      data = parsed;
    }
    return new ReportJournal(path, target, data, now, write);
  }

  private key(shipmentId: number, set: ReportSet): string {
    return `${this.target.baseUrl} ${shipmentId}/${set}`;
  }

  /** This base URL's entries. */
  private ownEntries(): JournalEntry[] {
    const prefix = `${this.target.baseUrl} `;
    return Object.entries(this.data.entries).flatMap(([key, entry]) => (key.startsWith(prefix) ? [entry] : []));
  }

  /**
   * Whether the reports recorded as stored can be trusted as this token's: true when none is recorded, or when they
   * were recorded with the same token. Otherwise they must be read back first (report-owner.ts) and accepted.
   */
  get ownerConfirmed(): boolean {
    return this.ownerAccepted;
  }

  /** The shipments were read back: they are this organization's (a new token); record its fingerprint. */
  acceptOwner(): void {
    if (this.ownerAccepted) return;
    this.ownerAccepted = true;
    this.changes++;
    this.schedule().catch(() => undefined);
  }

  /** Shipments with a set recorded as stored here: what a rerun would skip without reading. */
  claimedIds(): Set<number> {
    return new Set(this.ownEntries().filter((e) => e.state === "stored").map((e) => e.shipment_id));
  }

  /** The highest set recorded as stored for a shipment (set 2 stored implies the shipment went past set 1). */
  storedSet(shipmentId: number): ReportSet | undefined {
    const sets = this.ownEntries().filter((e) => e.shipment_id === shipmentId && e.state === "stored").map((e) => e.set);
    return sets.length === 0 ? undefined : (Math.max(...sets) as ReportSet);
  }

  get(shipmentId: number, set: ReportSet): JournalEntry | undefined {
    return this.data.entries[this.key(shipmentId, set)];
  }

  /** Records a state and waits until it is on disk. Writes happen one at a time, each holding every change so far. */
  record(shipmentId: number, set: ReportSet, folder: string, state: JournalState, detail?: string): Promise<void> {
    this.change(shipmentId, set, folder, state, detail);
    return this.schedule();
  }

  /**
   * Records a state without waiting for the disk. For outcomes, which protect nothing that is still to be sent (a
   * rerun reads back any report whose outcome is missing): they ride with the next write, or go at most
   * NOTE_DELAY_MS later on their own, so uploads finishing close together share one write instead of one each;
   * flush() writes them at once.
   */
  note(shipmentId: number, set: ReportSet, folder: string, state: JournalState, detail?: string): void {
    this.change(shipmentId, set, folder, state, detail);
    this.noteTimer ??= setTimeout(() => {
      this.noteTimer = undefined;
      // A failure here is flush()'s to report: a later write that succeeds holds this change too.
      if (this.durable < this.changes) this.schedule().catch(() => undefined);
    }, NOTE_DELAY_MS);
    // The batch flushes before it ends: the timer need not keep the process alive.
    this.noteTimer.unref();
  }

  /** Waits until every change recorded so far is on disk; writes once more if the last write failed, and throws if that fails. */
  async flush(): Promise<void> {
    clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    await this.writing.catch(() => undefined);
    if (this.durable < this.changes) await this.schedule();
  }

  private change(shipmentId: number, set: ReportSet, folder: string, state: JournalState, detail?: string): void {
    this.data.entries[this.key(shipmentId, set)] = {
      shipment_id: shipmentId,
      set,
      folder,
      state,
      updated_at: this.now().toISOString(),
      ...(detail ? { detail } : {}),
    };
    this.changes++;
  }

  /**
   * What goes to disk: the entries, and for this base URL the run's token fingerprint once its ownership is settled;
   * until then the fingerprint that wrote the entries stays (a run stopped by the owner check changes nothing).
   */
  private snapshot(): JournalFile {
    const owner = this.ownerAccepted ? this.target.owner : this.recordedOwner;
    const owners = { ...this.data.owners };
    if (owner === undefined) delete owners[this.target.baseUrl];
    else owners[this.target.baseUrl] = owner;
    return { ...this.data, owners };
  }

  private schedule(): Promise<void> {
    if (this.queued) return this.queued;
    const write = this.writing
      .catch(() => undefined)
      .then(async () => {
        // From here on, a change needs the write after this one: the snapshot is taken now.
        this.queued = undefined;
        const holds = this.changes;
        await this.write(this.path, `${JSON.stringify(this.snapshot(), null, 2)}\n`);
        this.durable = Math.max(this.durable, holds);
      });
    this.queued = write;
    this.writing = write;
    return write;
  }
}

function parseJournal(text: string): JournalFile | undefined {
  try {
    const data = JSON.parse(text) as Partial<JournalFile>;
    if (data.kind !== "shipctl-report-journal" || data.version !== 1 || typeof data.entries !== "object" || data.entries === null) return undefined;
    // Fingerprints that are not strings are left out: the entries are then read back as if none were recorded.
    const recorded = typeof data.owners === "object" && data.owners !== null && !Array.isArray(data.owners) ? data.owners : {};
    const owners = Object.fromEntries(Object.entries(recorded).filter(([, v]) => typeof v === "string"));
    return { ...(data as JournalFile), owners };
  } catch {
    return undefined;
  }
}
