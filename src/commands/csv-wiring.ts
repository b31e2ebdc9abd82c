// Commander wiring of the CSV mode of `shipment create`, `shipment update`, `address verify` and `address add`:
// the flags, their help, and the switch between the command's single-item logic and the batch logic. Light on
// purpose (loaded for --help): the batch modules are imported only when a command runs with --csv.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "./action.js";
import type { Deps } from "../deps.js";
import type { ActionResult } from "./action.js";
import { DEFAULT_CONCURRENCY } from "../batch/concurrency.js";

type Run<F> = (deps: Deps, args: string[], flags: F) => Promise<ActionResult>;

export interface CsvFlagChoice {
  /** Add --no-verify and --accept-recommended (the command does not define them already). */
  verifyFlags: boolean;
  /** Add --dry-run, --results, --skip-invalid (everything but address verify stores something). */
  sending: boolean;
  /**
   * The single-item mode reads --dry-run, --concurrency, --skip-invalid, --no-verify and --accept-recommended too
   * (`shipment create` from flags or --file): their help does not say "with --csv".
   */
  fileToo?: boolean;
  /**
   * Add --force-new: the command creates records, so a copy of a file already sent must not create them again
   * (earlier-journals.ts). Not for `shipment update`: a PATCH of the full body sent twice is harmless.
   */
  creates?: boolean;
}

/** Flags the CSV mode reads; any other flag given with --csv is refused. */
const CSV_KEYS = new Set(["csv", "dryRun", "concurrency", "results", "skipInvalid", "verify", "acceptRecommended", "forceNew", "wait"]);

export function addCsvOptions(command: Command, choice: CsvFlagChoice): Command {
  command.option("--csv <file>", "read one item per row of a CSV file (- for stdin)");
  const shared = choice.fileToo ? "" : "with --csv: ";
  const items = choice.fileToo ? "items" : "rows";
  if (choice.sending) {
    command
      .option("--dry-run", `${shared}validate (and verify addresses), print what would be sent, send nothing`)
      .option("--results <file.csv>", "with --csv: write each row's outcome there, and the failed rows to <file>.errors.csv")
      .option("--skip-invalid", `${shared}send the valid ${items} even if some ${items} are invalid`);
    if (choice.creates) {
      command.option("--force-new", "with --csv: send even the rows an earlier run sent from another file (a copy of it); see docs/csv.md");
    }
    command.option("--no-wait", `${shared}do not wait for requests an earlier run left in flight: report them unknown, with when a rerun settles them`);
  }
  command.option("--concurrency <n>", `${shared}requests in flight (default ${DEFAULT_CONCURRENCY})`);
  if (choice.verifyFlags) {
    command
      .option("--no-verify", `${shared}do not verify inline addresses before sending`)
      .option("--accept-recommended", `${shared}use the address revisions the service recommends without asking`);
  }
  return command;
}

/**
 * The action of a command with a CSV mode: `--csv` runs `csv`, anything else runs `plain`.
 * `required` names a positional argument that only the single-item mode needs (`shipment update <id>`).
 */
export function csvOrPlain<C extends Record<string, unknown>, P extends Record<string, unknown>>(
  ctx: CommandContext,
  csv: () => Promise<Run<C>>,
  plain: () => Promise<Run<P>>,
  required?: string,
): (...received: unknown[]) => Promise<void> {
  const runCsv = lazyAction(ctx, csv);
  const runPlain = lazyAction(ctx, plain);
  return async (...received) => {
    const command = received[received.length - 1] as Command;
    if (command.opts().csv === undefined) {
      if (required !== undefined && command.args.length === 0) command.error(`error: missing required argument '${required}' (or give --csv FILE)`);
      return runPlain(...received);
    }
    const extra = command.options.filter((o) => !CSV_KEYS.has(o.attributeName()) && command.getOptionValueSource(o.attributeName()) === "cli");
    if (command.args.length > 0 || extra.length > 0) {
      const what = [...command.args.map((a) => `"${a}"`), ...extra.map((o) => o.long ?? o.flags)].join(", ");
      command.error(`error: --csv reads every field from the file; drop ${what}`, { exitCode: 2, code: "shipctl.csvConflict" });
    }
    return runCsv(...received);
  };
}

export const CSV_HELP = `
With --csv FILE (or --csv - for stdin), every row of the file is one item: all rows are checked first and every
problem is reported with its row number, column and reason; nothing is sent while a row is invalid (exit 2) unless
--skip-invalid. A journal next to the file (or the results file) records what was sent, so running the same command
again after a crash, a lost connection or Ctrl-C finishes the job without sending anything twice.
Exit codes with --csv: 0 every row done; 8 partly done; 2 invalid input; 7 service unavailable; 130 interrupted.
The columns, normalisations, journal and results files are described in docs/csv.md (\`shipctl shipment template\`
prints a file to start from).`;

/** For `address verify --csv`: it sends nothing to store, so it has no journal and no --skip-invalid. */
export const CSV_VERIFY_HELP = `
With --csv FILE (or --csv - for stdin), every row of the file is one address: all rows are checked first and every
problem is reported with its row number, column and reason; nothing is verified while a row is invalid (exit 2).
Each valid address is then verified once and reported with its verdict; nothing is stored.
Exit codes with --csv: 0 every address valid; 8 some are; 6 none is; 2 invalid input; 7 service unavailable;
130 interrupted. The columns and normalisations are described in docs/csv.md.`;
