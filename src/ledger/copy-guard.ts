// A CSV copied or renamed (`shipments (1).csv`, `orders-final.csv`) gets a journal of its own, empty: without this
// check, running it would create every row again. When a run's journal holds no row for this service yet, the other
// journals of the same command in the places shipctl keeps them (the input's folder, the results file's folder, the
// config folder's journals/) are read for rows of this file already sent there by the same organization: the same
// row keys (the reference, or the content's hash), recorded as created or in flight. Any such row stops the run
// before anything is sent (exit 2), naming the earlier journal and --force-new. Reading a few journals costs
// milliseconds and happens only on a first run; nothing is asked of the service.
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { configDir } from "../config/paths.js";
import { UsageError } from "../errors.js";
import type { BatchKind } from "../csv/columns.js";
import type { BatchRun } from "../batch/batch-run.js";
import type { Book } from "./book.js";
import { bookLines, LEDGER_VERSION, rowKeysOf, targetId } from "./book-lines.js";
import { journalSuffix } from "./location.js";
import { readMark, tokenMatches } from "./owner.js";

type Kind = Exclude<BatchKind, "address-verify">;

interface EarlierJournal {
  path: string;
  /** The input it was written for, as its header names it (a path, or "stdin"). */
  source: string;
  /** Keys of the rows recorded as created or in flight (which may have been applied). */
  keys: Set<string>;
}

/** Rows of this run found in earlier journals; see the top of this file. */
export class EarlierSends {
  private matched = 0;
  private first: EarlierJournal | undefined;

  constructor(private readonly journals: readonly EarlierJournal[]) {}

  /** Whether the row with this key was sent by an earlier run (counted for the message). */
  see(key: string): boolean {
    for (const j of this.journals) {
      if (!j.keys.has(key)) continue;
      this.matched++;
      this.first ??= j;
      return true;
    }
    return false;
  }

  /** The error that stops the run when rows were found, naming the first journal they were found in. */
  refusal(run: BatchRun, command: string, valid: number): UsageError | undefined {
    const j = this.first;
    if (j === undefined) return undefined;
    const rows = this.matched === valid ? `all ${valid} of its rows` : `${this.matched} of its ${valid} rows`;
    const origin = j.source === "stdin" ? "input read from stdin" : basename(j.source);
    const again = j.source === "stdin" ? `\`shipctl ${command} --csv -\` with that input` : `\`shipctl ${command} --csv ${j.source}\``;
    return new UsageError(
      `${run.source.name}: ${rows} were already sent by an earlier run from ${origin}, recorded in ${j.path}; ` +
        `running this file would send them again as new ones. Nothing was sent.`,
      { hint: `To finish that run, run ${again} again. If these rows really are new, run this command again with --force-new.` },
    );
  }
}

/**
 * The earlier journals to compare a first run with, or undefined when the run's journal already holds rows for this
 * service (a rerun), or there is none.
 */
export async function findEarlierSends(run: BatchRun, kind: Kind, journal: Book): Promise<EarlierSends | undefined> {
  if (journal.hasRows) return undefined;
  const { deps, options, source, connection } = run;
  const folders = new Set<string>([join(configDir(deps.env), "journals")]);
  if (!source.stdin) folders.add(dirname(source.path));
  if (options.results !== undefined) folders.add(dirname(resolve(deps.cwd, options.results)));
  const tid = targetId(connection.profile, connection.baseUrl);
  const own = resolve(journal.path);
  const paths: string[] = [];
  for (const folder of folders) for (const path of await journalsIn(folder, journalSuffix(kind))) if (path !== own) paths.push(path);
  // Each book's owner mark is a slow hash with a salt of its own: checked side by side, not one after another.
  const read = await Promise.all(paths.map((path) => readSent(path, kind, tid, connection.token)));
  const found = read.filter((e): e is EarlierJournal => e !== undefined && e.keys.size > 0);
  return found.length > 0 ? new EarlierSends(found) : undefined;
}

async function journalsIn(folder: string, suffix: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((name) => name.endsWith(suffix)).map((name) => resolve(folder, name));
  } catch {
    // No such folder, or not readable: nothing to compare with there.
    return [];
  }
}

/**
 * The rows a journal records as sent for this service and organization. A journal that cannot be read, of another
 * command, or of another organization, says nothing about this run. Each row's last record is its state (the file
 * may be as appended, several records per row).
 */
async function readSent(path: string, kind: Kind, tid: string, token: string): Promise<EarlierJournal | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  // Lenient: a damaged line elsewhere says nothing, the readable ones still count.
  const [header, ...records] = bookLines(text, () => undefined);
  // shipctl 0.1's books (version 1) are read alike: their records have the same keys.
  if ((header?.shipctl_ledger !== LEDGER_VERSION && header?.shipctl_journal !== 1) || header.kind !== kind) return undefined;
  const states = new Map<string, unknown>();
  let recordedOwner: unknown;
  for (const line of records) {
    if (line.target === tid) recordedOwner = line.owner;
    if (line.t !== tid) continue;
    for (const key of rowKeysOf(line)) states.set(key, line.state);
  }
  // A book written before owner marks may be this organization's: counted, --force-new overrides.
  const mark = readMark(recordedOwner);
  if (mark !== undefined && !(await tokenMatches(token, mark))) return undefined;
  const keys = new Set<string>();
  for (const [key, state] of states) if (state === "created" || state === "in_flight" || state === "sending") keys.add(key);
  return { path, source: typeof header.source === "string" ? header.source : path, keys };
}
