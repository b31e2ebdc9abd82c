// `shipctl report upload --batch ROOT | --manifest FILE.csv --set 1|2`: many reports, once upload.ts has checked them
// and settled the ledger. Each shipment is read (status and window judged) before its own upload; uploads run
// --concurrency at a time with a byte progress display; the ledger records each upload before it is sent, so a rerun
// skips what is stored and settles what lost its answer. Exit 0 when every report is stored (or already was), 8 when
// some are and some are not.
import type { Deps } from "../deps.js";
import { errorJson, exitErrorJson, ExitCode, InterruptedError } from "../errors.js";
import { reportKey } from "./report-ledger.js";
import { rerunCommand, type UploadPlan } from "./upload-plan.js";
import type { PreparedReport } from "./prepare-reports.js";
import { markPhase } from "../output/phase-marks.js";
import { mapLimit } from "../batch/pool.js";
import { createByteProgress } from "./progress.js";
import { countResults, printBatch, resultLabel } from "./render-results.js";
import { preflight, upload, type Preflight, type ReportOutcome, type SendBase, type SendContext } from "./send-report.js";
import { formatSettleTime } from "../output/time-format.js";
import { earlierOutcome, outcomeMaker } from "./report-outcome.js";
import { SETTLE_READS } from "./settle-earlier.js";

/**
 * How many reports ahead of the uploads their shipments are read. An upload takes far longer than a read, so as
 * many as uploads at a time (two at least) keep every upload supplied; more would only read verdicts earlier than
 * needed and hold more connections and memory open at once.
 */
const readAheadFor = (uploads: number) => Math.max(uploads, 2);

export async function uploadAll(deps: Deps, options: UploadPlan, reports: PreparedReport[], base: SendBase, known: ReadonlyMap<number, ReportOutcome>): Promise<number> {
  const { ledger, earlier } = base;
  markPhase("report:ready");
  deps.io.err(`Uploading ${reports.length} report${reports.length === 1 ? "" : "s"} (set ${options.set}), ${options.concurrency} at a time; ledger record: ${ledger.path}\n`);
  const progress = createByteProgress(deps.io, reports);
  let fatal: unknown;
  const ctx: SendContext = {
    ...base,
    onProgress: progress.sent,
    log: (line: string) => progress.log(`${line}\n`),
  };
  const keepGoing = () => fatal === undefined && !deps.signal.aborted;
  // The token or the subscription: every other report would fail alike, so start no more.
  const guard = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (err) {
      fatal ??= err;
      return undefined;
    }
  };
  const results: Array<ReportOutcome | undefined> = new Array(reports.length);
  const settled = (i: number, outcome: ReportOutcome) => {
    results[i] = outcome;
    progress.reportDone();
  };
  // Found done without an upload: its bytes leave the progress total.
  const skip = (i: number, outcome: ReportOutcome) => {
    progress.skipped(reports[i]!);
    settled(i, outcome);
  };
  // What became of the reports an earlier run left in flight was settled above, and the reads before fitting found
  // others done: known without a read.
  for (const [i, report] of reports.entries()) {
    const early = earlier.get(reportKey(report.target.shipmentId, options.set));
    const outcome = known.get(i) ?? (early && earlierOutcome(early, outcomeMaker(ctx, report)));
    if (outcome) skip(i, outcome);
  }
  // Each shipment is read shortly before its upload: as a report is taken up, the reads of the next few start
  // too. So no report is sent before its status and window are judged, the verdict acted on is at most about one
  // upload old (a set-2 window can close during a long batch), the first upload waits for one read only, and
  // later reads are done while earlier reports upload.
  const readAhead = readAheadFor(options.concurrency);
  const reads: Array<Promise<Preflight | undefined> | undefined> = new Array(reports.length);
  const readFor = (i: number) => {
    // Once the batch is stopping, a report not yet read is not read (and so not sent); one already settled needs none.
    reads[i] ??= keepGoing() && results[i] === undefined ? guard(() => preflight(ctx, reports[i]!)) : Promise.resolve(undefined);
    return reads[i];
  };
  // A report the ledger calls stored needs only its confirming read (see preflight in send-report.ts): those reads start
  // at once, a few at a time, so the rerun of a finished batch waits for a few round trips rather than one per report.
  const recordedStored = reports.flatMap((r, i) => (ledger.row(reportKey(r.target.shipmentId, options.set))?.state === "stored" ? [i] : []));
  // Its reads are awaited one by one by the uploads below (readFor); a failure there is theirs to report.
  mapLimit(recordedStored, SETTLE_READS, readFor, keepGoing).catch(() => undefined);
  let firstUpload = true;
  try {
    await mapLimit(
      reports,
      options.concurrency,
      async (report, i) => {
        for (let ahead = i; ahead <= Math.min(i + readAhead, reports.length - 1); ahead++) void readFor(ahead);
        const checked = await readFor(i);
        if (checked?.kind === "done") return skip(i, checked.outcome);
        // Not read (the batch is stopping), or read while a fatal failure stopped the batch: not sent.
        if (checked === undefined || !keepGoing()) return;
        if (firstUpload) markPhase("report:first-upload");
        firstUpload = false;
        const outcome = await guard(() => upload(ctx, report, checked.windowNote));
        if (outcome && outcome.exitCode !== ExitCode.Ok) progress.log(`Shipment ${outcome.shipmentId}: ${resultLabel(outcome.result)}: ${outcome.message}\n`);
        if (outcome) settled(i, outcome);
      },
      keepGoing,
    );
    // A batch that stopped early still reports what the reads already settled (refused, already stored).
    for (const [i, read] of reads.entries()) {
      const checked = results[i] === undefined ? await read : undefined;
      if (checked?.kind === "done") settled(i, checked.outcome);
    }
  } finally {
    progress.finish();
  }
  markPhase("report:uploaded");
  const outcomes = reports.map((r, i) => results[i] ?? outcomeMaker(options, r)("interrupted", "not sent: the batch stopped before this report", ExitCode.Interrupted));
  const counts = countResults(outcomes);
  const rerun = rerunCommand(options, deps.globals);
  // What ends the run is known before the document is printed, so a script finds it there (README "Errors as JSON").
  const stop = deps.signal.aborted
    ? new InterruptedError(`interrupted: uploads already under way were let finish, and the ledger's record ${ledger.path} says what was stored`, {
        hint: `To finish, run the same command again:\n  ${rerun}`,
      })
    : fatal;
  const code = batchExitCode(outcomes);
  const error = stop !== undefined ? errorJson(stop) : code === ExitCode.Ok ? undefined : exitErrorJson(code, summary(counts));
  await printBatch(deps, outcomes, reports, counts, error);
  deps.io.alert(`${summary(counts)}\n`);
  const inFlight = outcomes.filter((o) => o.result === "unknown");
  if (inFlight.length > 0) {
    const last = Math.max(...inFlight.map((o) => o.settleAt?.getTime() ?? 0));
    const after = last > 0 ? ` after ${formatSettleTime(new Date(last))}` : "";
    deps.io.alert(
      `${deps.theme.err.warn("Note:")} the service may have stored the report${inFlight.length === 1 ? "" : "s"} marked unknown, or may still be storing ` +
        `${inFlight.length === 1 ? "it" : "them"}: not sent again. To settle ${inFlight.length === 1 ? "it" : "them"}, run the same command again${after}:\n  ${rerun}\n` +
        "The rerun reads each shipment first; nothing is sent twice.\n",
    );
  }
  if (stop !== undefined) throw stop;
  return code;
}

function summary(counts: ReturnType<typeof countResults>): string {
  const parts = [`${counts.stored} stored`];
  if (counts.already_stored) parts.push(`${counts.already_stored} already stored`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped (stored in an earlier run)`);
  if (counts.refused) parts.push(`${counts.refused} refused`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.unknown) parts.push(`${counts.unknown} unknown (in flight: not sent again)`);
  if (counts.interrupted) parts.push(`${counts.interrupted} not finished`);
  return parts.join(", ");
}

/**
 * 0 when every report is stored (now or before); 8 when some are and some are not. When none is stored, the code
 * the failures share (6 refused, 7 unavailable), or 8 when they differ.
 */
export function batchExitCode(outcomes: readonly ReportOutcome[]): number {
  const failed = outcomes.filter((o) => o.exitCode !== ExitCode.Ok);
  if (failed.length === 0) return ExitCode.Ok;
  if (failed.length < outcomes.length) return ExitCode.Partial;
  const codes = new Set(failed.map((o) => o.exitCode));
  return codes.size === 1 ? [...codes][0]! : ExitCode.Partial;
}
