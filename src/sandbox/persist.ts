// The --state file: loaded at start, rewritten after every change. Each write goes to a temp file in the same
// directory, is fsynced, then renamed over the old file, so a kill at any moment leaves either the old or the new
// state on disk, never a torn one. Writes are coalesced: a change made while a write is running is carried by the
// next write, and every caller waits until a write that includes its change has been renamed into place.
import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../fs/atomic-file.js";
import type { StateFile } from "./state.js";

/** The --state file cannot be read or written: the message names the file and what to do. */
export class StateFileError extends Error {}

export function loadStateFile(file: string): StateFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StateFile;
  } catch (err) {
    throw new StateFileError(`could not read the sandbox state file ${file}: ${(err as Error).message}. Move it away or pass another --state file.`);
  }
}

export class StateWriter {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => StateFile,
  ) {}

  /** Resolves once the state as it is now (or later) is on disk. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** Resolves when no write is running or queued (for a clean shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.queued) await (this.queued ?? this.running)!.catch(() => undefined);
  }

  private start(): Promise<void> {
    const run = writeFileAtomic(this.file, JSON.stringify(this.snapshot())).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
