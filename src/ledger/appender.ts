// Appending lines to a ledger's file with a group commit: everything queued while one write is on its way goes out
// in the next write and one fdatasync. Lines someone waits for (intents: a request may leave only once its intent is
// on disk) resolve when flushed; noted lines (outcomes) ride with the next write, or go on their own after a short
// while. After a failed write every later append fails, so nothing is sent without its intent on disk.
import { open, type FileHandle } from "node:fs/promises";
import { writeAll } from "./entry-files.js";

/** How long noted lines wait for a write that carries them before they are written on their own. */
const NOTE_DELAY_MS = 200;

export class Appender {
  private queue: string[] = [];
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;
  private noteTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first write that failed: every later append fails with it. */
  failure: unknown;

  private constructor(private handle: FileHandle | undefined) {}

  static async open(path: string): Promise<Appender> {
    return new Appender(await open(path, "a", 0o600));
  }

  /** Appends lines and resolves once they are on disk. */
  append(lines: string[]): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.handle) return Promise.reject(new Error("the ledger is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push(...lines);
      this.waiting.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Appends lines without waiting for the disk (losing them in a crash must be safe). */
  note(lines: string[]): void {
    if (this.failure !== undefined || !this.handle) return;
    this.queue.push(...lines);
    if (this.flushing === undefined && this.noteTimer === undefined) {
      this.noteTimer = setTimeout(() => {
        this.noteTimer = undefined;
        this.flushing ??= this.flush();
      }, NOTE_DELAY_MS);
      this.noteTimer.unref();
    }
  }

  /** Writes a line at once, before the caller's next step (not flushed: a killed process's writes survive it). */
  writeNow(line: string): void {
    if (this.handle) writeAll(this.handle.fd, `${line}\n`);
  }

  /** Writes what is pending, flushes, and closes the file. Returns whether every write made it. */
  async close(): Promise<boolean> {
    clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    if (this.queue.length > 0 && this.failure === undefined && this.handle) this.flushing ??= this.flush();
    await this.flushing;
    if (this.failure === undefined) await this.handle?.datasync().catch((e: unknown) => (this.failure ??= e));
    await this.handle?.close();
    this.handle = undefined;
    return this.failure === undefined;
  }

  private async flush(): Promise<void> {
    // The first write waits for this turn of the event loop to end, so every record made in the same turn (the
    // intents of requests starting together) shares the write and its fdatasync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    while (this.queue.length > 0) {
      const lines = this.queue;
      const waiting = this.waiting;
      this.queue = [];
      this.waiting = [];
      try {
        // Synchronous: appending is a copy into the page cache (microseconds); only the fdatasync waits for the disk.
        writeAll(this.handle!.fd, `${lines.join("\n")}\n`);
        // Only what someone waits for must be on disk before going on; noted lines may be lost in a crash.
        if (waiting.length > 0) await this.handle!.datasync();
        for (const w of waiting) w.resolve();
      } catch (e) {
        this.failure ??= e;
        for (const w of waiting) w.reject(e);
      }
    }
    this.flushing = undefined;
  }
}
