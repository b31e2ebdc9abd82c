// What the CSV commands that send one request per row share (`shipment update --csv`, `address add --csv`): the run
// around the ledger, and the send pass: the file read again in order, each valid row either settled without a
// request (already done, in doubt, its address refused) or sent alone through the WriteSender, then the lost
// answers, the progress line and the results.
import type { Deps } from "../deps.js";
import type { BatchKind } from "../csv/columns.js";
import { startProgress, stopProgress, withBatch, type BatchRun } from "./batch-run.js";
import { openCsvLedger, type CsvRecords } from "./open-csv-ledger.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Outcome } from "./outcomes.js";
import { rowWrites, WriteSender, type RowJob, type WriteSenderOptions } from "./write-sender.js";
import type { CsvOptions } from "./run-options.js";
import { openScan, type Keyed, type ScanSpec, type ValidBase } from "../csv/scan.js";
import type { Validation } from "./validate-pass.js";
import { markInvalid } from "./before-send.js";
import type { WouldSendRows, Sends } from "./dry-run-report.js";
import type { Change } from "../csv/row-types.js";
import type { ResultWords } from "./results.js";

/** Runs `body` with the run's ledger (read-only for a dry run, which writes nothing), closed however it ends. */
export async function withLedger(
  deps: Deps,
  options: CsvOptions,
  kind: Exclude<BatchKind, "address-verify">,
  words: ResultWords,
  records: CsvRecords,
  body: (run: BatchRun, ledger: InputLedger) => Promise<number>,
): Promise<number> {
  return withBatch(deps, options, kind, words, async (run) => {
    const ledger = await openCsvLedger(run, kind, records);
    try {
      return await body(run, ledger);
    } finally {
      stopProgress(run);
      await ledger.close();
    }
  });
}

/** A sender of rows one a request for a run: its client, outcomes, clock, Ctrl-C and --concurrency. */
export async function runRowSender<J extends RowJob>(
  run: BatchRun,
  ledger: InputLedger,
  o: { done: "created" | "updated"; columnFor(field: string): string } & Pick<WriteSenderOptions<J>, "onSettled">,
): Promise<WriteSender<J>> {
  const { deps } = run;
  return new WriteSender<J>({ kind: rowWrites(o.done, o.columnFor), ledger, api: await deps.api(), outcomes: run.outcomes, clock: deps.clock, signal: deps.signal, concurrency: run.options.concurrency, onSettled: o.onSettled });
}

/** `V`: a valid row as the scan builds it, with the values it read differently (a dry run shows them). */
export type ChangedRow = ValidBase & { changes: readonly Change[] };

export interface RowPass<V extends ChangedRow, J extends RowJob> {
  spec: ScanSpec<V>;
  validation: Validation;
  /** "created" for POST, "updated" for PATCH. */
  done: "created" | "updated";
  /** What a request body is (the dry run's JSON key for it). */
  sends: Sends;
  /** The CSV column behind a field key of a 422. */
  columnFor(field: string): string;
  /** A valid row's outcome without a request, or the job that sends it. */
  prepare(row: Extract<Keyed<V>, { ok: true }>, base: { label: string; reference?: string }): { outcome: Outcome } | { job: J };
  /** Once every request is settled: what becomes of the answers that were lost. */
  settleLost(sender: WriteSender<J>): Promise<void>;
  /** Writes the results; `unreached` rows were not reached (the run stopped, for `error` when it says why). */
  finish(extra: { unreached: number; error?: unknown }): Promise<number>;
}

export async function sendRowPass<V extends ChangedRow, J extends RowJob>(run: BatchRun, ledger: InputLedger, pass: RowPass<V, J>): Promise<number> {
  if (run.wouldSend) return rehearseRowPass(run, run.wouldSend, pass);
  const { deps, outcomes } = run;
  const progress = startProgress(run, pass.validation.total);
  const sender = await runRowSender<J>(run, ledger, {
    done: pass.done,
    columnFor: pass.columnFor,
    onSettled: () =>
      progress.update({ done: outcomes.size, ...(pass.done === "created" ? { created: outcomes.count("created") } : {}), failed: outcomes.count("failed") }),
  });
  await eachRow(run, pass, () => sender.running, (job) => sender.offer(job));
  await sender.finish();
  await pass.settleLost(sender);
  stopProgress(run);
  const unreached = pass.validation.total - outcomes.size;
  if (sender.stopped !== undefined && !deps.signal.aborted) {
    await pass.finish({ unreached, error: sender.stopped });
    throw sender.stopped;
  }
  return pass.finish({ unreached });
}

/** --dry-run: every row decided as the send pass would decide it (`prepare`), nothing sent. */
async function rehearseRowPass<V extends ChangedRow, J extends RowJob>(run: BatchRun, toSend: WouldSendRows, pass: RowPass<V, J>): Promise<number> {
  await eachRow(run, pass, () => true, (job, row) => toSend.add(run.outcomes, pass.done, pass.sends, { row: row.row, label: row.label, reference: row.reference, body: job.body, changes: row.changes }));
  return pass.finish({ unreached: 0 });
}

/** The file read again in order while `running`: each valid row settled without a request, or its job given to `take`. */
async function eachRow<V extends ChangedRow, J extends RowJob>(run: BatchRun, pass: RowPass<V, J>, running: () => boolean, take: (job: J, row: V) => unknown): Promise<void> {
  const scan = await openScan(run.source, pass.spec);
  for await (const row of scan.rows) {
    if (!running()) break;
    if (!row.ok) {
      // Settled before (first-pass.ts): already created, not failing.
      if (run.outcomes.get(row.row) === undefined) markInvalid(run, [row]);
      continue;
    }
    const valid = row as Extract<Keyed<V>, { ok: true }>;
    const next = pass.prepare(valid, { label: row.label, reference: row.reference });
    if ("outcome" in next) run.outcomes.set(row.row, next.outcome);
    else await take(next.job, valid);
  }
}
