// Progress on stderr, on the shared line of output/progress.ts (drawn only on a terminal, redrawn in place at most
// every 100 ms, cleared for log lines and at the end): uploads in bytes, "reports 3/20 · 41.2 MiB of 240.0 MiB ·
// 11.3 MiB/s", from several uploads at once; and --fit, "fitted 23/240 photos · 81.2 MiB -> 21.9 MiB · 1.9/s · about
// 1m55s left", which off a terminal (a log, CI) prints the same words as a plain line every few photos, so a long
// fitting phase still shows how far along it is.
import type { IO } from "../output/io.js";
import { createProgress } from "../output/progress.js";
import { formatDuration } from "../output/time-format.js";
import { formatBytes } from "./wording.js";

type Sized = { photos: readonly { bytes: number }[] };
/** The photos' bytes: an upload scales what its body hands on (part headers included) to them, so the count ends here. */
export const bytesOf = (report: Sized) => report.photos.reduce((n, p) => n + p.bytes, 0);

/** Uploads report their own running total of bytes sent (`sent`); `skipped` drops a report found not to send. */
export function createByteProgress(io: IO, reports: readonly Sized[], now?: () => number) {
  let totalBytes = reports.reduce((n, r) => n + bytesOf(r), 0);
  let bytes = 0;
  let done = 0;
  const perUpload = new Map<number, number>();
  const line = createProgress(io, {
    total: reports.length,
    now,
    describe: (counts, context) =>
      byteProgressLine({ bytes, reports: counts.done, totalBytes, totalReports: reports.length, elapsedMs: context.elapsedMs }),
  });
  return {
    sent(key: number, total: number) {
      bytes += total - (perUpload.get(key) ?? 0);
      perUpload.set(key, total);
      line.update({ done });
    },
    reportDone() {
      done++;
      line.update({ done });
    },
    skipped(report: Sized) {
      totalBytes -= bytesOf(report);
    },
    log: line.log,
    finish: line.finish,
  };
}

export function byteProgressLine(s: { bytes: number; reports: number; totalBytes: number; totalReports: number; elapsedMs: number }): string {
  const parts = [`reports ${s.reports}/${s.totalReports}`, `${formatBytes(s.bytes)} of ${formatBytes(s.totalBytes)}`];
  if (s.elapsedMs > 0 && s.bytes > 0) parts.push(`${formatBytes(Math.round((s.bytes / s.elapsedMs) * 1000))}/s`);
  return parts.join(" · ");
}

/** Without a terminal, one plain line per this share of the photos (and at least this many photos apart). */
const PLAIN_LINES = 10;
const PLAIN_MIN_STEP = 10;

/** `fitted`: one photo fitted (or given up on), its original size and its copy's (0 when there is none). */
export function createFitProgress(io: IO, total: number, now: () => number = () => Date.now()) {
  const started = now();
  let done = 0;
  let fromBytes = 0;
  let toBytes = 0;
  const text = (elapsedMs: number) => fitProgressLine({ done, total, fromBytes, toBytes, elapsedMs });
  const line = createProgress(io, { total, now, describe: (_counts, context) => text(context.elapsedMs) });
  const step = Math.max(PLAIN_MIN_STEP, Math.ceil(total / PLAIN_LINES));
  return {
    fitted(from: number, to: number) {
      done++;
      fromBytes += from;
      toBytes += to;
      if (io.stderrIsTTY) line.update({ done });
      else if (done % step === 0 && done < total) io.err(`${text(now() - started)}\n`);
    },
    log: line.log,
    finish: line.finish,
    /** Photos finished so far. */
    get done() {
      return done;
    },
  };
}

/** The words of the line (exported for tests): the count, the bytes read and written, the rate and the time left. */
export function fitProgressLine(s: { done: number; total: number; fromBytes: number; toBytes: number; elapsedMs: number }): string {
  const parts = [`fitted ${s.done}/${s.total} photos`];
  if (s.done > 0) parts.push(`${formatBytes(s.fromBytes)} -> ${formatBytes(s.toBytes)}`);
  if (s.done > 0 && s.elapsedMs > 0) {
    const rate = (s.done / s.elapsedMs) * 1000;
    parts.push(`${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)}/s`);
    if (s.done < s.total) parts.push(`about ${formatDuration((s.total - s.done) / rate * 1000)} left`);
  }
  return parts.join(" · ");
}

export type FitProgress = ReturnType<typeof createFitProgress>;
