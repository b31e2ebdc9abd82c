// `shipctl report upload --batch ROOT | --manifest FILE.csv --set 1|2`: many reports. Every folder is checked before
// the first upload; uploads run --concurrency at a time with a byte progress display; a journal beside the batch
// lets a rerun skip what is stored and check what lost its answer. Exit 0 when every report is stored (or already
// was), 8 when some are and some are not.
import type { Deps } from "../../deps.js";
import { ExitCode, InterruptedError } from "../../errors.js";
import { targetsFromManifest, targetsFromRoot } from "../../photos/batch-sources.js";
import { defaultJournalPath, ReportJournal } from "../../photos/journal.js";
import { confirmByOrder } from "./confirm.js";
import type { UploadOptions } from "./options.js";
import { prepareReports, type FolderProblems } from "./prepare.js";
import { previewOnly } from "./preview.js";
import { runPool } from "./pool.js";
import { createByteProgress } from "./progress.js";
import { countResults, printBatch, RESULT_LABELS } from "./render.js";
import { preflight, upload, type Preflight, type ReportOutcome } from "./send.js";

/** Shipment reads are small: more of them at once than uploads. */
const READ_CONCURRENCY = 8;

type BatchSource = { kind: "batch"; root: string } | { kind: "manifest"; file: string };

export async function uploadBatch(deps: Deps, options: UploadOptions & { source: BatchSource }): Promise<number> {
  const source = options.source;
  const list = source.kind === "batch" ? await targetsFromRoot(source.root) : await targetsFromManifest(source.file);
  const sourceProblems: FolderProblems[] = list.problems.length
    ? [{ folder: source.kind === "batch" ? source.root : source.file, problems: list.problems }]
    : [];
  const { reports, workspace } = await prepareReports(deps, list.targets, { byOrder: options.byOrder, fit: options.fit, json: deps.globals.json }, sourceProblems);
  try {
    if (options.preview) {
      await previewOnly(deps, options.preview.file, reports, options.set);
      return ExitCode.Ok;
    }
    if (options.byOrder) await confirmByOrder(deps, reports, options.yes);
    const api = await deps.api();
    const connection = await deps.connection();
    const journalPath = options.journal ?? defaultJournalPath(source.kind === "batch" ? { root: source.root } : { manifest: source.file });
    const journal = await ReportJournal.open(journalPath, connection.baseUrl, () => deps.clock.now());
    deps.io.err(
      `Uploading ${reports.length} report${reports.length === 1 ? "" : "s"} (set ${options.set}), ${options.concurrency} at a time; journal: ${journalPath}\n`,
    );
    const totalBytes = reports.reduce((n, r) => n + r.photos.reduce((m, p) => m + p.bytes, 0), 0);
    const progress = createByteProgress(deps.io, { totalBytes, totalReports: reports.length });
    let fatal: unknown;
    const ctx = {
      api,
      set: options.set,
      now: () => deps.clock.now(),
      signal: deps.signal,
      journal,
      onProgress: (key: number, bytes: number) => progress.sent(key, bytes),
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
    try {
      // Every shipment is read before the first upload, several at a time: a refusal is known early, and the
      // uploads that follow are not held up by one read each.
      const checked = await runPool(reports, Math.max(options.concurrency, READ_CONCURRENCY), (r) => guard(() => preflight(ctx, r)), keepGoing);
      const toSend: number[] = [];
      checked.forEach((c, i) => {
        if (c?.kind === "done") {
          results[i] = c.outcome;
          progress.reportDone();
        } else if (c?.kind === "go") toSend.push(i);
      });
      progress.setTotalBytes(toSend.reduce((n, i) => n + reports[i]!.photos.reduce((m, p) => m + p.bytes, 0), 0));
      await runPool(
        toSend,
        options.concurrency,
        async (i) => {
          const go = checked[i] as Extract<Preflight, { kind: "go" }>;
          const outcome = await guard(() => upload(ctx, reports[i]!, go.windowNote));
          if (outcome && outcome.exitCode !== ExitCode.Ok) progress.log(`Shipment ${outcome.shipmentId}: ${RESULT_LABELS[outcome.result]}: ${outcome.message}\n`);
          results[i] = outcome;
          progress.reportDone();
        },
        keepGoing,
      );
    } finally {
      progress.finish();
    }
    const outcomes: ReportOutcome[] = reports.map(
      (r, i) =>
        results[i] ?? {
          shipmentId: r.target.shipmentId,
          set: options.set,
          folder: r.target.label,
          result: "interrupted",
          message: "not sent: the batch stopped before this report",
          exitCode: ExitCode.Interrupted,
          bytes: 0,
        },
    );
    const counts = countResults(outcomes);
    printBatch(deps, outcomes, counts);
    deps.io.err(`${summary(counts)}\n`);
    if (deps.signal.aborted) {
      throw new InterruptedError(`interrupted: run the same command again to finish (the journal ${journalPath} remembers what was stored)`);
    }
    if (fatal !== undefined) throw fatal;
    return batchExitCode(outcomes);
  } finally {
    await workspace?.dispose();
  }
}

function summary(counts: ReturnType<typeof countResults>): string {
  const parts = [`${counts.stored} stored`];
  if (counts.already_stored) parts.push(`${counts.already_stored} already stored`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped (stored in an earlier run)`);
  if (counts.refused) parts.push(`${counts.refused} refused`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
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
