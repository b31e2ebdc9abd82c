// A one-line progress display on stderr for long batches: "rows 120/400 · created 110 · failed 10 · 12.5/s · ETA 22s".
// It draws only when stderr is a terminal (a log file or CI gets no \r noise: commands print their own summary),
// redraws in place, and clears itself on finish. Messages printed while it is shown go through log() so they
// are not overwritten.
import type { IO } from "./io.js";
import { formatDuration } from "./time-format.js";

export interface ProgressCounts {
  done: number;
  created?: number;
  failed?: number;
}

export interface ProgressOptions {
  /** Total expected, for "done/total" and the ETA; unknown totals show only counts and rate. */
  total?: number;
  /** What is being counted ("rows", "photos"). */
  unit?: string;
  /** Milliseconds since some origin; injectable for tests. */
  now?: () => number;
  /** Minimum time between redraws, so a fast loop does not flood the terminal (finish always draws). */
  minIntervalMs?: number;
  /**
   * The text of the line, for a command with more to show than counts (bytes sent, say); progressLine by default.
   * Called at each redraw, so it may read state the command keeps beside the counts.
   */
  describe?: (counts: ProgressCounts, context: { total?: number; unit?: string; elapsedMs: number }) => string;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  /** Prints a line above the progress line (clears it, writes, redraws). */
  log(text: string): void;
  /** Removes the line; the caller prints the summary. */
  finish(): void;
}

export function createProgress(io: IO, options: ProgressOptions = {}): Progress {
  if (!io.stderrIsTTY) return { update: () => undefined, log: (text) => io.err(text), finish: () => undefined };
  const now = options.now ?? (() => Date.now());
  const minInterval = options.minIntervalMs ?? 100;
  const started = now();
  let last: ProgressCounts | undefined;
  let drawnAt = -Infinity;
  let visible = false;

  const draw = () => {
    if (!last) return;
    const line = (options.describe ?? progressLine)(last, { total: options.total, unit: options.unit, elapsedMs: now() - started });
    // Longer than the terminal, the line would wrap and \r could no longer redraw it in place.
    io.err(`\r\x1b[K${line.slice(0, Math.max(10, io.columns - 1))}`);
    visible = true;
    drawnAt = now();
  };
  const clear = () => {
    if (visible) io.err("\r\x1b[K");
    visible = false;
  };
  return {
    update(counts) {
      last = counts;
      if (now() - drawnAt >= minInterval || counts.done === options.total) draw();
    },
    log(text) {
      clear();
      io.err(text);
      draw();
    },
    finish() {
      clear();
      last = undefined;
    },
  };
}

/** The text of the progress line, without control characters (exported for tests). */
export const progressLine: NonNullable<ProgressOptions["describe"]> = (counts, context) => {
  const unit = context.unit ?? "rows";
  const parts = [context.total === undefined ? `${unit} ${counts.done}` : `${unit} ${counts.done}/${context.total}`];
  if (counts.created !== undefined) parts.push(`created ${counts.created}`);
  if (counts.failed !== undefined) parts.push(`failed ${counts.failed}`);
  const seconds = context.elapsedMs / 1000;
  if (counts.done > 0 && seconds > 0) {
    const rate = counts.done / seconds;
    parts.push(`${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)}/s`);
    if (context.total !== undefined && counts.done < context.total) {
      parts.push(`ETA ${formatDuration(((context.total - counts.done) / rate) * 1000)}`);
    }
  }
  return parts.join(" · ");
};
