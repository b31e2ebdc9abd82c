// One folder's upload (`shipctl report upload <shipment-id> <folder> --set 1|2`), once upload.ts has checked it and
// settled the ledger: sent with a byte progress line, then said in one line (and one JSON document with --json).
import type { Deps } from "../deps.js";
import { CliError, errorJson, ExitCode, InterruptedError, RejectedError, UsageError } from "../errors.js";
import { formatBytes } from "./wording.js";
import { rerunCommand, type UploadPlan } from "./upload-plan.js";
import type { PreparedReport } from "./prepare-reports.js";
import { createByteProgress } from "./progress.js";
import { printSingle } from "./render-results.js";
import { isFatal, sendReport, type ReportOutcome, type SendBase } from "./send-report.js";

/** `known`: what the reads before fitting (or the reused-photo check) already decided. */
export async function sendSingle(deps: Deps, report: PreparedReport, base: SendBase, known: ReportOutcome | undefined): Promise<ReportOutcome> {
  if (known) return known;
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
}

export async function presentSingle(deps: Deps, options: UploadPlan, report: PreparedReport, outcome: ReportOutcome): Promise<number> {
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
