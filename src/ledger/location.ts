// Where a batch keeps its journal (documented in docs/csv.md):
//   1. next to the results file when --results is given:    results.csv.shipctl-journal.jsonl
//   2. otherwise next to the input file:                     orders.csv.shipctl-journal.jsonl
//   3. for stdin without --results, in the config folder:    <config>/journals/stdin.shipctl-journal.jsonl
// A rerun looks in every place that applies and uses the journal it finds; for a file, the journal its last run
// used is also recorded in the config folder (journal-index.ts), so adding, dropping or changing --results between
// runs cannot make shipctl forget what it sent. Each command has its own journal name.
//
// Stdin has one journal per command, whatever the bytes: its row keys (the reference, or the normalised content's
// hash with a counter) already tell rows apart, and naming it after the raw bytes made the same rows piped again
// with CRLF line ends, or re-exported, land in a new empty journal and be created twice. Journals written under
// the old naming (stdin-<sha256 of the bytes>) are still found and used when the very same bytes are piped again.
//
// A results or errors file run as input names its original (csv/origin-columns.ts) and uses the original's journal,
// wherever that is: its rows are rows of the original, recorded under the same keys, so one book knows every row of
// the original whichever of the three files created it (an errors file run with another --results, or none, would
// otherwise start a book of its own and a later run of the original could create the fixed rows again).
import { access, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { configDir } from "../config/paths.js";
import type { BatchKind } from "../csv/columns.js";
import { recordedJournalFor, recordJournalFor } from "./input-index.js";
import type { CsvSource } from "../csv/csv-source.js";

const SUFFIX: Record<Exclude<BatchKind, "address-verify">, string> = {
  "shipment-create": ".shipctl-journal.jsonl",
  "shipment-update": ".shipctl-update-journal.jsonl",
  "address-add": ".shipctl-address-journal.jsonl",
  "address-update": ".shipctl-address-update-journal.jsonl",
};

/** The file-name suffix of a command's journal (".shipctl-journal.jsonl" for shipment create). */
export function journalSuffix(kind: Exclude<BatchKind, "address-verify">): string {
  return SUFFIX[kind];
}

export function journalCandidates(
  kind: Exclude<BatchKind, "address-verify">,
  source: CsvSource,
  options: { results?: string; cwd: string; env: NodeJS.ProcessEnv },
): string[] {
  const suffix = SUFFIX[kind];
  const out: string[] = [];
  if (options.results !== undefined) out.push(resolve(options.cwd, options.results) + suffix);
  if (source.stdin) out.push(stdinJournalPath(kind, options.env));
  else out.push(source.path + suffix);
  return out;
}

/** The one journal of a command for CSV read from stdin (without --results). */
export function stdinJournalPath(kind: Exclude<BatchKind, "address-verify">, env: NodeJS.ProcessEnv): string {
  return join(configDir(env), "journals", `stdin${SUFFIX[kind]}`);
}

/**
 * The journal a run uses: an existing one among the candidates, else a journal written for these exact stdin bytes
 * by a shipctl before the stdin journal was shared (so its records are not forgotten), else for a file the journal
 * its last run used wherever that was (journal-index.ts), else a new one.
 */
export async function locateJournal(
  kind: Exclude<BatchKind, "address-verify">,
  source: CsvSource,
  options: { results?: string; cwd: string; env: NodeJS.ProcessEnv; original?: string },
): Promise<string> {
  if (options.original !== undefined) return locateOriginalJournal(kind, source, { ...options, original: options.original });
  const candidates = journalCandidates(kind, source, options);
  if (source.stdin && source.digest !== undefined) {
    const legacy = join(configDir(options.env), "journals", `stdin-${source.digest.slice(0, 24)}${SUFFIX[kind]}`);
    const found = await firstExisting([...(options.results !== undefined ? [candidates[0]!] : []), legacy]);
    if (found !== undefined) return found;
  }
  if (source.stdin) return chooseJournalPath(candidates);
  const path = (await firstExisting(candidates)) ?? (await recordedJournalFor(SUFFIX[kind], source.path, options.env)) ?? (await chooseJournalPath(candidates));
  await recordJournalFor(SUFFIX[kind], source.path, path, options.env);
  return path;
}

/**
 * The journal of a results or errors file's original: beside --results, beside the original (or the stdin journal),
 * the one the original's last run used, and only then one of the input's own (a new one beside --results or the input,
 * never in the original's folder, which may be gone).
 */
async function locateOriginalJournal(
  kind: Exclude<BatchKind, "address-verify">,
  source: CsvSource,
  options: { results?: string; cwd: string; env: NodeJS.ProcessEnv; original: string },
): Promise<string> {
  const suffix = SUFFIX[kind];
  const fromStdin = options.original === "stdin";
  const own = journalCandidates(kind, source, options);
  const originals = [...(options.results !== undefined ? [own[0]!] : []), fromStdin ? stdinJournalPath(kind, options.env) : options.original + suffix];
  const path =
    (await firstExisting([...originals, ...own])) ??
    (fromStdin ? undefined : await recordedJournalFor(suffix, options.original, options.env)) ??
    (source.stdin ? undefined : await recordedJournalFor(suffix, source.path, options.env)) ??
    (await chooseJournalPath(own));
  if (!fromStdin) await recordJournalFor(suffix, options.original, path, options.env);
  if (!source.stdin) await recordJournalFor(suffix, source.path, path, options.env);
  return path;
}

async function firstExisting(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    try {
      await access(path);
      return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** The first candidate that already holds a journal, else the first candidate (its folder created). */
export async function chooseJournalPath(candidates: readonly string[]): Promise<string> {
  const found = await firstExisting(candidates);
  if (found !== undefined) return found;
  const chosen = candidates[0]!;
  await mkdir(dirname(chosen), { recursive: true, mode: 0o700 });
  return chosen;
}
