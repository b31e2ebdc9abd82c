// Upload progress in bytes on stderr: "reports 3/20 · 41.2 MiB of 240.0 MiB · 11.3 MiB/s". The line itself (drawn
// only on a terminal, redrawn in place at most every 100 ms, cleared for log lines and at the end) is the shared
// one of output/progress.ts; this adds what uploads count: bytes, from several uploads at once.
import type { IO } from "../output/io.js";
import { createProgress } from "../output/progress.js";
import { formatBytes } from "./wording.js";

/** Uploads report their own running total of bytes sent (`sent`); `setTotalBytes` drops reports found not to send. */
export function createByteProgress(io: IO, options: { totalBytes: number; totalReports: number; now?: () => number }) {
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
    sent(key: number, total: number) {
      bytes += total - (perUpload.get(key) ?? 0);
      perUpload.set(key, total);
      line.update({ done: reports });
    },
    reportDone() {
      reports++;
      line.update({ done: reports });
    },
    setTotalBytes(value: number) {
      totalBytes = value;
    },
    log: (text: string) => line.log(text),
    finish: () => line.finish(),
  };
}

export function byteProgressLine(s: { bytes: number; reports: number; totalBytes: number; totalReports: number; elapsedMs: number }): string {
  const parts = [`reports ${s.reports}/${s.totalReports}`, `${formatBytes(s.bytes)} of ${formatBytes(s.totalBytes)}`];
  if (s.elapsedMs > 0 && s.bytes > 0) parts.push(`${formatBytes(Math.round((s.bytes / s.elapsedMs) * 1000))}/s`);
  return parts.join(" · ");
}
