// Uploads one checked report and says what became of it. Before sending, the shipment is read: a status or time
// window the service will certainly refuse stops here with the reason (nothing sent); a set the service already
// holds is "already stored". After a lost answer (the connection dropped after the body went out, or a 5xx) the
// shipment is read again: Filed (set 1) or Completed (set 2) means the report arrived. The upload is never resent
// blindly, since the service has no idempotency key.
import type { ApiClient } from "../api/types.js";
import { REPORT, shipmentStatusName, type ReportSet, type StoredShipment } from "../contract/index.js";
import { CliError, ExitCode } from "../errors.js";
import { reportBody } from "./report-body.js";
import type { ChunkPool } from "./chunk-pool.js";
import type { ReportJournal } from "../ledger/report-journal.js";
import { assessWindow, holdsReportSet } from "./window.js";
import type { PreparedReport } from "./prepare-reports.js";

export type ReportResult = "stored" | "already_stored" | "skipped" | "refused" | "failed" | "interrupted";

export interface ReportOutcome {
  shipmentId: number;
  set: ReportSet;
  folder: string;
  result: ReportResult;
  /** One sentence for people: why, or what happened. */
  message: string;
  /** 0 for stored/already stored/skipped; otherwise the exit code this outcome alone would give. */
  exitCode: number;
  /** Bytes of photos sent (0 when nothing was sent). */
  bytes: number;
  /** What the shipment read before sending said about the time window, when it was read. */
  window?: string;
  /** The error behind a failure, for single uploads to rethrow as is. */
  error?: unknown;
}

export interface SendContext {
  api: ApiClient;
  set: ReportSet;
  now: () => Date;
  signal: AbortSignal;
  journal?: ReportJournal;
  /**
   * Outcomes (stored, failed) go to the journal without waiting for the disk, so the next upload starts at once;
   * the caller flushes the journal at the end. Intents are always waited for: nothing is sent before its intent
   * is on disk.
   */
  outcomesInBackground?: boolean;
  /** Bytes sent so far by this upload (cumulative), for the progress display. */
  onProgress?: (shipmentId: number, bytesSent: number) => void;
  /** A line of talk for stderr (a lost answer being checked, a shipment that could not be read). */
  log: (line: string) => void;
  /** Also say when the window is open and how long is left (single uploads; a batch shows it in the results). */
  logOpenWindow?: boolean;
  /** Read buffers shared by the uploads of a batch (see chunk-pool.ts). */
  chunkPool?: ChunkPool;
}


/** Facts every API failure carries (src/api/errors.ts); read by shape so fakes in tests work alike. */
interface FailureFacts {
  status?: number;
  mayHaveArrived?: boolean;
  exitCode?: number;
}

function facts(err: unknown): FailureFacts {
  return typeof err === "object" && err !== null ? (err as FailureFacts) : {};
}

/** Not about this report: the token, the subscription. Every other report would fail the same way. */
export function isFatal(err: unknown): boolean {
  return err instanceof CliError && (err.exitCode === ExitCode.Auth || err.exitCode === ExitCode.Payment);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The first half of sending: skip what the journal says is stored, read the shipment, judge its window. */
export type Preflight = { kind: "done"; outcome: ReportOutcome } | { kind: "go"; windowNote: string };

function outcomeMaker(ctx: SendContext, report: PreparedReport) {
  const base = { shipmentId: report.target.shipmentId, set: ctx.set, folder: report.target.label, bytes: 0 };
  return (result: ReportResult, message: string, exitCode: number = ExitCode.Ok, extra: Partial<ReportOutcome> = {}): ReportOutcome => ({
    ...base,
    result,
    message,
    exitCode,
    ...extra,
  });
}

export async function sendReport(ctx: SendContext, report: PreparedReport): Promise<ReportOutcome> {
  const checked = await preflight(ctx, report);
  return checked.kind === "done" ? checked.outcome : upload(ctx, report, checked.windowNote);
}

export async function preflight(ctx: SendContext, report: PreparedReport): Promise<Preflight> {
  const { shipmentId, label: folder } = report.target;
  const done = outcomeMaker(ctx, report);
  const entry = ctx.journal?.get(shipmentId, ctx.set);
  // "Stored" in the journal is confirmed by the same read as every other report: a journal can outlive what it
  // describes (a sandbox restarted with the same token, a shipment recreated under a reused id), and a report it
  // calls stored that the service does not hold would otherwise never be sent.
  const journaled = entry?.state === "stored" ? `journal, ${entry.updated_at}` : undefined;
  let checked: Preflight;
  try {
    const shipment = await ctx.api.getShipment(shipmentId, { signal: ctx.signal });
    if (journaled && holdsReportSet(shipment.status, ctx.set)) return { kind: "done", outcome: done("skipped", `already stored (${journaled})`) };
    if (journaled) {
      ctx.log(
        `Shipment ${shipmentId}: the journal says set ${ctx.set} was stored (${entry!.updated_at}), but the shipment is ` +
          `${shipmentStatusName(shipment.status)} (${shipment.status}), which does not hold it: treated as not stored`,
      );
    }
    checked = await judge(ctx, report, shipment);
  } catch (err) {
    if (isFatal(err) || ctx.signal.aborted) throw err;
    if (facts(err).status === 404) {
      const message = `shipment ${shipmentId} was not found (or belongs to another organization); nothing sent`;
      await recordOutcome(ctx, shipmentId, folder, "failed", message);
      return { kind: "done", outcome: done("refused", message, ExitCode.Rejected, { error: err }) };
    }
    // Unconfirmed, the journal's word stands: sending again a report the service holds would only be refused.
    if (journaled) return { kind: "done", outcome: done("skipped", `already stored (${journaled}; the shipment could not be read to confirm: ${messageOf(err)})`) };
    // The read is a courtesy: without it the service still judges the upload, and its answer is explained after.
    const windowNote = `the shipment could not be read first (${messageOf(err)})`;
    ctx.log(`Shipment ${shipmentId}: ${windowNote}; uploading anyway, the service will decide`);
    return { kind: "go", windowNote };
  }
  // A batch records intents only for reports the journal does not call stored; this one is about to be sent too.
  if (journaled && checked.kind === "go") await recordIntent(ctx, report);
  return checked;
}

/** The verdict of a shipment read: already stored, certainly refused (nothing sent), or go. */
async function judge(ctx: SendContext, report: PreparedReport, shipment: StoredShipment): Promise<Preflight> {
  const { shipmentId, label: folder } = report.target;
  const done = outcomeMaker(ctx, report);
  const verdict = assessWindow(shipment, ctx.set, ctx.now());
  if (verdict.kind === "stored") {
    await recordOutcome(ctx, shipmentId, folder, "stored", verdict.message);
    return { kind: "done", outcome: done("already_stored", `${verdict.message}: nothing sent`) };
  }
  if (verdict.kind === "refused") {
    const message = `${verdict.message}; nothing sent (${verdict.hint})`;
    await recordOutcome(ctx, shipmentId, folder, "failed", message);
    return { kind: "done", outcome: done("refused", message, ExitCode.Rejected) };
  }
  if (verdict.kind === "unsure" || ctx.logOpenWindow) ctx.log(`Shipment ${shipmentId}: ${verdict.message}`);
  return { kind: "go", windowNote: verdict.message };
}

/**
 * Records in the journal that the report is about to be sent, and waits until that is on disk: from then on a rerun
 * reads the shipment before sending again (as it does for any report not marked stored). A batch records every
 * report's intent in one write before its first upload (see batch.ts).
 */
export async function recordIntent(ctx: SendContext, report: PreparedReport): Promise<void> {
  await ctx.journal?.record(report.target.shipmentId, ctx.set, report.target.label, "sending");
}

/** Writes what became of a report: waited for, or (outcomesInBackground) left to finish while the batch goes on. */
async function recordOutcome(ctx: SendContext, shipmentId: number, folder: string, state: "stored" | "failed", detail?: string): Promise<void> {
  if (ctx.outcomesInBackground) ctx.journal?.note(shipmentId, ctx.set, folder, state, detail);
  else await ctx.journal?.record(shipmentId, ctx.set, folder, state, detail);
}

/** The second half: record the intent (unless already recorded), send the body, and learn what became of it. */
export async function upload(
  ctx: SendContext,
  report: PreparedReport,
  windowNote: string,
  options: { intentRecorded?: boolean } = {},
): Promise<ReportOutcome> {
  const { shipmentId, label: folder } = report.target;
  const done = outcomeMaker(ctx, report);
  // The body counts what it hands to the connection, so the HTTP layer passes it on with no counting stage.
  const onProgress = ctx.onProgress;
  const body = reportBody(report.photos, {
    onProgress: onProgress ? (sent) => onProgress(shipmentId, sent) : undefined,
    pool: ctx.chunkPool,
  });
  const bytes = report.photos.reduce((n, p) => n + p.bytes, 0);
  if (!options.intentRecorded) await recordIntent(ctx, report);
  try {
    await ctx.api.uploadReport(shipmentId, ctx.set, body, { signal: ctx.signal });
  } catch (err) {
    body.release();
    return await afterFailure(ctx, report, err, windowNote, done, bytes);
  }
  // Settled: the connection has sent (or dropped) every byte, so the read buffers can serve the next upload.
  body.release();
  await recordOutcome(ctx, shipmentId, folder, "stored");
  return done("stored", `stored ${report.photos.length} photos`, ExitCode.Ok, { bytes, window: windowNote || undefined });
}

async function afterFailure(
  ctx: SendContext,
  report: PreparedReport,
  err: unknown,
  windowNote: string,
  done: (result: ReportResult, message: string, exitCode?: number, extra?: Partial<ReportOutcome>) => ReportOutcome,
  bytes: number,
): Promise<ReportOutcome> {
  const { shipmentId, label: folder } = report.target;
  if (isFatal(err)) throw err;
  if (ctx.signal.aborted) {
    // The journal keeps "sending": the rerun reads the shipment before deciding to send again.
    return done("interrupted", "interrupted while uploading; run the same command again to check and finish", ExitCode.Interrupted, { error: err });
  }
  const f = facts(err);
  if (f.mayHaveArrived) return reconcile(ctx, report, err, done, bytes);
  if (f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 429) {
    const reason = refusalText(err, report);
    const context = windowNote ? ` (before sending: ${windowNote})` : "";
    await recordOutcome(ctx, shipmentId, folder, "failed", reason);
    return done("refused", `the service refused the report: ${reason}${context}`, ExitCode.Rejected, { error: err });
  }
  await recordOutcome(ctx, shipmentId, folder, "failed", messageOf(err));
  return done("failed", `not stored: ${messageOf(err)}`, f.exitCode ?? ExitCode.Failure, { error: err });
}

/** The answer was lost: read the shipment back to learn whether the report arrived. */
async function reconcile(
  ctx: SendContext,
  report: PreparedReport,
  err: unknown,
  done: (result: ReportResult, message: string, exitCode?: number, extra?: Partial<ReportOutcome>) => ReportOutcome,
  bytes: number,
): Promise<ReportOutcome> {
  const { shipmentId, label: folder } = report.target;
  ctx.log(`Shipment ${shipmentId}: the answer was lost (${messageOf(err)}); reading the shipment to see whether the report arrived`);
  let shipment: StoredShipment;
  try {
    shipment = await ctx.api.getShipment(shipmentId, { signal: ctx.signal });
  } catch (readErr) {
    if (isFatal(readErr)) throw readErr;
    return done(
      "failed",
      `the answer was lost and the shipment could not be read back (${messageOf(readErr)}); run the same command again: it checks before sending`,
      ExitCode.Unavailable,
      { error: err },
    );
  }
  if (holdsReportSet(shipment.status, ctx.set)) {
    await recordOutcome(ctx, shipmentId, folder, "stored", "confirmed by reading the shipment after a lost answer");
    return done("stored", `stored: the answer was lost, but the shipment is now ${shipmentStatusName(shipment.status)}, so the report arrived`, ExitCode.Ok, { bytes });
  }
  await recordOutcome(ctx, shipmentId, folder, "failed", "lost answer; not stored");
  return done(
    "failed",
    `the answer was lost and the shipment is still ${shipmentStatusName(shipment.status)}: the report was not stored; run the same command again to send it`,
    ExitCode.Unavailable,
    { error: err },
  );
}

/** The service's reason, with `box.2`-style keys turned into the side and the file the operator knows. */
function refusalText(err: unknown, report: PreparedReport): string {
  const errors = (err as { errors?: Record<string, string[]> }).errors;
  if (!errors || Object.keys(errors).length === 0) return messageOf(err);
  return Object.entries(errors)
    .map(([key, messages]) => {
      const m = /^(box|art)(?:\.(\d+))?/.exec(key);
      const index = m?.[2] === undefined ? undefined : Number(m[2]);
      const side = index === undefined ? undefined : REPORT.sides[index];
      const photo = side ? report.photos.find((p) => p.group === m![1] && p.side === side) : undefined;
      const where = photo ? `${key} (${photo.group} ${photo.side}, ${photo.file})` : key;
      return `${where}: ${messages.join(" ")}`;
    })
    .join("; ");
}
