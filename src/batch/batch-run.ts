// What every CSV command run shares: the input, the options, the connection and tables, the ledger, the outcomes,
// the progress line, and how to talk on stderr without breaking that line.
import type { CallOptions } from "../api/client-types.js";
import { retryNote, type Connection, type Deps } from "../deps.js";
import type { Tables } from "../contract/index.js";
import { createProgress, type Progress } from "../output/progress.js";
import { Outcomes } from "./outcomes.js";
import type { CsvOptions } from "./run-options.js";
import { openSource } from "../csv/csv-source.js";
import { access, constants, mkdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ExitCode, FileInUseError, UsageError } from "../errors.js";
import { isEmptyShipctlFile } from "../csv/origin-columns.js";
import { sourceInEncoding } from "../csv/encoding.js";
import type { MappedSource } from "../csv/scan.js";
import type { BatchKind } from "../csv/columns.js";
import { columnMapFor } from "./column-mapping.js";
import { writeResultsJson, type ResultWords } from "./results.js";
import { checkReplaceable } from "../fs/held-file.js";
import { errorsPathFor } from "../csv/results-csv.js";
import { WouldSendRows } from "./dry-run-report.js";

export interface BatchRun {
  deps: Deps;
  options: CsvOptions;
  /** The input, with the column mapping it is read with (--map or a saved one). */
  source: MappedSource;
  connection: Connection;
  tables: Tables;
  outcomes: Outcomes;
  call: CallOptions;
  /** Talk on stderr (above the progress line when one is shown). */
  say(text: string): void;
  progress?: Progress;
  /** A dry run's rows to send, kept for its report (dry-run-report.ts). */
  wouldSend?: WouldSendRows;
}

/**
 * Opens the input and the connection, runs `body`, and always removes a stdin copy. An errors file whose rows were
 * all fixed (shipctl's columns, no rows) is the end of a fix-and-rerun loop, not a mistake: exit 0, nothing sent or
 * written (the results file stays as it is).
 */
export async function withBatch(deps: Deps, options: CsvOptions, kind: BatchKind, words: ResultWords, body: (run: BatchRun) => Promise<number>): Promise<number> {
  // As --file - says: a run waiting on a terminal's input with no word looks hung.
  if (options.csv === "-" && deps.io.stdinIsTTY) deps.io.err("Reading CSV from stdin (finish with Ctrl-D)...\n");
  const opened = await openSource(options.csv, deps.cwd, deps.io.stdin, "--csv", deps.signal);
  const source = options.encoding === undefined ? opened : sourceInEncoding(opened, options.encoding);
  try {
    // Said on every run, as the country mappings are: an encoding is never applied unseen.
    if (options.encoding !== undefined) deps.io.err(`Reading ${source.name} as ${options.encoding} (--encoding)\n`);
    if (await isEmptyShipctlFile(source)) {
      deps.io.err(`nothing left to fix in ${source.name}\n`);
      if (deps.globals.json) writeResultsJson((text) => deps.io.out(text), new Outcomes(), words, {});
      return ExitCode.Ok;
    }
    await resultsFolder(options, deps.cwd);
    const connection = await deps.connection();
    const columnMap = await columnMapFor(deps, source, connection.profile, kind, options);
    // The HTTP client (its modules) loads while the tables are fetched: a first pass that verifies addresses as it
    // finds them needs it at once, and loading it mid-pass waited for the pass to yield, ~200 ms (bench/batch.mjs).
    // A client that cannot be made fails again, with its message, where it is first used.
    deps.api().catch(() => undefined);
    const tables = await connection.tables();
    const run: BatchRun = {
      deps,
      options,
      source: columnMap === undefined ? source : { ...source, columnMap },
      connection,
      tables,
      outcomes: new Outcomes(),
      // No signal here: the API client is made with deps.signal already (deps.ts), and a second one would make every
      // call combine the two (AbortSignal.any), about 20 µs a request in a 1,000-request run (bench/batch.mjs).
      call: {
        onRetry: (info) => run.say(`${retryNote(info)}\n`),
      },
      say: (text) => (run.progress ? run.progress.log(text) : deps.io.err(text)),
    };
    if (options.dryRun) run.wouldSend = new WouldSendRows(deps.globals.json ? (text) => deps.io.out(text) : undefined);
    return await body(run);
  } finally {
    await source.dispose();
  }
}

export function startProgress(run: BatchRun, total: number): Progress {
  run.progress = createProgress(run.deps.io, { total, unit: "rows" });
  return run.progress;
}

export function stopProgress(run: BatchRun): void {
  run.progress?.finish();
  run.progress = undefined;
}

/**
 * The folder of --results, created before anything is sent: a results file that cannot be written at the end would
 * leave a run that sent its rows without saying which. A folder that cannot be created stops the run here.
 */
async function resultsFolder(options: CsvOptions, cwd: string): Promise<void> {
  if (options.results === undefined) return;
  const folder = dirname(resolve(cwd, options.results));
  try {
    // A dry run writes no results file: it only says whether the run could.
    if (options.dryRun) await couldCreate(folder);
    else await mkdir(folder, { recursive: true });
  } catch (e) {
    throw new UsageError(`--results ${options.results}: its folder ${folder} cannot be created (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
      hint: "Give a results file in a folder you can write to. Nothing was sent.",
    });
  }
  if (!options.dryRun) await resultsWritable(resolve(cwd, options.results));
}

/**
 * The results file and its errors file can be replaced, checked before anything is sent: a run must not send its rows
 * and then fail to say which because Excel has the results file open. (Excel may still open it after this check: the
 * outcomes are in the ledger then, and the same command again writes the file without sending anything.)
 */
async function resultsWritable(resultsPath: string): Promise<void> {
  for (const path of [resultsPath, errorsPathFor(resultsPath)]) {
    try {
      await checkReplaceable(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!(e instanceof FileInUseError) && code === undefined) throw e;
      // A folder is no file held open: closing Excel would not help.
      if (code === "EISDIR") {
        throw new UsageError(`--results: ${path} is a folder, not a file. Nothing was sent.`, {
          hint: `${path === resultsPath ? `Give --results a file's path, such as ${join(path, "results.csv")}` : "Move the folder aside, or give --results another file"}, and run the same command again.`,
        });
      }
      const why = e instanceof FileInUseError ? e.message : `${path} cannot be written (${code})`;
      throw new UsageError(`--results: ${why}. Nothing was sent.`, { hint: "Close it (in Excel: close the workbook), or give --results another file, and run the same command again." });
    }
  }
}

/** Fails as `mkdir -p folder` would, without creating anything: the nearest existing folder must be writable. */
async function couldCreate(folder: string): Promise<void> {
  for (let dir = folder; ; dir = dirname(dir)) {
    let info;
    try {
      info = await stat(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT" && dirname(dir) !== dir) continue;
      throw e;
    }
    if (!info.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: dir === folder ? "EEXIST" : "ENOTDIR" });
    if (dir !== folder) await access(dir, constants.W_OK);
    return;
  }
}
