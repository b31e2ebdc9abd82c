// `shipctl report upload <shipment-id> <folder> --set 1|2`: one folder, checked, maybe fitted, then sent. Single uploads
// share one ledger in the config folder (report-ledger.ts): an upload an earlier run left in flight is settled
// before this one is sent, and this one is recorded before it leaves.
import type { Deps } from "../deps.js";
import { CliError, errorJson, ExitCode, InterruptedError, RejectedError, UsageError } from "../errors.js";
import { formatBytes } from "./wording.js";
import { confirmByOrder } from "./confirm-order.js";
import { rerunCommand, type UploadPlan } from "./upload-plan.js";
import { prepareReports, type Prepared, type PreparedReport } from "./prepare-reports.js";
import { readBeforeFitting } from "./read-before-fit.js";
import { checkPreviewFolder, previewOnly } from "./preview-only.js";
import { createByteProgress } from "./byte-progress.js";
import { printSingle } from "./render-results.js";
import { isFatal, sendReport, type ReportOutcome } from "./send-report.js";
import { withSettledLedger } from "./settled-ledger.js";

export async function uploadSingle(deps: Deps, options: UploadPlan & { source: { kind: "single" } }): Promise<number> {
  const { shipmentId, folder, label } = options.source;
  if (options.preview) await checkPreviewFolder(options.preview.file);
  const rerun = rerunCommand(options, deps.globals);
  const prepared = await prepareReports(deps, [{ shipmentId, folder, label }], {
    byOrder: options.byOrder,
    fit: options.fit,
    stripLocation: options.stripLocation,
    json: deps.globals.json,
    signal: deps.signal,
    fitLater: !options.preview,
    rerun,
  });
  const reports = prepared.reports;
  try {
    const report = reports[0]!;
    if (options.preview) {
      await previewOnly(deps, options.preview.file, reports, options.set);
      return ExitCode.Ok;
    }
    if (options.byOrder) await confirmByOrder(deps, reports, options.yes);
    const outcome = await send(deps, options, report, prepared.fitPending);
    return await present(deps, options, report, outcome);
  } finally {
    await prepared.dispose();
  }
}

async function send(deps: Deps, options: UploadPlan, report: PreparedReport, fitPending: Prepared["fitPending"]): Promise<ReportOutcome> {
  return withSettledLedger(deps, options, [report], async (base, refused) => {
    // Fit only what will be sent: a report already stored (or refused) is known from one read (read-before-fit.ts).
    const known = await readBeforeFitting(deps, [report], base, rerunCommand(options, deps.globals), refused);
    const done = known.get(0);
    if (done) return done;
    await fitPending([report]);
    // The photos' bytes: sendReport scales what the body hands on (part headers included) to them, so the count ends here.
    const totalBytes = report.photos.reduce((n, p) => n + p.bytes, 0);
    const progress = createByteProgress(deps.io, { totalBytes, totalReports: 1 });
    try {
      const ctx = { ...base, onProgress: (key: number, bytes: number) => progress.sent(key, bytes), log: (line: string) => progress.log(`${line}\n`), logOpenWindow: true };
      const outcome = await sendReport(ctx, report);
      progress.reportDone();
      return outcome;
    } catch (err) {
      // Ctrl-C before the upload started: the shipment read ended at once, and nothing was sent.
      if (deps.signal.aborted && !isFatal(err)) throw new InterruptedError("interrupted before the upload started: nothing was sent", { cause: err });
      throw err;
    } finally {
      progress.finish();
    }
  });
}

async function present(deps: Deps, options: UploadPlan, report: PreparedReport, outcome: ReportOutcome): Promise<number> {
  const { shipmentId } = report.target;
  if (outcome.exitCode === ExitCode.Ok) {
    const t = deps.theme.err;
    const what =
      outcome.result === "stored"
        ? `${t.ok("Stored")} set ${options.set} of shipment ${shipmentId}: ${report.photos.length} photos, ${formatBytes(outcome.bytes)}`
        : `${t.ok("Nothing to do:")} ${outcome.message}`;
    deps.io.alert(`${what}\n`);
    if (outcome.result === "stored" && outcome.message.includes("answer was lost")) deps.io.err(`${outcome.message}\n`);
    // Ctrl-C came while the upload was under way: it was let finish, and its outcome is recorded.
    const interrupted = deps.signal.aborted ? new InterruptedError("interrupted: the upload already under way was let finish, and is recorded") : undefined;
    await printSingle(deps, outcome, report, interrupted && errorJson(interrupted));
    if (interrupted) throw interrupted;
    return ExitCode.Ok;
  }
  const err = errorFor(outcome, rerunCommand(options, deps.globals), deps.signal.aborted);
  if (deps.globals.json) await printSingle(deps, outcome, report, errorJson(err));
  throw err;
}

/** A failed outcome as the error main() prints and maps to an exit code (130 when the run was interrupted). */
function errorFor(outcome: ReportOutcome, rerun: string, interrupted: boolean): CliError {
  const hint = outcome.result === "unknown" || outcome.result === "failed" || outcome.result === "interrupted" ? `To run it again:\n  ${rerun}` : undefined;
  if (interrupted || outcome.result === "interrupted") return new InterruptedError(outcome.message, { cause: outcome.error, hint });
  // Refused here for its photos (reused-refusal.ts), a problem with them (exit 2); otherwise by the service's rules.
  if (outcome.result === "refused" && outcome.exitCode === ExitCode.Usage) return new UsageError(outcome.message);
  if (outcome.result === "refused") return new RejectedError(outcome.message, { cause: outcome.error });
  const err = new CliError(outcome.message, { cause: outcome.error, hint });
  err.exitCode = outcome.exitCode as CliError["exitCode"];
  return err;
}
