// Reading a ledger book into memory: this target's rows and address verdicts, every target's owner mark, and the
// lines of other targets (kept as they are). Books written by shipctl 0.1 (the CSV journal, version 1, and the
// report journal) are read too and migrated in place (book-migrate.ts), the old file kept beside it as a backup, so
// a run interrupted before the upgrade is settled after it, never resent.
import { copyFile, readFile } from "node:fs/promises";
import { bookLines, LEDGER_VERSION, statesOf, type BookKind, type Line, type RowState, type Verdict } from "./book-lines.js";
import { fromReportJournal, fromVersion1, type MigrationContext } from "./book-migrate.js";
import { readMark, type OwnerMark } from "./owner.js";

export interface Target {
  baseUrl: string;
  profile: string;
  owner?: OwnerMark;
}

export interface LoadedBook {
  rows: Map<string, RowState>;
  verdicts: Map<string, Verdict>;
  targets: Map<string, Target>;
  others: Line[];
  /** The file held an older format and was backed up there; the caller writes the new format over it. */
  migratedFrom?: string;
}

export async function loadBook(
  path: string,
  kind: BookKind,
  tid: string,
  damaged: (why: string) => Error,
  /** readOnly: a dry run's read, which leaves an older format as it is (no backup copy). */
  migration: MigrationContext & { legacyPath?: string; readOnly?: boolean },
): Promise<LoadedBook> {
  const book: LoadedBook = { rows: new Map(), verdicts: new Map(), targets: new Map(), others: [] };
  let text = await readIfThere(path);
  let from = path;
  if (text === undefined && migration.legacyPath !== undefined) {
    text = await readIfThere(migration.legacyPath);
    from = migration.legacyPath;
  }
  if (text === undefined || text.trim() === "") return book;

  let lines: Line[];
  if (text.trimStart().startsWith("{\n") || /^\s*\{\s*"kind"\s*:\s*"shipctl-report-journal"/.test(text)) {
    // The report journal of shipctl 0.1 is one JSON document, not lines.
    lines = fromReportJournal(text, migration, damaged);
  } else {
    lines = bookLines(text, (lineNo) => {
      throw damaged(`line ${lineNo} is not readable`);
    });
    const header = lines[0];
    if (header?.shipctl_journal === 1 && header.kind === kind) lines = fromVersion1(lines, migration);
    else if (header?.shipctl_ledger !== LEDGER_VERSION || header.kind !== kind) throw damaged(`it is not a shipctl ${kind} journal (version ${LEDGER_VERSION})`);
  }
  if (lines[0]?.migrated === true && migration.readOnly !== true) {
    // Kept as it was: the caller writes the new format over `path` (and retires a legacy file once it has).
    await copyFile(from, `${from}.v1.bak`);
    book.migratedFrom = from;
  }
  for (const line of lines.slice(1)) apply(book, tid, line);
  return book;
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

function apply(book: LoadedBook, tid: string, line: Line): void {
  if (typeof line.target === "string") {
    book.targets.set(line.target, { baseUrl: String(line.base_url), profile: String(line.profile), owner: readMark(line.owner) });
    return;
  }
  if (line.t !== tid) {
    book.others.push(line);
    return;
  }
  if (typeof line.address === "string") {
    book.verdicts.set(line.address, line.verdict as Verdict);
    return;
  }
  if (line.state === undefined && (typeof line.sent_at === "string" || typeof line.answered_at === "string")) {
    // A request in flight whose last byte left (Book.markSent) or that the service answered (Book.markAnswered): its
    // settle time moves.
    const { t: _t, row: _row, rows: _rows, ...facts } = line;
    for (const [key] of statesOf(line)) {
      const s = book.rows.get(key);
      if (s?.state === "in_flight") book.rows.set(key, { ...s, ...facts, settle_at: String(line.settle_at ?? s.settle_at) });
    }
    return;
  }
  for (const [key, state] of statesOf(line)) book.rows.set(key, state);
}
