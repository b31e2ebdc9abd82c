// The CSV mode of `shipment create`, `shipment update`, `address verify` and `address add`: its flags and their help
// (addCsvOptions), and the part of each verb's parse that chooses the mode (parseItemMode). Light on purpose (loaded
// for --help): the batch modules are imported only by a verb's run, when the command line has --csv.
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import { parseId } from "../input/ids.js";
import { csvOptions, type CsvFlags, type CsvOptions } from "../batch/run-options.js";
import { DEFAULT_CONCURRENCY } from "../batch/concurrency.js";

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
   * The single-item mode keeps a ledger of its own too (`address add`: "address", what it stores): --force-new and
   * --no-wait apply to it as well, so their help does not say "with --csv".
   */
  singleLedger?: string;
  /**
   * The command creates records, so what another input already sent is not created again unless --force-new says so
   * (ledger/force-new.ts). Not `shipment update`: a PATCH of the full body sent twice is harmless.
   */
  creates?: boolean;
  /** The command looks among the organization's recent records before creating (shipments/look/): --force-new skips it too. */
  looks?: boolean;
}

export function addCsvOptions(command: Command, choice: CsvFlagChoice): Command {
  command.option("--csv <file>", "read one item per row of a CSV file (- for stdin; a device such as /dev/zero, or a file holding NUL bytes, is refused)");
  command.option("--map <pairs>", 'with --csv: your sheet\'s own headers for shipctl\'s columns, "Artwork=title,Insured value=value"; saved for files with the same header (`shipctl csv map`); at a terminal, the columns still missing are asked for and saved');
  command.option("--encoding <name>", "with --csv: the file's encoding when it is not UTF-8 (windows-1252, latin1...: any name Node's TextDecoder knows); never guessed");
  const shared = choice.fileToo ? "" : "with --csv: ";
  const items = choice.fileToo ? "items" : "rows";
  if (choice.sending) {
    command
      .option("--dry-run", `${shared}rehearse: validate, verify addresses${choice.fileToo ? "" : ", read the ledger as the run would"} and print what the run would do with each ${items.slice(0, -1)}, with its exit code; send and write nothing`)
      .option("--results <file.csv>", "with --csv: keep each row's latest outcome there (a rerun, or a run of <file>.errors.csv, updates its rows), and the rows still failing in <file>.errors.csv")
      .option("--skip-invalid", `${shared}send the valid ${items} even if some ${items} are invalid`);
    if (choice.creates) {
      command.option(
        "--force-new",
        choice.looks
          ? "send even what matches a shipment another machine created in the last days (the look before a create, docs/ledger.md), and with --csv the rows of a copy of a file already sent"
          : `store it even though an earlier run stored it: the same ${choice.singleLedger} once more, or with --csv the rows of a copy of a file already sent (docs/csv.md)`,
      );
    }
    const waitShared = choice.singleLedger !== undefined ? "" : shared;
    command.option("--no-wait", `${waitShared}do not wait for requests an earlier run left in flight: report them unknown, with when a rerun settles them`);
  }
  command.option("--concurrency <n>", `${shared}requests in flight (default ${DEFAULT_CONCURRENCY})`);
  if (choice.verifyFlags) {
    command
      .option("--no-verify", `${shared}do not verify inline addresses before sending`)
      .option("--accept-recommended", `${shared}use the address revisions the service recommends without asking`);
  }
  return command;
}

/** A flag of the single-item mode only: commander's key for it, and the flag as typed. */
export interface SingleItemFlag {
  readonly key: string;
  readonly flag: string;
}

/** Every row of a CSV file: the options of the CSV mode. */
export type CsvMode = { mode: "csv"; csv: CsvOptions };

/** The flags only the CSV mode reads, as a person types them. */
const CSV_ONLY: ReadonlyArray<readonly [keyof CsvFlags, string]> = [
  ["dryRun", "--dry-run"],
  ["results", "--results"],
  ["skipInvalid", "--skip-invalid"],
  ["concurrency", "--concurrency"],
  ["encoding", "--encoding"],
  ["map", "--map"],
];

/**
 * The CSV mode's options when the command line has --csv; else the single-item input as typed (`single`: --file and
 * the field flags, in the order --help lists them; only those given), read and checked by the run. With --csv every
 * field comes from the file, so a positional argument or a flag of `single` is refused. Without it, a flag only the
 * CSV mode reads is refused rather than ignored (`address add --file a.json --dry-run` would otherwise store the
 * address), with `hint` saying what a run without --csv does; a verb whose single-item mode reads them too gives none.
 */
export function parseItemMode<F>(args: readonly string[], flags: F & CsvFlags, single: readonly SingleItemFlag[], hint?: string): CsvMode | { mode: "single"; input: F } {
  const given = flags as Record<string, unknown>;
  const singleGiven = single.filter((f) => given[f.key] !== undefined);
  if (flags.csv !== undefined) {
    const extra = [...args.map((a) => `"${a}"`), ...singleGiven.map((f) => f.flag)];
    if (extra.length > 0) {
      throw new UsageError(`--csv reads every field from the file; drop ${extra.join(", ")}`, {
        hint: "With --csv each row holds every field (docs/csv.md); to give them on the command line, leave out --csv.",
      });
    }
    return { mode: "csv", csv: csvOptions(flags) };
  }
  const csvOnly = hint === undefined ? [] : CSV_ONLY.filter(([key]) => flags[key] !== undefined).map(([, flag]) => flag);
  if (csvOnly.length > 0) throw new UsageError(`${csvOnly.join(", ")} ${csvOnly.length === 1 ? "works" : "work"} with --csv only`, { hint });
  return { mode: "single", input: Object.fromEntries(singleGiven.map((f) => [f.key, given[f.key]])) as F };
}

/** `update`'s id argument, which names the one record replaced without --csv. */
export function updateId(args: readonly string[], noun: "shipment" | "address"): number {
  if (args[0] === undefined) {
    throw new UsageError("missing required argument 'id' (or give --csv FILE)", {
      hint: `Give the id of the ${noun} to update (\`shipctl list ${noun === "address" ? "addresses" : "shipments"}\` shows them), or --csv FILE to update many.`,
    });
  }
  return parseId(args[0], `${noun} id`);
}

export const CSV_HELP = `
With --csv FILE (or --csv - for stdin), every row of the file is one item: all rows are checked first and every
problem is reported with its row number, column and reason; nothing is sent while a row is invalid (exit 2) unless
--skip-invalid. A ledger next to the file (or the results file) records what was sent, so running the same command
again after a crash, a lost connection or Ctrl-C finishes the job without sending anything twice.
With --results r.csv, r.csv keeps one line per row of the original file: fix r.errors.csv in a spreadsheet (keep its
shipctl_row, shipctl_key and shipctl_original columns) and run it with the same command and --results r.csv; its rows
update their lines, and a row fixed there is still its original row, never created twice.
Exit codes with --csv: 0 every row done; 8 partly done; 2 invalid input; 7 service unavailable; 130 interrupted.
The columns, normalisations, ledger and results files are described in docs/csv.md (\`shipctl shipment template\`
prints a file to start from). The whole loop, worked: \`shipctl help round-trip\`.`;

/** For `shipment update --csv` and `address update --csv`: the plan (batch/update-plan.ts). */
export const CSV_UPDATE_HELP = `
With --csv, each row's record is read first (several at a time, retried as any read) and only the rows that change it
are sent: the plan comes first on stderr, in the dry run as in the run ("Plan: 2 to update, 58 unchanged." and each
change: "row 3 (shipment 118): value 850 → 875"), and --json carries it ("plan"). A row that changes nothing is
"unchanged" (done, not sent); a row whose record cannot be read or compared is sent, and its line says why.`;

/** For `address verify --csv`: it sends nothing to store, so it has no ledger and no --skip-invalid. */
export const CSV_VERIFY_HELP = `
With --csv FILE (or --csv - for stdin), every row of the file is one address: all rows are checked first and every
problem is reported with its row number, column and reason; nothing is verified while a row is invalid (exit 2).
Each valid address is then verified once and reported with its verdict; nothing is stored.
Exit codes with --csv: 0 every address valid; 8 some are; 6 none is; 2 invalid input; 7 service unavailable;
130 interrupted. The columns and normalisations are described in docs/csv.md.`;
