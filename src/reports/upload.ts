// `shipctl report upload`: one upload path for one folder and for a batch. Every folder is checked before anything is
// sent (prepare-reports.ts); --preview writes the contact sheet and stops; then the organization's ledger is opened
// (report-ledger.ts), its records checked to be this token's and what earlier runs left in flight
// settled (settle-earlier.ts), photos another set sent refused (reused-photos.ts), the shipments read before any photo
// is fitted, and the reports sent: one (here) or --concurrency at a time (upload-batch.ts).
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { serviceNow } from "../api/service-clock.js";
import type { Deps } from "../deps.js";
import { CliError, errorJson, ExitCode, InterruptedError, namedAs, RejectedError, UsageError } from "../errors.js";
import { mapLimit } from "../batch/pool.js";
import { InputLedger } from "../ledger/input-ledger.js";
import { seenBy } from "../ledger/owner.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import { printJson } from "../output/json.js";
import { markPhase } from "../output/phase-marks.js";
import { serviceFlags } from "../output/shell-quote.js";
import { targetsFromManifest, targetsFromRoot, type ReportTarget, type TargetList } from "./batch-sources.js";
import { confirmByOrder } from "./confirm-order.js";
import { isInside } from "./discover.js";
import { writePreview } from "./contact-sheet.js";
import { prepareReports, type PreparedReport } from "./prepare-reports.js";
import { reportKey } from "./report-ledger.js";
import { findReusedPhotos, reusedOutcomes } from "./reused-photos.js";
import { isFatal, preflight, sendReport, type ReportOutcome, type SendBase } from "./send-report.js";
import { confirmReportLedgerOwner, settleEarlierUploads, SETTLE_READS } from "./settle-earlier.js";
import { uploadAll } from "./upload-batch.js";
import { rerunCommand, type UploadPlan } from "./upload-plan.js";
import { createByteProgress } from "./progress.js";
import { printSingle } from "./render-results.js";
import { formatBytes } from "./wording.js";

export async function uploadReports(deps: Deps, options: UploadPlan): Promise<number> {
  const s = options.source;
  if (options.preview) await checkPreviewFolder(options.preview.file);
  if (s.kind === "single") {
    const list = { targets: [{ shipmentId: s.shipmentId, folder: s.folder, label: s.label }], problems: [] };
    return run(deps, options, list, "", (reports, base, known) => sendSingle(deps, reports[0]!, base, known.get(0)), (reports, outcome) => presentSingle(deps, options, reports[0]!, outcome));
  }
  const list = s.kind === "batch" ? await targetsFromRoot(s.root) : await targetsFromManifest(s.file);
  const where = s.kind === "batch" ? s.root : s.file;
  return run(deps, options, list, where, (reports, base, known) => uploadAll(deps, options, reports, base, known), async (_, code) => code);
}

/** `send` runs with the ledger open; `finish` after it is closed (every outcome written), before the fitted copies go. */
async function run<T>(
  deps: Deps,
  options: UploadPlan,
  list: TargetList,
  where: string,
  send: (reports: PreparedReport[], base: SendBase, known: ReadonlyMap<number, ReportOutcome>) => Promise<T>,
  finish: (reports: PreparedReport[], result: T) => Promise<number>,
): Promise<number> {
  const rerun = rerunCommand(options, deps.globals);
  if (options.preview) refusePreviewInFolder(options.preview.file, list.targets);
  const sourceProblems = list.problems.length ? [{ folder: where, problems: list.problems }] : [];
  const prepareOptions = {
    ...options, json: deps.globals.json, signal: deps.signal, fitLater: !options.preview, rerun,
  };
  const prepared = await prepareReports(deps, list.targets, prepareOptions, sourceProblems);
  const reports = prepared.reports;
  markPhase("report:checked");
  try {
    if (options.preview) {
      await previewOnly(deps, options.preview.file, reports, options);
      return ExitCode.Ok;
    }
    if (options.byOrder) await confirmByOrder(deps, reports, options.yes);
    const api = await deps.api();
    const ledger = await openReportLedger(deps, options.source);
    let result: T;
    try {
      // Reports recorded as stored by another token are skipped only once their shipments say so (exit 2 otherwise).
      await confirmReportLedgerOwner(ledger, { api, call: { signal: deps.signal }, say: (text) => deps.io.err(text) });
      const keys = new Set(reports.map((r) => reportKey(r.target.shipmentId, options.set)));
      const earlier = await settleEarlierUploads(deps, ledger, api, { keys, wait: options.wait, isFatal });
      const reused = await findReusedPhotos({ ledger, set: options.set, earlier, signal: deps.signal }, reports);
      // Refused for photos another set sent (none with --allow-reused): not to be sent, nor fitted.
      const refused = reusedOutcomes(deps, options.set, reports, reused, options.allowReused);
      const base: SendBase = {
        api,
        set: options.set,
        // Windows are judged on the service's clock, learnt from its answers' Date header (the shipment read).
        now: () => serviceNow(api.serviceClockOffsetMs?.(), deps.clock),
        localNow: () => deps.clock.now(),
        sleep: (ms) => deps.clock.sleep(Math.max(0, ms), deps.signal),
        signal: deps.signal,
        ledger,
        earlier,
      };
      const known = await readBeforeFitting(deps, reports, base, rerun, refused);
      await prepared.fitPending(reports.filter((_, i) => !known.has(i)));
      result = await send(reports, base, known);
    } finally {
      await ledger.close();
    }
    return await finish(reports, result);
  } finally {
    await prepared.dispose();
  }
}

/**
 * Opens the run's record in the organization's ledger, held against other runs of the same input: a batch's root or
 * a manifest (their real paths), or "report upload" for single uploads.
 */
async function openReportLedger(deps: Deps, source: UploadPlan["source"]): Promise<InputLedger> {
  const connection = await deps.connection();
  const path = source.kind === "single" ? undefined : source.kind === "batch" ? source.root : source.file;
  return InputLedger.open(deps.env, {
    kind: "report-upload",
    source: path === undefined ? "report upload" : await realpath(path).catch(() => path),
    target: { baseUrl: connection.baseUrl, token: connection.token, ledger: connection.ledger, sees: seenBy(await deps.api(), { signal: deps.signal }), say: (text) => deps.io.err(text) },
    window: await settleWindowOf(connection, deps.env),
    serviceFlags: serviceFlags(deps.globals),
  });
}

/**
 * --fit costs about a second of CPU a photo, a read a round trip: so the shipments of the reports with photos to fit
 * are read first (preflight, a few at a time). A report found done (already stored, refused by status or window) is
 * not fitted, and that verdict stands; one to be sent is read again just before its upload, so the verdict acted on is
 * fresh (a set-2 window can close while a long batch fits). Returns the reports (by index) found done, `decided` among them.
 */
async function readBeforeFitting(deps: Deps, reports: readonly PreparedReport[], base: SendBase, rerun: string, decided: ReadonlyMap<number, ReportOutcome>) {
  const known = new Map(decided);
  const toRead = reports.flatMap((r, i) => (r.pending && !known.has(i) ? [i] : []));
  if (toRead.length === 0) return known;
  // Quiet: a report to be sent is read again before its upload, and what that read finds is said then.
  const ctx = { ...base, log: () => undefined };
  const read = async (i: number) => {
    const checked = await preflight(ctx, reports[i]!);
    if (checked.kind === "done") known.set(i, checked.outcome);
  };
  try {
    await mapLimit(toRead, SETTLE_READS, read, () => !deps.signal.aborted);
  } catch (err) {
    if (isFatal(err) || !deps.signal.aborted) throw err;
  }
  if (deps.signal.aborted) {
    throw new InterruptedError("interrupted while the shipments were being read, before the photos were fitted: nothing was sent", {
      hint: `To finish, run the same command again:\n  ${rerun}`,
    });
  }
  return known;
}

/** --preview: write the contact sheet and stop, so the operator can look first and then run it without --preview. */
async function previewOnly(deps: Deps, file: string, reports: readonly PreparedReport[], { set }: UploadPlan): Promise<void> {
  const sheets = reports.map((r) => ({ title: `Shipment ${r.target.shipmentId} · set ${set}`, folder: r.target.folder, photos: r.photos }));
  try {
    await writePreview(file, sheets);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw err;
    throw new UsageError(`--preview ${file}: cannot write it (${code})`, { hint: "give a path in a folder you can write to", cause: err });
  }
  const what = reports.length === 1 ? "12 photos in upload order" : `${reports.length} reports, 12 photos each in upload order`;
  deps.io.alert(`Preview written to ${file} (${what}); nothing was sent. Run the same command without --preview to upload.\n`);
  if (deps.globals.json) printJson(deps.io, { sent: false, preview: file, reports: reports.map((r) => ({ shipment_id: r.target.shipmentId, folder: r.target.label })) });
}

/** The sheet's folder, checked before any photo is checked or fitted: a mistyped path is named at once (exit 2). */
async function checkPreviewFolder(file: string): Promise<void> {
  const folder = dirname(file);
  const info = await stat(folder).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error) {
    const why = info.code === "ENOENT" || info.code === "ENOTDIR" ? "does not exist" : `cannot be read (${info.code ?? info.message})`;
    throw new UsageError(`--preview ${file}: the folder ${folder} ${why}`, { hint: "create the folder, or give a path in one that exists" });
  }
  if (!info.isDirectory()) throw new UsageError(`--preview ${file}: ${folder} is not a folder`);
}

/**
 * A sheet written into a report folder would be read as one of its files by the run without --preview that the
 * preview says to make: a 13th file for --by-order (refused), a stray file otherwise.
 */
function refusePreviewInFolder(file: string, targets: readonly ReportTarget[]): void {
  const inside = targets.find((t) => isInside(resolve(t.folder), resolve(file)));
  if (inside === undefined) return;
  throw new UsageError(`--preview ${file}: it is inside the report folder ${inside.label}, where the upload would read it as a photo`, {
    hint: `Write the sheet outside the photo folder, such as ${join(dirname(resolve(inside.folder)), basename(file))}. Nothing was sent.`,
  });
}

/** One folder: `known` is what the reads before fitting (or the reused-photo check) already decided. */
async function sendSingle(deps: Deps, report: PreparedReport, base: SendBase, known: ReportOutcome | undefined): Promise<ReportOutcome> {
  if (known) return known;
  const progress = createByteProgress(deps.io, [report]);
  try {
    const log = (line: string) => progress.log(`${line}\n`);
    const ctx = { ...base, onProgress: progress.sent, log, logOpenWindow: true };
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

/** One folder's outcome in one line (and one JSON document with --json); a failure is thrown as its exit code. */
async function presentSingle(deps: Deps, options: UploadPlan, report: PreparedReport, outcome: ReportOutcome): Promise<number> {
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
  // Refused here for its photos (reused-photos.ts), a problem with them (exit 2); otherwise by the service's rules.
  if (outcome.result === "refused" && outcome.exitCode === ExitCode.Usage) return new UsageError(outcome.message);
  if (outcome.result === "refused") {
    const refused = new RejectedError(outcome.message, { cause: outcome.error });
    // The service's own refusal keeps its name and facts (not_found, validation_failed and its errors, http_status).
    const cause = outcome.error;
    return cause instanceof CliError && cause.exitCode === ExitCode.Rejected ? namedAs(refused, cause) : refused;
  }
  const err = new CliError(outcome.message, { cause: outcome.error, hint });
  err.exitCode = outcome.exitCode as CliError["exitCode"];
  return err;
}
