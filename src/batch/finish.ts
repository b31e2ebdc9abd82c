// The end of every run that sends: results files, stdout (table or JSON), the summary on stderr, what to do next, the
// exit code; and after Ctrl-C, the command that resumes the run. A CSV run's entries are its rows; `shipment create`
// from flags or JSON ends here too, with items (shipments/create-from-items.ts): no file, so no results file and no
// column map, and the command that resumes it is its own.
import { ExitCode, errorJson, exitErrorJson } from "../errors.js";
import { textBuffer } from "../output/text-buffer.js";
import type { BatchRun } from "./batch-run.js";
import type { Notes } from "../csv/value-notes.js";
import { countsOf, exitCodeOf, renderResultsTable, summaryLine, writeResultsJson, type Counts, type Position, type ResultWords } from "./results.js";
import { errorsPathFor, writeResultsFiles, type ResultsFiles } from "../csv/results-csv.js";
import { serviceFlags, shellQuote } from "../output/shell-quote.js";
import { resumeCommand, type SendOptions } from "./run-options.js";
import { openScan, type ScanSpec, type ValidBase } from "../csv/scan.js";
import { reportDryRun } from "./dry-run-report.js";
import { columnMapJson } from "../csv/column-map.js";

/** What the end needs of a run: a CSV run, or a run of items (no file), which gives the command that resumes it. */
export type FinishRun = Pick<BatchRun, "deps" | "outcomes" | "wouldSend"> &
  ({ options: BatchRun["options"]; source: BatchRun["source"] } | { options: SendOptions; source?: undefined; resume: string });

export interface FinishInput {
  words: ResultWords;
  notes?: Notes;
  ledgerPath?: string;
  /** "shipment create", "address add"...: for the resume line. */
  command: string;
  /** Rows of the file that were never reached (the run stopped first). */
  unreached: number;
  /** How the file's rows read, to list the rows never reached by number and name (so every row is accounted for). */
  spec?: ScanSpec<ValidBase>;
  /** An exit code that overrides the outcome-based one (2 for invalid input). */
  exitCode?: number;
  /** Why the run stopped early (it is thrown after the results are written): the `error` of the --json document. */
  error?: unknown;
  /** Rows one request carries (10 for shipment create): a dry run says how many requests it would make. */
  perRequest?: number;
  /** An update's plan (batch/update-plan.ts), carried by the --json document. */
  plan?: { toJSON(): unknown[] };
  /** How the entries are numbered: "row" (a file's, the default) or "item" (`shipment create` from flags or JSON). */
  position?: Position;
  /** What the service may have done with an entry marked unknown, and what a rerun reads back first (default "applied", "records"). */
  unknownWords?: { did: string; reads: string };
  /**
   * Said (after the ledger line) when an earlier run did every entry, `skipped` of them: how to make another. Without
   * it, a rerun with every entry done says its summary alone (issue 12).
   */
  rerunNote?: (skipped: number) => string;
}

/** Why the valid rows of a file with invalid rows are not sent (without --skip-invalid). */
const HELD_BACK = "the file has invalid rows: fix them, or pass --skip-invalid to send the valid rows";

export async function finishRun(run: FinishRun, input: FinishInput): Promise<number> {
  const { deps, outcomes } = run;
  const theme = deps.theme.err;
  const position = input.position ?? "row";
  // Invalid input was already listed row by row on stderr: people need no table of it, scripts get the JSON.
  const refused = input.exitCode === ExitCode.Usage;
  // Every row of the file is accounted for: those never reached, and the valid rows held back by invalid ones.
  if (run.source && input.spec && (input.unreached > 0 || refused)) await markUnreached(run, input.spec, refused ? HELD_BACK : "not reached: the run stopped before this row");
  // A dry run's end: no results file and no ledger line; the exit code the run would have.
  if (run.wouldSend) {
    return reportDryRun(deps, outcomes, run.wouldSend, input.words, {
      perRequest: input.perRequest ?? 1,
      refused,
      notes: input.notes?.toJSON(),
      ledger: input.ledgerPath,
      exitCode: input.exitCode,
      columns: columnsJson(run),
      plan: input.plan?.toJSON(),
    });
  }
  let files: ResultsFiles | undefined;
  const results = run.source ? run.options.results : undefined;
  if (run.source && results !== undefined) {
    const keepCreated = input.words.done === "created";
    files = await writeResultsFiles(run.source, outcomes, results, deps.cwd, { idColumn: input.words.idKey, keepCreated, spec: input.spec, noteOf: (row) => input.notes?.rowNote(row) ?? "" });
  }
  const counts = countsOf(outcomes, input.words);
  const code = refused ? ExitCode.Usage : runExitCode(run, input, counts);
  if (deps.globals.json) {
    const out = textBuffer((text) => deps.io.out(text));
    const error = input.error !== undefined ? errorJson(input.error) : code === ExitCode.Ok ? undefined : exitErrorJson(code, refused ? undefined : summaryLine(counts, input.words, position));
    writeResultsJson((text) => out.add(text), outcomes, input.words, { notes: input.notes?.toJSON(), ledger: input.ledgerPath, results: files, position, error, columns: columnsJson(run), plan: input.plan?.toJSON() });
    out.flush();
  } else if (outcomes.size > 0 && !refused) {
    deps.io.out(renderResultsTable(outcomes, input.words, { theme: deps.theme.out, width: deps.io.stdoutIsTTY ? deps.io.columns : undefined, position }));
  }
  if (refused) {
    if (files) deps.io.err(`Results: ${files.results}\nInvalid rows: ${files.errors}\n`);
    return ExitCode.Usage;
  }
  const unreached = input.unreached > 0 && !input.spec ? ` ${input.unreached} row${input.unreached === 1 ? " was" : "s were"} not reached.` : "";
  deps.io.alert(`${summaryLine(counts, input.words, position)}${unreached}\n`);
  // A rerun with every row done already: the summary is all there is to say (issue 12), unless it has its note.
  const doneEarlier = counts.rows > 0 && counts.skipped + counts.matched === counts.rows && !deps.signal.aborted;
  if (doneEarlier && !input.rerunNote) return input.exitCode ?? exitCodeOf(outcomes, input.words);
  if (files && results !== undefined) {
    deps.io.err(`Results: ${files.results}\n`);
    // The errors file holds the rows of the original still failing, whichever run failed them.
    if (files.failing > 0) {
      // The same service (and so the same ledger), as the resume line: the fixed rows must not be sent elsewhere.
      const inputs = `--csv ${shellQuote(errorsPathFor(results))} --results ${shellQuote(results)}`;
      const again = ["shipctl", input.command, inputs, ...serviceFlags(deps.globals)].join(" ");
      deps.io.err(`Failed rows: ${files.errors} (fix them there, then run \`${again}\`: its rows update their lines in the results)\n`);
    }
  }
  if (input.ledgerPath && !run.options.dryRun) deps.io.err(theme.dim(`Ledger: ${input.ledgerPath}\n`));
  if (input.rerunNote && counts.skipped > 0 && counts.skipped === counts.rows) deps.io.err(input.rerunNote(counts.skipped));
  const resume = run.source ? resumeCommand(input.command, run.options, deps.globals) : run.resume;
  if (counts.unknown > 0) {
    // After Ctrl-C the command comes once, below, in the line that says how to resume: the same rerun checks these.
    const rerun = deps.signal.aborted ? "The command that resumes the run (below) checks and finishes them" : `To check and finish them, run again (after a minute if a request timed out):\n  ${resume}`;
    const { did, reads } = input.unknownWords ?? { did: "applied", reads: "records" };
    deps.io.alert(
      `${theme.warn("Note:")} the service may have ${did} the ${position}s marked unknown (their requests may even still be in progress). ` +
        `${rerun}\nThe rerun reads the service's ${reads} first; nothing is sent twice.\n`,
    );
  }
  if (deps.signal.aborted) {
    deps.io.alert(`${theme.error("Interrupted.")} The ledger is saved. To resume:\n  ${resume}\n`);
  }
  return code;
}

function runExitCode(run: FinishRun, input: FinishInput, counts: Counts): number {
  if (run.deps.signal.aborted) return ExitCode.Interrupted;
  if (input.exitCode !== undefined) return input.exitCode;
  if (input.unreached > 0) return counts.done + counts.skipped + counts.matched > 0 ? ExitCode.Partial : ExitCode.Unavailable;
  return exitCodeOf(run.outcomes, input.words);
}

/** The column mapping the run read its file with, for --json (`columns`: the sheet's header -> shipctl's column). */
function columnsJson(run: FinishRun): Record<string, string> | undefined {
  return run.source?.columnMap && columnMapJson(run.source.columnMap);
}

/** Rows the run never reached or held back: "not sent", so the results name every row of the file. */
async function markUnreached(run: Pick<BatchRun, "source" | "outcomes">, spec: ScanSpec<ValidBase>, why: string): Promise<void> {
  const scan = await openScan(run.source, { ...spec, keys: false });
  for await (const row of scan.rows) {
    if (run.outcomes.get(row.row)) continue;
    run.outcomes.set(row.row, { status: "pending", label: row.label, reference: row.reference, error: why });
  }
}
