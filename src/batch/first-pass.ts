// The first pass of every CSV command, before anything is sent: every row read and checked (validate-pass.ts), what
// it read differently noted, the rows the ledger holds done counted, all problems reported at once; then the run
// stops with exit 2 on invalid rows (without --skip-invalid), and a run that creates stops on rows another input
// already sent (copy-guard.ts). The caller keeps what it needs of the valid rows (distinct addresses, ids) through
// `onValid`, and ends the run through the `finish` it gets back.
import { resolve } from "node:path";
import { ExitCode, UsageError } from "../errors.js";
import type { BatchRun } from "./batch-run.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { EarlierSends } from "../ledger/copy-guard.js";
import { serviceFlags } from "../output/shell-quote.js";
import { Notes } from "../csv/value-notes.js";
import type { Keyed, ScanSpec, ValidBase } from "../csv/scan.js";
import type { InvalidRow } from "../csv/row-types.js";
import type { Mapping } from "../csv/table-cells.js";
import { renderProblems, unknownColumnsWarning, validCountLine } from "../csv/problems-report.js";
import { errorsPathFor } from "../csv/results-csv.js";
import { finishRun, type FinishInput } from "./finish.js";
import { markInvalid } from "./before-send.js";
import { validatePass, type Validation } from "./validate-pass.js";

/** What the pass needs of a valid row: what it read differently and which names it mapped (the notes). */
type PassBase = ValidBase & { mappings: readonly Mapping[] };

/** A valid row of the pass, with its ledger key ("" when the scan computes none). */
type PassRow<V extends PassBase> = Extract<Keyed<V>, { ok: true }>;

/** Ends the run: results, summary, exit code. `unreached` rows were not reached (the run stopped, for `error`). */
export type Finish = (extra?: Pick<FinishInput, "exitCode" | "error" | "plan"> & { unreached?: number }) => Promise<number>;

export interface FirstPassOptions<V extends PassBase> {
  /** How this pass reads the rows (a pass that looks rows up in the ledger needs their keys). */
  scan: ScanSpec<V>;
  /** What every end of the run tells finishRun besides the notes, the ledger and what `finish` is given. */
  finish: Pick<FinishInput, "words" | "command" | "spec" | "perRequest">;
  /** Whether the ledger holds the row done already (default: created): counted, and not to be sent again. */
  done?(row: PassRow<V>): boolean;
  onValid(row: PassRow<V>, done: boolean): void;
  onInvalid?(row: InvalidRow): void;
  /** Once every row is read, before anything is reported or refused. */
  read?(validation: Validation): void;
  /**
   * A run that creates: its rows already sent from another input stop it (copy-guard.ts), and its invalid rows
   * already created are settled (settleCreatedInvalid).
   */
  creates?: boolean;
}

export async function firstPass<V extends PassBase>(
  run: BatchRun,
  ledger: InputLedger | undefined,
  o: FirstPassOptions<V>,
): Promise<{ validation: Validation; doneEarlier: number; finish: Finish; refused?: number }> {
  const notes = new Notes({ perRow: run.options.results !== undefined });
  // A first run of a copy of a file already sent must not send its rows again (copy-guard.ts).
  const earlier = o.creates && ledger ? new EarlierSends(ledger) : undefined;
  const done = o.done ?? ((row: PassRow<V>) => ledger?.row(row.key)?.state === "created");
  let doneEarlier = 0;
  const validation = await validatePass(
    run.source,
    o.scan,
    run.deps.signal,
    (row) => {
      notes.add(row.row, row.changes, row.mappings);
      const isDone = done(row);
      if (isDone) doneEarlier++;
      o.onValid(row, isDone);
      return earlier?.see(row.key);
    },
    o.onInvalid,
  );
  o.read?.(validation);
  if (earlier && ledger) settleCreatedInvalid(run, ledger, validation);
  reportValidation(run, validation, notes, doneEarlier);
  const finish: Finish = (extra = {}) =>
    finishRun(run, { ...o.finish, notes, ledgerPath: ledger?.path, ...extra, unreached: extra.unreached ?? 0 });
  // `refused`: the exit code of a run stopped by invalid rows, its results written.
  if (refuseInvalid(run, validation)) return { validation, doneEarlier, finish, refused: await finish({ exitCode: ExitCode.Usage }) };
  const refusal = await earlier?.refusal(run.source.name, o.finish.command, validation.valid, serviceFlags(run.deps.globals));
  if (refusal) throw refusal;
  return { validation, doneEarlier, finish };
}

/**
 * A row invalid in this file may already be created: from its fixed copy in the errors file (whose run shares this
 * ledger), or before it was edited into an invalid one. When its identity says so for sure (its reference, or the
 * key a results or errors file row carries), it is done: reported as already created with its id, not as a row to
 * fix, and it does not stop the run. A row known only by its content or place has no such identity and stays invalid.
 */
function settleCreatedInvalid(run: BatchRun, ledger: InputLedger, validation: Validation): void {
  const done: string[] = [];
  validation.invalid = validation.invalid.filter((r) => {
    const state = r.key !== undefined ? ledger.row(r.key) : undefined;
    if (state?.state !== "created") return true;
    run.outcomes.set(r.row, { status: "skipped", label: r.label, reference: r.reference, id: state.id });
    done.push(`row ${r.row} (id ${state.id})`);
    return false;
  });
  if (done.length === 0) return;
  const rows = done.length === 1 ? "1 row is" : `${done.length} rows are`;
  run.deps.io.err(`${rows} invalid in ${run.source.name} but already created (from a fixed copy, or before an edit): ${done.join(", ")}; nothing to fix there.\n`);
}

/** `doneEarlier`: valid rows the ledger records as done, so not to be sent again. */
function reportValidation(run: BatchRun, validation: Validation, notes: Notes, doneEarlier: number): void {
  const { deps, source } = run;
  const theme = deps.theme.err;
  deps.debug(`${source.name}: ${validation.meta.encoding}, delimiter ${JSON.stringify(validation.meta.delimiter)}, ${validation.total} rows`);
  if (validation.total === 0) throw new UsageError(`${source.name} has a header row but no rows`);
  // A rerun with every row done already sends nothing: its summary says all there is (issue 12).
  // (Invalid rows already created are skipped outcomes by now: settleCreatedInvalid.)
  if (validation.invalid.length === 0 && doneEarlier + run.outcomes.count("skipped") === validation.total) return;
  deps.io.err(unknownColumnsWarning(source.name, validation.meta.unknown, theme));
  deps.io.alert(renderProblems(source.name, validation.invalid, theme, { whereAll: whereAllInvalid(run) }));
  deps.io.err(`${validCountLine(validation.valid, validation.total)}\n`);
  if (!notes.empty) deps.io.err(notes.render(`${run.tables.source} (${run.connection.profile})`, run.options.results));
}

/** Where a run lists every invalid row, when stderr shows only the first ones: its errors file, or --json. */
function whereAllInvalid(run: BatchRun): string {
  const { results, dryRun } = run.options;
  if (results !== undefined && !dryRun) return `all of them in ${errorsPathFor(resolve(run.deps.cwd, results))}`;
  return dryRun ? '--json lists them all (its "invalid" list)' : '--json lists them all (its "failed" list), as --results FILE.csv does in FILE.errors.csv';
}

/** With invalid rows and no --skip-invalid, nothing is sent: every invalid row is a failed outcome. */
function refuseInvalid(run: BatchRun, validation: Validation): boolean {
  if (validation.invalid.length === 0 || run.options.skipInvalid) return false;
  markInvalid(run, validation.invalid);
  // A dry run says it in its own summary.
  if (!run.options.dryRun) run.deps.io.alert("Nothing was sent. Fix the rows above and run again, or pass --skip-invalid to send only the valid rows.\n");
  return true;
}
