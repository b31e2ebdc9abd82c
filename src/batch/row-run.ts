// What the CSV commands that send one request per row share (`shipment update --csv`, `address add --csv`): the run
// around the journal, and the send pass: the file read again in order, each valid row either settled without a
// request (already done, in doubt, its address refused) or sent through a RowSender, then the lost answers, the
// progress line and the results.
import type { Deps } from "../deps.js";
import type { BatchKind } from "../csv/columns.js";
import { startProgress, stopProgress, withBatch, type BatchRun } from "./batch-run.js";
import { openCsvBook } from "./open-csv-book.js";
import type { Book } from "../ledger/book.js";
import { problemsText, type Outcome } from "./outcomes.js";
import { RowSender, type RowJob } from "./row-sender.js";
import type { CsvOptions } from "./run-options.js";
import { openScan, type Keyed, type ScanSpec, type ValidBase } from "../csv/scan.js";
import type { Validation } from "./validate-pass.js";

/** Runs `body` with the run's journal (none for a dry run, which writes nothing), closed however it ends. */
export async function withJournal(
  deps: Deps,
  options: CsvOptions,
  kind: Exclude<BatchKind, "address-verify">,
  body: (run: BatchRun, journal: Book | undefined) => Promise<number>,
): Promise<number> {
  return withBatch(deps, options, async (run) => {
    const journal = options.dryRun ? undefined : await openCsvBook(run, kind);
    try {
      return await body(run, journal);
    } finally {
      stopProgress(run);
      await journal?.close();
    }
  });
}

export interface RowPass<V extends ValidBase, J extends RowJob> {
  spec: ScanSpec<V>;
  validation: Validation;
  /** "created" for POST, "updated" for PATCH. */
  done: "created" | "updated";
  /** The CSV column behind a field key of a 422. */
  columnFor(field: string): string;
  /** A valid row's outcome without a request, or the job that sends it. */
  prepare(row: Extract<Keyed<V>, { ok: true }>, base: { label: string; reference?: string }): { outcome: Outcome } | { job: J };
  /** Once every request is settled: what becomes of the answers that were lost. */
  settleLost(sender: RowSender<J>): Promise<void>;
  /** Writes the results; `unreached` rows were not reached (the run stopped). */
  finish(extra: { unreached: number }): Promise<number>;
}

export async function sendRowPass<V extends ValidBase, J extends RowJob>(run: BatchRun, journal: Book, pass: RowPass<V, J>): Promise<number> {
  const { deps, options, outcomes } = run;
  const progress = startProgress(run, pass.validation.total);
  const sender = new RowSender<J>({
    book: journal,
    api: await deps.api(),
    outcomes,
    clock: deps.clock,
    signal: deps.signal,
    concurrency: options.concurrency,
    done: pass.done,
    columnFor: pass.columnFor,
    onSettled: () =>
      progress.update({ done: outcomes.size, ...(pass.done === "created" ? { created: outcomes.count("created") } : {}), failed: outcomes.count("failed") }),
  });
  const scan = await openScan(run.source, pass.spec);
  try {
    for await (const row of scan.rows) {
      if (!sender.running) break;
      const base = { label: row.label, reference: row.reference };
      if (!row.ok) {
        // Settled before (created-invalid.ts): already created, not failing.
        if (outcomes.get(row.row) === undefined) outcomes.set(row.row, { status: "failed", ...base, error: problemsText(row.problems), problems: row.problems, invalid: true });
        continue;
      }
      const next = pass.prepare(row as Extract<Keyed<V>, { ok: true }>, base);
      if ("outcome" in next) outcomes.set(row.row, next.outcome);
      else await sender.offer(next.job);
    }
  } finally {
    scan.close();
  }
  await sender.finish();
  await pass.settleLost(sender);
  stopProgress(run);
  const unreached = pass.validation.total - outcomes.size;
  if (sender.stopped !== undefined && !deps.signal.aborted) {
    await pass.finish({ unreached });
    throw sender.stopped;
  }
  return pass.finish({ unreached });
}
