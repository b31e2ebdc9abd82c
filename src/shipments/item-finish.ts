// The end of `shipment create` from flags or JSON, with the CSV batch's renderings: a table on stdout (item,
// reference, title, shipment id, status or error), or with --json the document scripts know from --csv
// ({created, failed, skipped, counts}, each entry numbered by "item"); the summary on stderr; the exit code
// (0 all created now or earlier, 8 partly done, 6 refused, 7 unavailable, 2 invalid input, 130 interrupted, with
// the command that resumes).
import type { CallOptions } from "../api/client-types.js";
import type { SendOptions } from "../batch/run-options.js";
import type { Deps } from "../deps.js";
import { ExitCode, errorJson, exitErrorJson } from "../errors.js";
import { SHIPMENT_FIELD_FLAGS } from "../input/shipment-fields.js";
import { textBuffer } from "../output/text-buffer.js";
import { shellQuote } from "../output/shell-quote.js";
import type { Progress } from "../output/progress.js";
import { ADDRESS_FIELDS } from "../contract/index.js";
import type { ItemInputFlags, ItemSource } from "./item-input.js";
import type { Outcomes } from "../batch/outcomes.js";
import { countsOf, exitCodeOf, renderResultsTable, summaryLine, writeResultsJson, type ResultWords } from "../batch/results.js";
import { DEFAULT_CONCURRENCY } from "../batch/concurrency.js";
import type { CellProblem } from "../csv/row-types.js";

/** The words of `shipment create --csv`'s results, so both inputs give scripts the same document. */
export const CREATE_ITEM_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

/** How items are sent: as CSV rows are (batch/run-options.ts). */
export type ItemOptions = SendOptions;

/** One run of `shipment create` from flags or JSON: what the batch helpers (verify, settle lost answers) need, and more. */
export interface ItemRun {
  deps: Deps;
  options: ItemOptions;
  flags: ItemInputFlags & { concurrency?: string | number };
  source: ItemSource;
  outcomes: Outcomes;
  call: CallOptions;
  /** Talk on stderr (above the progress line when one is shown). */
  say(text: string): void;
  progress?: Progress;
}

/** `error`: why the run stopped early (thrown after the results are written), for the --json document. */
export function finishItems(run: ItemRun, input: { ledgerPath?: string; exitCode?: number; error?: unknown }): number {
  const { deps, outcomes } = run;
  const theme = deps.theme.err;
  const refused = input.exitCode === ExitCode.Usage;
  const counts = countsOf(outcomes, CREATE_ITEM_WORDS);
  const code = refused ? ExitCode.Usage : deps.signal.aborted ? ExitCode.Interrupted : (input.exitCode ?? exitCodeOf(outcomes, CREATE_ITEM_WORDS));
  if (deps.globals.json) {
    const out = textBuffer((text) => deps.io.out(text));
    const summary = refused ? undefined : summaryLine(counts, CREATE_ITEM_WORDS, "item");
    const error = input.error !== undefined ? errorJson(input.error) : code === ExitCode.Ok ? undefined : exitErrorJson(code, summary);
    writeResultsJson((text) => out.add(text), outcomes, CREATE_ITEM_WORDS, { ledger: input.ledgerPath, position: "item", error });
    out.flush();
  } else if (outcomes.size > 0 && !refused) {
    deps.io.out(renderResultsTable(outcomes, CREATE_ITEM_WORDS, { theme: deps.theme.out, width: deps.io.stdoutIsTTY ? deps.io.columns : undefined, position: "item" }));
  }
  // Invalid input was already listed item by item on stderr.
  if (refused) return ExitCode.Usage;
  deps.io.alert(`${summaryLine(counts, CREATE_ITEM_WORDS, "item")}\n`);
  if (input.ledgerPath) deps.io.err(theme.dim(`Ledger: ${input.ledgerPath}\n`));
  if (counts.skipped > 0 && counts.skipped === counts.rows) {
    deps.io.err(
      `Nothing was sent: ${counts.skipped === 1 ? "this shipment was" : "these shipments were"} created by an earlier run of the same input. ` +
        `To create another shipment with the same details, give it a new reference (--reference, or "reference" in the file).\n`,
    );
  }
  if (counts.unknown > 0) {
    // After Ctrl-C the command comes once, below, in the line that says how to resume (as batch/finish.ts does).
    const rerun = deps.signal.aborted ? "The command that resumes the run (below) checks and finishes them" : `To check and finish them, run again (after a minute if a request timed out):\n  ${resumeCommand(run)}`;
    deps.io.alert(
      `${theme.warn("Note:")} the service may have created the items marked unknown (their requests may even still be in progress). ` +
        `${rerun}\nThe rerun reads the service's shipments first; nothing is sent twice.\n`,
    );
  }
  if (deps.signal.aborted) {
    deps.io.alert(`${theme.error("Interrupted.")} The ledger is saved. To resume:\n  ${resumeCommand(run)}\n`);
  }
  return code;
}

/**
 * A 422 is mapped back to the request's items by CreateSender under the CSV's column names (`fulfillment_phone`);
 * for JSON input the field's path in the shipment reads better (`fulfillment_address.phone`).
 */
export function jsonFieldProblems(outcomes: Outcomes): void {
  for (const [item, o] of outcomes.entries()) {
    if (!o.problems || o.problems.length === 0 || o.status !== "failed") continue;
    const problems: CellProblem[] = o.problems.map((p) => ({ ...p, column: jsonField(p.column) }));
    if (problems.every((p, i) => p.column === o.problems![i]!.column)) continue;
    outcomes.update(item, { problems, error: problems.map((p) => `${p.column}: ${p.reason}`).join("; ") });
  }
}

const INLINE_COLUMN = new RegExp(`^(fulfillment|destination)_(${ADDRESS_FIELDS.join("|")})$`);

function jsonField(column: string): string {
  const m = INLINE_COLUMN.exec(column);
  return m ? `${m[1]}_address.${m[2]}` : column;
}

/** The command to run again: the same input, flags and options that change what is sent. */
export function resumeCommand(run: ItemRun): string {
  const { flags, options } = run;
  const parts = ["shipctl", "shipment", "create"];
  if (flags.file !== undefined) parts.push("--file", shellQuote(flags.file));
  for (const f of SHIPMENT_FIELD_FLAGS) {
    const value = flags[f.key];
    if (value !== undefined) parts.push(f.flag, shellQuote(value));
  }
  if (flags.reference !== undefined) parts.push("--reference", shellQuote(flags.reference));
  if (options.concurrency !== DEFAULT_CONCURRENCY) parts.push("--concurrency", String(options.concurrency));
  if (options.acceptRecommended) parts.push("--accept-recommended");
  if (!options.verify) parts.push("--no-verify");
  if (options.skipInvalid) parts.push("--skip-invalid");
  if (run.deps.globals.profile !== undefined) parts.push("--profile", shellQuote(run.deps.globals.profile));
  const line = parts.join(" ");
  return flags.file === "-" ? `${line} < (the same input)` : line;
}
