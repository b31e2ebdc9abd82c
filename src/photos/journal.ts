// The batch journal: what each report of a batch became, so a rerun skips reports already stored and knows which
// uploads lost their answer. The service has no idempotency key, so the intent ("sending") is written before the
// upload starts and the outcome after; a rerun reads the shipment back for anything left "sending".
// Writes are atomic (temp file in the same folder, fsync, rename, fsync of the folder), so a kill or a power cut
// leaves either the old journal or the new one, never half of one. Changes recorded while a write is under way are
// written together by the next one (a group commit): uploads running side by side then wait for one write instead
// of queueing one each, and every record() still resolves only once a snapshot holding its change is on disk.
// Outcomes may be noted without waiting (note()): a batch goes on to its next upload, and flush() at its end waits
// until every change is on disk.
// Entries are keyed by the service's base URL too: the same folders uploaded to a sandbox and then to the real
// service are different reports.
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
}

export const JOURNAL_NAME = ".shipctl-report-journal.json";

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

  private constructor(
    readonly path: string,
    private readonly baseUrl: string,
    private readonly data: JournalFile,
    private readonly now: () => Date,
    private readonly write: (path: string, text: string) => Promise<void>,
  ) {}

  /** `write` puts a snapshot on disk (replaceable in tests). */
  static async open(
    path: string,
    baseUrl: string,
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
    return new ReportJournal(path, baseUrl, data, now, write);
  }

  private key(shipmentId: number, set: ReportSet): string {
    return `${this.baseUrl} ${shipmentId}/${set}`;
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
   * Records a state without waiting for the disk: the write joins the next one. For outcomes, which protect nothing
   * that is still to be sent (a rerun reads back any report whose outcome is missing); flush() waits for them.
   */
  note(shipmentId: number, set: ReportSet, folder: string, state: JournalState, detail?: string): void {
    this.change(shipmentId, set, folder, state, detail);
    // A failure here is flush()'s to report: a later write that succeeds holds this change too.
    this.schedule().catch(() => undefined);
  }

  /** Waits until every change recorded so far is on disk; writes once more if the last write failed, and throws if that fails. */
  async flush(): Promise<void> {
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

  private schedule(): Promise<void> {
    if (this.queued) return this.queued;
    const write = this.writing
      .catch(() => undefined)
      .then(async () => {
        // From here on, a change needs the write after this one: the snapshot is taken now.
        this.queued = undefined;
        const holds = this.changes;
        await this.write(this.path, `${JSON.stringify(this.data, null, 2)}\n`);
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
    return data as JournalFile;
  } catch {
    return undefined;
  }
}
