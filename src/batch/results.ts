// The end of a batch: a table on stdout (row, reference, title, id, status or error), or with --json one document
// {created, failed, skipped, matched, counts, ...}; a one-line summary on stderr; and the exit code:
//   0 every row done (now, by an earlier run, or unchanged: an update's record already held it) · 8 partly done · 2 invalid input, nothing sent
//   9 every other row done, and rows edited since they were created left as they were (or not matched with certainty)
//   7 nothing done because the service was unavailable · 6 nothing done because the service refused the rows
import { ExitCode, type ErrorJson } from "../errors.js";
import { renderTable, type Column } from "../output/table.js";
import type { Theme } from "../output/theme.js";
import type { NotesJson } from "../csv/value-notes.js";
import type { Outcome, Outcomes } from "./outcomes.js";

export interface ResultWords {
  /** "shipment_id" or "address_id". */
  idKey: string;
  /** Table header of the id column. */
  idHeader: string;
  /** Table header of the label column ("title", "name"). */
  labelHeader: string;
  /** Past tense of the action ("created", "updated"). */
  done: "created" | "updated" | "valid";
}

type Row = [number, Outcome];
/** A list of the --json document: its key, the status of its rows, and how a row reads in it. */
type List = readonly [string, Outcome["status"], (r: Row) => unknown];

/** How outcomes are numbered: spreadsheet rows (CSV), or items 1..N of `shipment create` from flags or a JSON file. */
export type Position = "row" | "item";

/** A dry run's table says what the run would do with each row (its outcomes are predictions: dry-run-report.ts). */
function dryRunStatusText(o: Outcome, words: ResultWords): string {
  if (o.status === words.done || o.status === "updated") return o.sends ? `would send: ${o.sends}` : "would send";
  if (o.status === "failed") return `would fail: ${o.error ?? ""}`;
  if (o.status === "matched") return `would skip: ${o.error ?? ""}`;
  return statusText(o, words);
}

function statusText(o: Outcome, words: ResultWords): string {
  switch (o.status) {
    case "skipped":
      return words.done === "updated" ? "already updated (earlier run)" : "already created (earlier run)";
    case "matched":
      return `matched: ${o.error ?? "a shipment another machine created"}`;
    case "failed":
      return `failed: ${o.error ?? ""}`;
    case "unknown":
      return `unknown: ${o.error ?? "the answer was lost"}`;
    case "pending":
      return o.error ? `not sent: ${o.error}` : "not sent";
    case "unsure":
      return o.error ?? "not created";
    default:
      return o.error ? `${o.status}: ${o.error}` : o.status;
  }
}

export function renderResultsTable(outcomes: Outcomes, words: ResultWords, options: { theme?: Theme; width?: number; position?: Position; dryRun?: boolean }): string {
  const status = options.dryRun ? dryRunStatusText : statusText;
  const columns: Column<Row>[] = [
    { header: (options.position ?? "row").toUpperCase(), value: ([row]) => row, align: "right", keep: true },
    { header: "REFERENCE", value: ([, o]) => o.reference ?? "" },
    { header: words.labelHeader.toUpperCase(), value: ([, o]) => o.label },
    { header: words.idHeader.toUpperCase(), value: ([, o]) => o.id ?? "", align: "right", keep: true },
    { header: "STATUS", value: ([, o]) => status(o, words) },
  ];
  return renderTable(columns, outcomes.entries(), options);
}

/** A run's counts by outcome (countsOf). */
export type Counts = ReturnType<typeof countsOf>;

export function countsOf(outcomes: Outcomes, words: ResultWords) {
  return {
    rows: outcomes.size,
    done: outcomes.count(words.done),
    failed: outcomes.count("failed"),
    skipped: outcomes.count("skipped"),
    /** Matched a recent shipment another machine created (shipments/look/): done, not sent. */
    matched: outcomes.count("matched"),
    /** Rows of an update not sent: their records already held them (batch/update-plan.ts). */
    unchanged: outcomes.count("unchanged"),
    /** Rows of a create edited since they were created, left as they were; and rows not matched with certainty. */
    changed: outcomes.count("changed"),
    unsure: outcomes.count("unsure"),
    /** Rows of a create edited since, sent as updates (--update-changed); in an update's counts, `done`. */
    updated: words.done === "updated" ? 0 : outcomes.count("updated"),
    unknown: outcomes.count("unknown"),
    pending: outcomes.count("pending"),
  };
}

/**
 * The --json document, written a piece at a time: the same text as `JSON.stringify(document, null, 2)`, without the
 * whole document (or its text) in memory at once: a 100,000-row run whose rows all failed made 31 MB of it and
 * peaked at 283 MB. Every row of the input is in exactly one list: done, failed, unknown (its request may have been
 * applied), not_sent (never sent: the run stopped before it, or before reaching it), skipped (done by an earlier run),
 * matched (not sent: a recent shipment another machine created holds it; `shipment_id` is that one, `error` says which).
 * A CSV create's document also has updated (changed rows sent as updates: --update-changed), changed (edited since
 * created, left as they were: `shipment_id` the one created, `changes` each field's from and to) and unsure (not
 * created: perhaps an edited row; shipments/changed-rows.ts).
 */
export function writeResultsJson(
  out: (text: string) => void,
  outcomes: Outcomes,
  words: ResultWords,
  extra: { notes?: NotesJson; ledger?: string; results?: { results: string; errors: string }; position?: Position; error?: ErrorJson; columns?: Record<string, string>; plan?: unknown[] },
): void {
  const position = extra.position ?? "row";
  const item = ([row, o]: Row) => ({
    [position]: row,
    reference: o.reference ?? null,
    [words.labelHeader]: o.label,
    ...(o.id !== undefined ? { [words.idKey]: o.id } : {}),
  });
  const entries = outcomes.entries();
  const counts = countsOf(outcomes, words);
  const withError = (r: Row) => ({ ...item(r), status: r[1].status, error: r[1].error ?? null, ...(r[1].problems ? { problems: r[1].problems } : {}) });
  const editable = words.done === "created" && position === "row";
  const withChanges = (r: Row) => ({ ...item(r), changes: r[1].changes ?? [] });
  const editedLists: List[] = [
    ["updated", "updated", withChanges],
    ["changed", "changed", (r: Row) => ({ ...withChanges(r), error: r[1].error ?? null })],
    ["unsure", "unsure", withError],
  ];
  const lists: List[] = [
    [words.done, words.done, item],
    ["failed", "failed", withError],
    ["unknown", "unknown", withError],
    ["not_sent", "pending", withError],
    ["skipped", "skipped", item],
    ["matched", "matched", withError],
    // Only an update plans, so only its document has the list (and the count).
    ...(words.done === "updated" ? [["unchanged", "unchanged", item] as const] : []),
    // Only a CSV create recognises rows edited since they were created.
    ...(editable ? editedLists : []),
  ];
  const tail: Record<string, unknown> = {
    counts: {
      [`${position}s`]: counts.rows,
      [words.done]: counts.done,
      failed: counts.failed,
      skipped: counts.skipped,
      matched: counts.matched,
      ...(words.done === "updated" ? { unchanged: counts.unchanged } : {}),
      ...(editable ? { updated: counts.updated, changed: counts.changed, unsure: counts.unsure } : {}),
      unknown: counts.unknown,
      not_sent: counts.pending,
    },
    ...(extra.notes ? { changes: extra.notes.changes, mappings: extra.notes.mappings } : {}),
    ...(extra.columns ? { columns: extra.columns } : {}),
    ...(extra.ledger ? { ledger: extra.ledger } : {}),
    ...(extra.results ? { results_file: extra.results.results, errors_file: extra.results.errors } : {}),
    ...(extra.plan ? { plan: extra.plan } : {}),
    ...(extra.error ? { error: extra.error } : {}),
  };
  // JSON.stringify(value, null, 2) nested `depth` levels in: every line after its first moves right. String values
  // hold no raw line breaks (JSON escapes them), so every "\n" is the layout's own.
  const nested = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${"  ".repeat(depth)}`);
  const keys = [...lists.map(([key]) => key), ...Object.keys(tail)];
  out("{\n");
  keys.forEach((key, i) => {
    out(`  ${JSON.stringify(key)}: `);
    const list = lists.find(([k]) => k === key);
    if (list) {
      let first = true;
      for (const value of mapWhere(entries, ([, o]) => o.status === list[1], list[2])) {
        out(`${first ? "[\n" : ",\n"}    ${nested(value, 2)}`);
        first = false;
      }
      out(first ? "[]" : "\n  ]");
    } else out(nested(tail[key], 1));
    out(i < keys.length - 1 ? ",\n" : "\n");
  });
  out("}\n");
}

function* mapWhere<T, U>(items: readonly T[], keep: (item: T) => boolean, map: (item: T) => U): Generator<U> {
  for (const item of items) if (keep(item)) yield map(item);
}

export function summaryLine(counts: Counts, words: ResultWords, position: Position = "row"): string {
  const parts = [`${counts.done} ${words.done}`];
  if (counts.skipped > 0) parts.push(`${counts.skipped} already ${words.done === "updated" ? "updated" : "created"} by an earlier run`);
  if (counts.matched > 0) parts.push(`${counts.matched} matched a shipment another machine created (not sent)`);
  if (counts.unchanged > 0) parts.push(`${counts.unchanged} unchanged`);
  if (counts.updated > 0) parts.push(`${counts.updated} updated (edited since created: --update-changed)`);
  if (counts.changed > 0) parts.push(`${counts.changed} edited since created (left as ${counts.changed === 1 ? "it was" : "they were"})`);
  if (counts.unsure > 0) parts.push(`${counts.unsure} not created (perhaps edited rows: not matched with certainty)`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.unknown > 0) parts.push(`${counts.unknown} unknown (answer lost)`);
  if (counts.pending > 0) parts.push(`${counts.pending} not sent`);
  return `${parts.join(", ")} (of ${counts.rows} ${position}${counts.rows === 1 ? "" : "s"}).`;
}

/** `doneElsewhere`: rows done that `outcomes` does not hold (a --json dry run counts the rows it would send apart). */
export function exitCodeOf(outcomes: Outcomes, words: ResultWords, doneElsewhere = 0): number {
  const c = countsOf(outcomes, words);
  const notDone = c.failed + c.unknown + c.pending;
  // Rows edited since they were created and left as they were: one code, so a script knows to look at them.
  if (notDone === 0) return c.changed + c.unsure > 0 ? ExitCode.Changed : ExitCode.Ok;
  if (c.done + c.skipped + c.matched + c.unchanged + c.updated + doneElsewhere > 0) return ExitCode.Partial;
  // --skip-invalid with every row invalid: nothing was sent, so it is the input's fault (2), not the service's (6).
  if (outcomes.onlyInvalid()) return ExitCode.Usage;
  return outcomes.anyUnavailable() ? ExitCode.Unavailable : ExitCode.Rejected;
}
