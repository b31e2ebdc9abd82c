// Upload progress in bytes on stderr: "reports 3/20 · 41.2 of 240.0 MiB · 11.3 MiB/s". Drawn only when stderr is a
// terminal (a log or CI gets the per-report lines instead), redrawn in place at most every 100 ms.
import type { IO } from "../../output/io.js";
import { formatBytes } from "../../photos/format.js";

export interface ByteProgress {
  /** Cumulative bytes sent for one upload (uploads report their own running total). */
  sent(key: number, bytes: number): void;
  /** One report finished (whatever the outcome). */
  reportDone(): void;
  /** Bytes still to send changed (reports found already stored are not sent). */
  setTotalBytes(bytes: number): void;
  /** Prints a line above the progress line. */
  log(text: string): void;
  finish(): void;
}

export interface ByteProgressOptions {
  totalBytes: number;
  totalReports: number;
  now?: () => number;
}

export function createByteProgress(io: IO, options: ByteProgressOptions): ByteProgress {
  if (!io.stderrIsTTY) {
    return { sent: () => undefined, reportDone: () => undefined, setTotalBytes: () => undefined, log: (t) => io.err(t), finish: () => undefined };
  }
  const now = options.now ?? (() => Date.now());
  const started = now();
  let totalBytes = options.totalBytes;
  const perUpload = new Map<number, number>();
  let bytes = 0;
  let reports = 0;
  let drawnAt = -Infinity;
  let visible = false;
  const draw = (force = false) => {
    if (!force && now() - drawnAt < 100) return;
    const line = byteProgressLine({ bytes, reports, elapsedMs: now() - started, totalBytes, totalReports: options.totalReports });
    io.err(`\r\x1b[K${line.slice(0, Math.max(10, io.columns - 1))}`);
    visible = true;
    drawnAt = now();
  };
  const clear = () => {
    if (visible) io.err("\r\x1b[K");
    visible = false;
  };
  return {
    sent(key, total) {
      bytes += total - (perUpload.get(key) ?? 0);
      perUpload.set(key, total);
      draw();
    },
    reportDone() {
      reports++;
      draw(true);
    },
    setTotalBytes(value) {
      totalBytes = value;
    },
    log(text) {
      clear();
      io.err(text);
      draw(true);
    },
    finish: clear,
  };
}

export function byteProgressLine(s: { bytes: number; reports: number; totalBytes: number; totalReports: number; elapsedMs: number }): string {
  const parts = [`reports ${s.reports}/${s.totalReports}`, `${formatBytes(s.bytes)} of ${formatBytes(s.totalBytes)}`];
  if (s.elapsedMs > 0 && s.bytes > 0) parts.push(`${formatBytes(Math.round((s.bytes / s.elapsedMs) * 1000))}/s`);
  return parts.join(" · ");
}
