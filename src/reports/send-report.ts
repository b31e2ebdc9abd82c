// Uploads one checked report and says what became of it. Before sending, the shipment is read: a status or time window
// the service will certainly refuse stops here with the reason (nothing sent); a set the service already holds is
// "already stored". The service has no idempotency key, so the upload's intent is recorded in the ledger before it is
// sent (in flight), and the moment its last byte is handed to the connection (InputLedger.markSent): a body that never
// left whole was not applied. After a lost answer (the connection dropped after the whole body went out, or a 5xx) the
// shipment is read again: Filed (set 1) or Completed (set 2) means the report arrived. Otherwise it stays in flight
// until its settle time, never resent in this run; but a 5xx of the service's own ends the upload
// (ledger/settle-window.ts): read after a lagging read's allowance, a report not there failed, and a rerun sends it.
import type { ApiClient } from "../api/client-types.js";
import { shipmentStatusName, type ReportSet, type StoredShipment } from "../contract/index.js";
import { CliError, ExitCode, LeaseLapsed, messageOf } from "../errors.js";
import { LedgerConflict, type InputLedger, type RowState } from "../ledger/input-ledger.js";
import { answeredByService, settleAtFromIntent } from "../ledger/settle-window.js";
import { reportBody } from "./report-body.js";
import { reportKey } from "./report-ledger.js";
import { recordSentPhotos } from "./reused-photos.js";
import type { Earlier } from "./settle-earlier.js";
import { formatSettleTime } from "../output/time-format.js";
import { earlierOutcome, inFlightElsewhere, outcomeMaker, refusalText, type ReportOutcome } from "./report-outcome.js";
import { bytesOf } from "./progress.js";
import { assessWindow, holdsReportSet } from "./window.js";
import type { PreparedReport } from "./prepare-reports.js";

export type { ReportOutcome, ReportResult } from "./report-outcome.js";

export interface SendContext {
  api: ApiClient;
  set: ReportSet;
  /** The service's now (windows are judged on its clock). */
  now: () => Date;
  /** This machine's now: the times the ledger records (an intent, the last byte leaving). */
  localNow: () => Date;
  /** The run stops (Ctrl-C): no upload starts, reads end; uploads already sending go on (the API lets them). */
  signal: AbortSignal;
  /**
   * The run's ledger. Intents are waited for (nothing is sent before its intent is on disk); outcomes are noted
   * without waiting, so the next upload starts at once, and the caller's close() writes them.
   */
  ledger: InputLedger;
  /** Reports an earlier run left in flight that this run must not send (settle-earlier.ts). */
  earlier?: ReadonlyMap<string, Earlier>;
  /** Bytes sent so far by this upload (cumulative), for the progress display. */
  onProgress?: (shipmentId: number, bytesSent: number) => void;
  /** A line of talk for stderr (a lost answer being checked, a shipment that could not be read). */
  log: (line: string) => void;
  /** Also say when the window is open and how long is left (single uploads; a batch shows it in the results). */
  logOpenWindow?: boolean;
  /** Waits on the run's clock; rejects when the run stops. */
  sleep: (ms: number) => Promise<void>;
}

/** What every upload of the run shares (upload.ts); the caller adds its progress and talk. */
export type SendBase = Pick<SendContext, "api" | "set" | "now" | "localNow" | "sleep" | "signal" | "ledger"> & { earlier: ReadonlyMap<string, Earlier> };

/**
 * Facts every API failure carries (src/api/api-errors.ts); read by shape so fakes in tests work alike (anything else
 * thrown reads as none of them).
 */
function facts(err: unknown): { status?: number; mayHaveArrived?: boolean; exitCode?: number } {
  return err ?? {};
}

/** Not about this report: the token, the subscription. Every other report would fail the same way. */
export function isFatal(err: unknown): boolean {
  return err instanceof CliError && (err.exitCode === ExitCode.Auth || err.exitCode === ExitCode.Payment);
}

/** The shared ledger's lease lapsed (LeaseLapsed), as the HTTP layer hands it back: the cause of the body's failure. */
function leaseLapsed(err: unknown): LeaseLapsed | undefined {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof LeaseLapsed) return e;
  return undefined;
}

/** The first half of sending: skip what the ledger says is stored or in flight, read the shipment, judge its window. */
export type Preflight = { kind: "done"; outcome: ReportOutcome } | { kind: "go"; windowNote: string };

export async function sendReport(ctx: SendContext, report: PreparedReport): Promise<ReportOutcome> {
  const checked = await preflight(ctx, report);
  return checked.kind === "done" ? checked.outcome : upload(ctx, report, checked.windowNote);
}

export async function preflight(ctx: SendContext, report: PreparedReport): Promise<Preflight> {
  const { shipmentId } = report.target;
  const done = outcomeMaker(ctx, report);
  const key = reportKey(shipmentId, ctx.set);
  const earlier = ctx.earlier?.get(key);
  if (earlier) return { kind: "done", outcome: earlierOutcome(earlier, done) };
  // One ledger per organization: the report may be another input's entry (a batch, a manifest, a single upload).
  const other = ctx.ledger.row(key) === undefined ? await ctx.ledger.store.find(ctx.ledger.ledgerKey(key)) : undefined;
  if (other?.state.state === "in_flight" && other.input !== ctx.ledger.source) return { kind: "done", outcome: inFlightElsewhere(other.input, other.state, done) };
  const entry = ctx.ledger.row(key) ?? other?.state;
  // "Stored" in the ledger is confirmed by the same read as every other report: a ledger can outlive what it describes
  // (a sandbox restarted with the same token, a shipment recreated under a reused id), and a report it calls stored
  // that the service does not hold would otherwise never be sent.
  const storedAt = entry?.state === "stored" ? (entry.at ?? "an earlier run") : undefined;
  const recorded = storedAt === undefined ? undefined : `ledger, ${storedAt}`;
  try {
    const shipment = await ctx.api.getShipment(shipmentId, { signal: ctx.signal });
    if (recorded && holdsReportSet(shipment.status, ctx.set)) return { kind: "done", outcome: done("skipped", `already stored (${recorded})`) };
    if (recorded) {
      const contradiction =
        `the ledger says set ${ctx.set} was stored (${storedAt}), but the shipment is ` +
        `${shipmentStatusName(shipment.status)} (${shipment.status}), which does not hold it`;
      ctx.log(`Shipment ${shipmentId}: ${contradiction}: treated as not stored`);
      // The entry is corrected before anything else: a stored entry is never claimed again (its write is done), a
      // failed one is, so the upload below may send it. Noted without waiting: the claim waits for it (InputLedger.record).
      note(ctx, report, { state: "failed", error: `not stored: ${contradiction}` });
    }
    return judge(ctx, report, shipment);
  } catch (err) {
    if (isFatal(err) || ctx.signal.aborted) throw err;
    if (facts(err).status === 404) {
      const message = `shipment ${shipmentId} was not found (or belongs to another organization); nothing sent`;
      note(ctx, report, { state: "failed", error: message });
      return { kind: "done", outcome: done("refused", message, ExitCode.Rejected, { error: err }) };
    }
    // Unconfirmed, the ledger's word stands: sending again a report the service holds would only be refused.
    if (recorded) return { kind: "done", outcome: done("skipped", `already stored (${recorded}; the shipment could not be read to confirm: ${messageOf(err)})`) };
    // The read is a courtesy: without it the service still judges the upload, and its answer is explained after.
    const windowNote = `the shipment could not be read first (${messageOf(err)})`;
    ctx.log(`Shipment ${shipmentId}: ${windowNote}; uploading anyway, the service will decide`);
    return { kind: "go", windowNote };
  }
}

/** The verdict of a shipment read: already stored, certainly refused (nothing sent), or go. */
function judge(ctx: SendContext, report: PreparedReport, shipment: StoredShipment): Preflight {
  const { shipmentId } = report.target;
  const done = outcomeMaker(ctx, report);
  const verdict = assessWindow(shipment, ctx.set, ctx.now());
  if (verdict.kind === "stored") {
    note(ctx, report, stored(ctx, report));
    return { kind: "done", outcome: done("already_stored", `${verdict.message}: nothing sent`) };
  }
  if (verdict.kind === "refused") {
    const message = `${verdict.message}; nothing sent (${verdict.hint})`;
    note(ctx, report, { state: "failed", error: message });
    return { kind: "done", outcome: done("refused", message, ExitCode.Rejected) };
  }
  if (verdict.kind === "unsure" || ctx.logOpenWindow) ctx.log(`Shipment ${shipmentId}: ${verdict.message}`);
  return { kind: "go", windowNote: verdict.message };
}

/** Writes what became of a report without waiting for the disk (see SendContext.ledger). */
function note(ctx: SendContext, report: PreparedReport, state: RowState): void {
  ctx.ledger.note([[reportKey(report.target.shipmentId, ctx.set), state]]);
}

function stored(ctx: SendContext, report: PreparedReport): RowState {
  return { state: "stored", id: report.target.shipmentId, at: ctx.localNow().toISOString() };
}

/**
 * The second half: record the intent (in flight, on disk before anything is sent), send the body (its last byte
 * recorded as it leaves), and learn what became of it.
 */
export async function upload(ctx: SendContext, report: PreparedReport, windowNote: string): Promise<ReportOutcome> {
  const { shipmentId } = report.target;
  const key = reportKey(shipmentId, ctx.set);
  const done = outcomeMaker(ctx, report);
  const at = ctx.localNow();
  // Its settle time is known once its last byte left (markSent): a 12 MB body may take minutes to send.
  try {
    await ctx.ledger.record([
      [key, { state: "in_flight", at: at.toISOString(), attempt: ctx.ledger.nextAttempt(), settle_at: settleAtFromIntent(at, ctx.ledger.window).toISOString(), await_sent: true }],
    ]);
  } catch (err) {
    // Another run claimed it since it was read (its claim is the ledger's word): this report is not sent, the rest go on.
    if (!(err instanceof LedgerConflict)) throw err;
    const held = await ctx.ledger.store.find(ctx.ledger.ledgerKey(key));
    if (held?.state.state === "in_flight") return inFlightElsewhere(held.input, held.state, done);
    return done("failed", `not sent: ${err.message}`, err.exitCode, { error: err });
  }
  // Claimed: its photos are named its own before they leave, so a set sent after this one finds them (reused-photos.ts).
  await recordSentPhotos(ctx.ledger, ctx.set, report, at);
  if (ctx.signal.aborted) {
    // Stopped while the intent was being written: no new upload starts.
    note(ctx, report, { state: "failed", error: "not sent: the run was interrupted first" });
    return done("interrupted", "not sent: the run was interrupted before this upload started", ExitCode.Interrupted);
  }
  // The body counts part headers and delimiters too, while the progress total is the photos' bytes: scaled to them,
  // the count ends at exactly the photos' size.
  const onProgress = ctx.onProgress;
  const bytes = bytesOf(report);
  try {
    const body = await reportBody(report.photos, {
      onProgress: onProgress ? (sent) => onProgress(shipmentId, Math.floor((sent * bytes) / body.length)) : undefined,
      onLastChunk: () => ctx.ledger.markSent(key, ctx.localNow()),
    });
    await ctx.api.uploadReport(shipmentId, ctx.set, body, { signal: ctx.signal });
  } catch (err) {
    // Cut short before its last byte (markSent): never sent whole; it stays in flight, and the run stops by its name.
    const lapsed = leaseLapsed(err);
    if (lapsed !== undefined) throw lapsed;
    return await afterFailure(ctx, report, err, windowNote);
  }
  note(ctx, report, stored(ctx, report));
  return done("stored", `stored ${report.photos.length} photos`, ExitCode.Ok, { bytes, window: windowNote || undefined });
}

async function afterFailure(ctx: SendContext, report: PreparedReport, err: unknown, windowNote: string) {
  const done = outcomeMaker(ctx, report);
  const f = facts(err);
  const key = reportKey(report.target.shipmentId, ctx.set);
  const flight = ctx.ledger.row(key);
  // Sent whole (its last byte handed to the connection: markSent), the service may have it: unless the answer says
  // otherwise (a refusal), or the failure is not the HTTP layer's (which always says whether the request may have
  // arrived).
  if (f.mayHaveArrived !== false && flight?.state === "in_flight" && flight.sent_at !== undefined) {
    if (answeredByService(f.status)) ctx.ledger.markAnswered([key], ctx.localNow(), f.status);
    // Reads end at once when the run stops: the rerun settles it.
    if (ctx.signal.aborted) return inFlight(ctx, report, `sent, and its answer did not come before the run stopped (${messageOf(err)})`, err);
    return reconcile(ctx, report, err);
  }
  // Refused, or never sent whole: the service did not apply it, so a rerun sends it again.
  note(ctx, report, { state: "failed", error: messageOf(err) });
  if (isFatal(err)) throw err;
  if (f.mayHaveArrived) {
    return done("failed", `not stored: the connection failed before the whole report was sent (${messageOf(err)}), so the service did not apply it; run the same command again to send it`, f.exitCode ?? ExitCode.Unavailable, { error: err });
  }
  if (f.exitCode === ExitCode.Interrupted) return done("interrupted", "not sent: the run was interrupted before the upload left", ExitCode.Interrupted, { error: err });
  if (f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 429) {
    const reason = refusalText(err, report);
    const context = windowNote ? ` (before sending: ${windowNote})` : "";
    return done("refused", `the service refused the report: ${reason}${context}`, ExitCode.Rejected, { error: err });
  }
  return done("failed", `not stored: ${messageOf(err)}`, f.exitCode ?? ExitCode.Failure, { error: err });
}

/** The answer was lost after the whole body went out: read the shipment back, once, to learn whether it arrived. */
async function reconcile(ctx: SendContext, report: PreparedReport, err: unknown): Promise<ReportOutcome> {
  const { shipmentId } = report.target;
  const done = outcomeMaker(ctx, report);
  const bytes = bytesOf(report);
  ctx.log(`Shipment ${shipmentId}: the answer was lost (${messageOf(err)}); reading the shipment to see whether the report arrived`);
  const flight = ctx.ledger.row(reportKey(shipmentId, ctx.set));
  const answered = flight?.state === "in_flight" && flight.answer_status !== undefined ? flight : undefined;
  let shipment: StoredShipment;
  try {
    // Answered by the service itself, the upload is over: a read after a lagging read's allowance is conclusive.
    if (answered) await ctx.sleep(Date.parse(answered.settle_at) - ctx.localNow().getTime());
    shipment = await ctx.api.getShipment(shipmentId, { signal: ctx.signal });
  } catch (readErr) {
    if (isFatal(readErr)) throw readErr;
    return inFlight(ctx, report, `the answer was lost and the shipment could not be read back (${messageOf(readErr)})`, err);
  }
  if (holdsReportSet(shipment.status, ctx.set)) {
    note(ctx, report, stored(ctx, report));
    return done("stored", `stored: the answer was lost, but the shipment is now ${shipmentStatusName(shipment.status)}, so the report arrived`, ExitCode.Ok, { bytes });
  }
  if (answered) {
    const message = `not stored: the service answered ${answered.answer_status}, and the shipment is still ${shipmentStatusName(shipment.status)}, so the report did not arrive; run the same command again to send it`;
    note(ctx, report, { state: "failed", error: message });
    return done("failed", message, ExitCode.Unavailable, { error: err, bytes });
  }
  return inFlight(ctx, report, `the answer was lost and the shipment is still ${shipmentStatusName(shipment.status)}`, err);
}

/** Sent whole, outcome unknown: it stays in flight in the ledger until its settle time, and is not sent again now. */
function inFlight(ctx: SendContext, report: PreparedReport, why: string, err: unknown): ReportOutcome {
  const state = ctx.ledger.row(reportKey(report.target.shipmentId, ctx.set));
  const settleAt = new Date(state?.state === "in_flight" ? state.settle_at : ctx.localNow());
  const message = `${why}: the service may still be applying it until ${formatSettleTime(settleAt)}, so it is not sent again now; run the same command again after then to settle it`;
  return outcomeMaker(ctx, report)("unknown", message, ExitCode.Unavailable, { error: err, bytes: bytesOf(report), settleAt });
}
