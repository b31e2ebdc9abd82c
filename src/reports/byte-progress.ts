// Upload progress in bytes on stderr: "reports 3/20 · 41.2 MiB of 240.0 MiB · 11.3 MiB/s". The line itself (drawn
// only on a terminal, redrawn in place at most every 100 ms, cleared for log lines and at the end) is the shared
// one of output/progress.ts; this adds what uploads count: bytes, from several uploads at once.
import type { IO } from "../output/io.js";
import { createProgress } from "../output/progress.js";
import { formatBytes } from "./wording.js";

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
  let totalBytes = options.totalBytes;
  let bytes = 0;
  let reports = 0;
  const perUpload = new Map<number, number>();
  const line = createProgress(io, {
    total: options.totalReports,
    now: options.now,
    describe: (counts, context) =>
      byteProgressLine({ bytes, reports: counts.done, totalBytes, totalReports: options.totalReports, elapsedMs: context.elapsedMs }),
  });
  return {
    sent(key, total) {
      bytes += total - (perUpload.get(key) ?? 0);
      perUpload.set(key, total);
      line.update({ done: reports });
    },
    reportDone() {
      reports++;
      line.update({ done: reports });
    },
    setTotalBytes(value) {
      totalBytes = value;
    },
    log: (text) => line.log(text),
    finish: () => line.finish(),
  };
}

export function byteProgressLine(s: { bytes: number; reports: number; totalBytes: number; totalReports: number; elapsedMs: number }): string {
  const parts = [`reports ${s.reports}/${s.totalReports}`, `${formatBytes(s.bytes)} of ${formatBytes(s.totalBytes)}`];
  if (s.elapsedMs > 0 && s.bytes > 0) parts.push(`${formatBytes(Math.round((s.bytes / s.elapsedMs) * 1000))}/s`);
  return parts.join(" · ");
}
